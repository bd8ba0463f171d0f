#include "app/editor.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "app/session.hpp"
#include "scene/edit.hpp"
#include "scene/size.hpp"
#include "ui/panel.hpp"

namespace app {

namespace {
// Roughly what a kept scene costs in memory: the undo budget counts it.
std::size_t footprint(const scene::SceneDef& d) {
  return scene::sizeOf(d).bytes;
}

constexpr double kDegrees = 180.0 / std::numbers::pi;

// The panel's editor for the kind's layout of bodies (the ui room does not see sim).
ui::BodyEditor bodyEditor(sim::BodyLayout layout) {
  switch (layout) {
    case sim::BodyLayout::Network:
      return ui::BodyEditor::Network;
    case sim::BodyLayout::Chain:
      return ui::BodyEditor::Chain;
  }
  return ui::BodyEditor::Network;  // not reached: the switch is exhaustive
}
// The selection in words (ui::EditView::selection_name), the bodies in index order: at most
// kNamedBodies by number, the rest counted.
constexpr std::size_t kNamedBodies = 5;
std::string selectionName(const scene::Built& b, std::vector<int> selection) {
  if (selection.size() <= 1) return selection.empty() ? "" : b.bodyName(selection[0]);
  std::sort(selection.begin(), selection.end());
  const std::size_t named = std::min(selection.size(), kNamedBodies);
  const std::size_t rest = selection.size() - named;
  std::string text = std::string(b.bodyNoun()) + "s ";
  if (rest > 0)
    text = std::to_string(selection.size()) + " " + text.substr(0, text.size() - 1) + ": ";
  for (std::size_t i = 0; i < named; ++i) {
    const bool last = i + 1 == named && rest == 0;
    text += (i == 0 ? "" : last ? " and " : ", ") + std::to_string(selection[i]);
  }
  if (rest > 0) text += " and " + std::to_string(rest) + " more";
  return text;
}

// A new scene's name on the panel's scene line, and its stem: Save as's default is
// "new_scene-edited.json"
constexpr const char* kNewSceneName = "New scene";
constexpr const char* kNewSceneStem = "new_scene";
}  // namespace

void Editor::pushUndo(scene::SceneDef def) {
  undo_.push_back(std::move(def));
  std::size_t bytes = 0;
  for (const scene::SceneDef& d : undo_) bytes += footprint(d);
  while (undo_.size() > 1 && (static_cast<int>(undo_.size()) > kUndoDepth || bytes > kUndoBudget)) {
    bytes -= footprint(undo_.front());
    undo_.pop_front();
  }
}

bool Editor::switchTo(Session& s, const scene::SceneDef& def, std::string& why) {
  if (!s.switchTo(def, why)) return false;
  selection_.erase(std::remove_if(selection_.begin(), selection_.end(),
                                  [&](int b) { return b >= s.built().bodies(); }),
                   selection_.end());
  return true;
}

template <class Change>
bool Editor::edit(Session& s, Change&& change, std::string& why) {
  scene::SceneDef before = s.savedDef();
  scene::SceneDef after = before;
  if (auto bad = change(after)) return why = message_ = *bad, false;
  if (!switchTo(s, after, why)) return message_ = why, false;
  pushUndo(std::move(before));
  redo_.clear();
  message_.clear();
  return true;
}

void Editor::beginPlacement(scene::SceneDef now) {
  pushUndo(std::move(now));
  redo_.clear();
}

bool Editor::undo(Session& s, std::string& why) {
  if (undo_.empty()) return why = "undo: nothing to undo", false;
  scene::SceneDef now = s.savedDef();
  if (!switchTo(s, undo_.back(), why)) return false;
  undo_.pop_back();
  redo_.push_back(std::move(now));
  return true;
}

bool Editor::redo(Session& s, std::string& why) {
  if (redo_.empty()) return why = "redo: nothing to redo", false;
  scene::SceneDef now = s.savedDef();
  if (!switchTo(s, redo_.back(), why)) return false;
  redo_.pop_back();
  pushUndo(std::move(now));
  return true;
}

// One overload per ui::EditCommand, and no catch-all (ui::kAppliesExactly, asserted in apply).
struct Editor::Applier {
  Editor& e;
  Session& s;
  std::string& why;

