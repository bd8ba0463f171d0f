// Edit mode, the Bodies section and undo (docs/exploring.md#edit-mode): the Session's owner of
// editing. It keeps edit mode, the selection, the tool and the new-spring settings, and the undo
// and redo stacks of scenes; it applies edit mode's commands (editor.cpp) and fills the panel's
// Edit section. Every edit changes the scene as it starts now (Session::savedDef, explicit: each
// particle and spring listed) with a scene::edit function, and the session starts again on the
// result, its lanes kept (Session::switchTo); the scene it replaced goes on the undo stack.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <vector>

#include "app/outcome.hpp"
#include "scene/build.hpp"
#include "scene/scene_def.hpp"
#include "ui/command.hpp"

namespace ui {
struct EditView;
}

namespace app {

class Session;

class Editor {
 public:
  // One of edit mode's commands on session `s` (an edit, undo and redo start it on another
  // scene); rejected with `why`.
  Outcome apply(const ui::EditCommand& c, Session& s, std::string& why);
  // Before a paused drag places a body: the scene as it starts `now` goes on the undo stack.
  void beginPlacement(scene::SceneDef now);
  void leave() { editing_ = false; }  // running again leaves edit mode

  bool editing() const { return editing_; }
  const std::vector<int>& selection() const { return selection_; }
  // The last edit's refusal ("a spring needs two different particles..."), empty after one that
  // was done: the Edit section shows it.
  const std::string& message() const { return message_; }
  int undoDepth() const { return static_cast<int>(undo_.size()); }
  int redoDepth() const { return static_cast<int>(redo_.size()); }

  // The panel's Edit section: edit mode, the tools, what is selected in `b` and its values.
  void fill(const scene::Built& b, ui::EditView& v) const;

  // Undo keeps at most this many scenes, and at most kUndoBudget bytes of them (the oldest go).
  static constexpr int kUndoDepth = 200;
  static constexpr std::size_t kUndoBudget = 256u << 20;

 private:
  struct Applier;  // one overload per ui::EditCommand (editor.cpp)
  void pushUndo(scene::SceneDef def);
  // An edit: the scene as it starts now, changed; on success the old one goes on the undo stack
  // and the session starts on the new one. False with `why`.
  template <class Change>
  bool edit(Session& s, Change&& change, std::string& why);
  bool undo(Session& s, std::string& why);
  bool redo(Session& s, std::string& why);
  // Session::switchTo, then the selection within the new scene's bodies.
  bool switchTo(Session& s, const scene::SceneDef& def, std::string& why);

  bool editing_ = false;
  std::vector<int> selection_;  // bodies selected in edit mode, in the order picked
  std::string message_;
  std::deque<scene::SceneDef> undo_;  // the oldest first
  std::vector<scene::SceneDef> redo_;
  ui::SetNewSpring new_spring_;  // what the next spring and particle get
  ui::SetEditTool tool_;
};

}  // namespace app