  template <class Change>
  Outcome change(Change&& c) const {
    return appliedIf(e.edit(s, std::forward<Change>(c), why));
  }

  Outcome operator()(const ui::SetEditMode& c) const {
    e.editing_ = c.on;
    if (c.on) s.setPaused(true);  // editing holds the simulation still
    e.message_.clear();
    return Outcome::Applied;
  }
  Outcome operator()(const ui::SetNewSpring& c) const {
    if (!(std::isfinite(c.stiffness) && c.stiffness > 0.0 && std::isfinite(c.mass) &&
          c.mass > 0.0 && std::isfinite(c.damping) && c.damping >= 0.0))
      return why = "new spring: stiffness and mass must be > 0, damping >= 0", Outcome::Rejected;
    e.new_spring_ = c;
    return Outcome::Applied;
  }
  Outcome operator()(const ui::EditAddParticle& c) const {
    // a planar scene stays planar (docs/scenes.md#planar-scenes): its new particles at z = 0
    const sim::Vec3 at(c.at[0], c.at[1], s.built().planar() ? 0.0 : c.at[2]);
    const double mass = e.new_spring_.mass;
    return change([&](scene::SceneDef& d) { return scene::addParticle(d, at, mass); });
  }
  Outcome operator()(const ui::SetEditTool& c) const {
    if (c.tool < 0 || c.tool >= static_cast<int>(std::size(scene::kEditToolNames)))
      return why = "tool " + std::to_string(c.tool) + ": no such tool", Outcome::Rejected;
    scene::ToolSettings probe;  // its transform, checked as a click would check it
    probe.mesh_scale = c.mesh_scale;
    probe.mesh_rotate_deg =
        sim::Vec3(c.mesh_rotate_deg[0], c.mesh_rotate_deg[1], c.mesh_rotate_deg[2]);
    if (auto bad = scene::checkMeshTransform(probe)) return why = *bad, Outcome::Rejected;
    e.tool_ = c;
    return Outcome::Applied;
  }
  Outcome operator()(const ui::EditPlaceTool& c) const {
    const sim::Vec3 at(c.at[0], c.at[1], s.built().planar() ? 0.0 : c.at[2]);
    const auto& r = e.tool_.mesh_rotate_deg;
    const scene::ToolSettings settings{e.new_spring_.stiffness, e.new_spring_.damping,
                                       e.new_spring_.mass,      e.tool_.mesh_file,
                                       e.tool_.mesh_scale,      sim::Vec3(r[0], r[1], r[2])};
    const auto tool = static_cast<scene::EditTool>(e.tool_.tool);
    return change([&](scene::SceneDef& d) { return scene::addTool(d, tool, at, settings); });
  }
  Outcome operator()(const ui::EditAddSpring& c) const {
    const ui::SetNewSpring n = e.new_spring_;
    return change(
        [&](scene::SceneDef& d) { return scene::addSpring(d, c.a, c.b, n.stiffness, n.damping); });
  }
  Outcome operator()(const ui::EditMoveBody& c) const {
    if (c.body < 0 || c.body >= s.built().bodies())
      return why = "body " + std::to_string(c.body) + ": no such particle or bob",
             Outcome::Rejected;
    e.beginPlacement(s.savedDef());
    return appliedIf(s.placeBody(c.body, sim::Vec3(c.at[0], c.at[1], c.at[2]), why));
  }
  Outcome operator()(const ui::EditSelect& c) const {
    if (c.body >= s.built().bodies())
      return why = "body " + std::to_string(c.body) + ": no such particle or bob",
             Outcome::Rejected;
    auto& sel = e.selection_;
    const auto at = std::find(sel.begin(), sel.end(), c.body);
    if (!c.add) sel.clear();
    if (c.add && at != sel.end())
      sel.erase(at);  // Shift on a selected body takes it out
    else if (c.body >= 0)
      sel.push_back(c.body);
    return Outcome::Applied;
  }
  Outcome operator()(const ui::EditSelectMany& c) const {
    for (const int b : c.bodies)
      if (b < 0 || b >= s.built().bodies())
        return why = "body " + std::to_string(b) + ": no such particle or bob", Outcome::Rejected;
    auto& sel = e.selection_;
    if (!c.add) sel.clear();
    for (const int b : c.bodies)
      if (std::find(sel.begin(), sel.end(), b) == sel.end()) sel.push_back(b);
    return Outcome::Applied;
  }
  Outcome operator()(const ui::EditTogglePin&) const {
    const auto sel = e.selection_;
    const double mass = e.new_spring_.mass;
    return change([&](scene::SceneDef& d) { return scene::togglePinned(d, sel, mass); });
  }
  Outcome operator()(const ui::EditDelete&) const {
    const auto sel = e.selection_;
    const Outcome o = change([&](scene::SceneDef& d) { return scene::deleteParticles(d, sel); });
    if (o == Outcome::Applied) e.selection_.clear();
    return o;
  }
  Outcome operator()(const ui::EditSetMass& c) const {
    return change([&](scene::SceneDef& d) { return scene::setParticleMass(d, c.body, c.mass); });
  }
  Outcome operator()(const ui::EditSetSpring& c) const {
    if (e.selection_.size() != 2)
      return why = "spring: select the two particles it joins", Outcome::Rejected;
    const int a = e.selection_[0], b = e.selection_[1];
    return change([&](scene::SceneDef& d) -> scene::EditProblem {
      const int spring = scene::springBetween(d, a, b);
      if (auto bad = scene::setSpring(d, spring, c.stiffness, c.damping)) return bad;
      return scene::setRestLength(d, spring, c.rest_length);
    });
  }
  Outcome operator()(const ui::EditSetLink& c) const {
    return change([&](scene::SceneDef& d) -> scene::EditProblem {
      if (auto bad = scene::setLink(d, c.link, c.length, c.mass)) return bad;
      return scene::setStartAngle(d, c.link, c.angle_deg / kDegrees);
    });
  }
  Outcome operator()(const ui::EditAddLink&) const { return change(scene::addLink); }
  Outcome operator()(const ui::EditRemoveLink&) const { return change(scene::removeLastLink); }
  Outcome operator()(const ui::NewScene&) const {
    e.pushUndo(s.savedDef());
    e.redo_.clear();
    e.selection_.clear();
    const Session::NewSceneName name{kNewSceneName, kNewSceneStem};
    if (!s.switchTo(scene::newScene(), why, &name)) return Outcome::Rejected;
    e.editing_ = true;  // a new scene is for building
    s.setPaused(true);
    return Outcome::NewScene;
  }
  Outcome operator()(const ui::Undo&) const { return appliedIf(e.undo(s, why)); }
  Outcome operator()(const ui::Redo&) const { return appliedIf(e.redo(s, why)); }
};

Outcome Editor::apply(const ui::EditCommand& c, Session& s, std::string& why) {
  static_assert(ui::kAppliesExactly<Applier, ui::EditCommand>);
  return std::visit(Applier{*this, s, why}, c);
}

void Editor::fill(const scene::Built& b, ui::EditView& e) const {
  e = ui::EditView{};
  e.editing = editing_;
  e.undo = undoDepth(), e.redo = redoDepth();
  e.message = message_;
  e.new_stiffness = new_spring_.stiffness, e.new_damping = new_spring_.damping;
  e.new_mass = new_spring_.mass;
  e.selection = selection_;
  e.tool = tool_.tool;
  e.tool_names.assign(std::begin(scene::kEditToolNames), std::end(scene::kEditToolNames));
  e.mesh_file = tool_.mesh_file;
  e.mesh_scale = tool_.mesh_scale, e.mesh_rotate_deg = tool_.mesh_rotate_deg;
  e.tool_takes_file = tool_.tool == static_cast<int>(scene::EditTool::Mesh);
  const sim::EditFacts f = b.editFacts(b.state, selection_);
  e.layout = bodyEditor(f.layout);
  e.particles = f.particles, e.springs = f.springs, e.links = f.links;
  e.body = f.body;
  if (f.body >= 0) e.body_name = b.bodyName(f.body);
  e.selection_name = selectionName(b, selection_);
  e.mass = f.mass, e.fixed = f.fixed;
  e.length = f.length, e.angle_deg = f.angle * kDegrees;
  e.spring = f.spring;
  e.stiffness = f.stiffness, e.damping = f.damping, e.rest_length = f.rest_length;
}

}  // namespace app
