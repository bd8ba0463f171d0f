// The Session (docs/architecture.md#the-session-and-commands): the one owner of the window's
// simulation, a thin composition of its owners, as Jolt's PhysicsSystem delegates to its managers:
// the loaded scene (app/loaded_scene.hpp: loading, reload, Save as), the lanes and their timeline
// (app/timeline.hpp: the clock, events, kept states, plots), the measurements
// (app/measurements.hpp: equilibrium, periods, arrows, limit lines, stopwatch), the editor
// (app/editor.hpp: edit mode, selection, undo) and the background jobs (app/lab_jobs.hpp). The
// panel and the input emit ui::Commands, which it validates and applies between steps, each by
// its owner (session_commands.cpp); what crosses owners (a start after a load or an edit, a
// restart, a step, a seek) is here, in one place (session.cpp). It fills the panel's model from
// each owner's view (fillPanel).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/editor.hpp"
#include "app/energy_zero.hpp"
#include "app/lab_jobs.hpp"
#include "app/loaded_scene.hpp"
#include "app/measurements.hpp"
#include "app/outcome.hpp"
#include "app/timeline.hpp"
#include "ui/panel.hpp"

namespace app {

class Session {
 public:
  Session();

  // Loads a scene (a built-in name or a .json path); throws scene::Error on bad input and keeps
  // the previous scene.
  void load(const std::string& sceneArg);
  void loadDef(const scene::SceneDef& def, const std::string& name, const std::string& path);

  using Outcome = app::Outcome;
  // Applies one of the Session's commands (session_commands.cpp: its own, the clock's by the
  // Timeline, the stopwatch's by the Measurements) or edit mode's (the Editor); returns false
  // with a message when it is rejected (out of range, inapplicable integrator, unreadable
  // file...), and what it did in `outcome` if given.
  bool apply(const ui::SessionCommand& c, std::string* message, Outcome* outcome = nullptr);
  bool apply(const ui::EditCommand& c, std::string* message, Outcome* outcome = nullptr);

  // One step of the session's clock (lane 0's dt): events due are applied first, lane 0 steps
  // and every other lane goes to its step nearest in time (lab::LaneGroup). A lane that diverges
  // freezes; the others go on. False when every lane has diverged (the simulation then pauses).
  // A state is kept on the timeline when one is due. The runaway rule is applied first to the
  // state the step starts from when a check is due (Timeline::kRunawayCheckSpacing).
  bool stepOnce();
  // Records energy and phase samples (called once per rendered frame) when the state has moved
  // since the last one: paused, the plots hold still. Also applies the runaway rule
  // (sim/diagnostics.hpp) to every lane: a state still finite but absurd is reported as that
  // lane's divergence, so the user sees the banner instead of an empty screen (`run` only warns).
  void sample() { timeline_.sample(); }

  // The mouse spring: body index (particle or bob), target (m); clear with body = -1. Taking or
  // letting go re-anchors the energy drift (the hand does work on the system).
  void setGrab(int body, const sim::Vec3& target);
  int grabbed() const { return built().grabbed(); }
  // Places `body` at `target` (m) by hand (sim::System::placeBody,
  // docs/exploring.md#placing-a-body): lane 0's shown state with the body there, everything at
  // rest, at t = 0, becomes the scene's initial state (Reset and Save as start from it) and every
  // lane starts again from it. False with `why`.
  bool placeBody(int body, const sim::Vec3& target, std::string& why);
  // Before a paused drag places a body: the scene as it starts now goes on the undo stack.
  void beginPlacement() { editor_.beginPlacement(savedDef()); }

  // The session on `def` (an edit, undo, redo), keeping the scene's name (or taking a new
  // scene's, with no file), the lanes (integrators, dts, set-ups), pause and edit mode. False with
  // `why` when it cannot be built.
  struct NewSceneName {
    std::string name, stem;  // on the panel's scene line; Save as's default "STEM-edited.json"
  };
  bool switchTo(const scene::SceneDef& def, std::string& why, const NewSceneName* fresh = nullptr);

  // Events --at (docs/cli.md#events) for the window; they replay after Reset.
  void setEvents(std::vector<lab::Event> events) { timeline_.setEvents(std::move(events)); }
  void setHistoryBudget(std::size_t bytes) { timeline_.setHistoryBudget(bytes); }

  // --- the owners, to read
  const LoadedScene& scene() const { return scene_; }
  const Timeline& timeline() const { return timeline_; }
  const Measurements& measurements() const { return measure_; }
  const Editor& editor() const { return editor_; }

  // --- what most readers want, from the owners
  const scene::SceneDef& def() const { return scene_.def(); }
  const scene::Built& built() const { return scene_.built(); }
  const std::string& sceneName() const { return scene_.name(); }
  const std::string& sceneArg() const { return scene_.arg(); }  // as given to load()
  // lane 0, the primary lane: what the panel's Simulation section and the caption describe
  const lab::Lane& primary() const { return timeline_.primary(); }
  const sim::State& state() const { return primary().state(); }
  sim::Method method() const { return primary().method(); }
  double dt() const { return primary().dt(); }
  sim::Energy energy() const { return primary().energy(); }
  double initialEnergy() const { return primary().e0(); }  // J, the drift's anchor
  const std::optional<sim::Divergence>& divergence() const { return primary().divergence(); }
  int laneCount() const { return timeline_.laneCount(); }
  const lab::Lane& lane(int i) const { return timeline_.lane(i); }
  // What lane i draws, and the caption and the bars describe: the blow-up's replayed frame for
  // lane 0 while it plays (ui::ReplayBlowUp), else the lane (Timeline::shownLane).
  const lab::Lane& shownLane(int i) const { return timeline_.shownLane(i); }
  bool replaying() const { return timeline_.replaying(); }
  // The replay's next frame; past its last, it ends and the runaway state is drawn again.
  void advanceReplay() { timeline_.advanceReplay(); }
  bool paused() const { return timeline_.paused(); }
  void setPaused(bool p) { timeline_.setPaused(p); }
  double timeScale() const { return timeline_.timeScale(); }
  long long steps() const { return timeline_.steps(); }  // of the session's clock
  double time() const { return timeline_.time(); }       // s, the session's clock
  double stiffnessScale() const { return built().parameter(sim::Parameter::StiffnessScale); }

  // The scene's definition with the parameters as they are now (for background jobs).
  scene::SceneDef currentDef() const { return scene_.currentDef(method(), dt()); }
  // The scene as Save as writes it: the initial state and the parameters as they are now.
  scene::SceneDef savedDef() const { return scene_.savedDef(method(), dt()); }
  // Where "Save map PNG" writes with no path given (session_commands.cpp).
  std::string mapPngPath() const;

  // Fills the panel's model: each owner's view.
  void fillPanel(ui::PanelModel& pm) const;
  // Gravity's zero in the energy bars and plot (docs/lab.md#the-zero-of-the-potential).
  lab::PotentialZero potentialZero() const { return zero_.zero(); }

  // The mouse spring's stiffness until the panel changes it.
  static constexpr double kDefaultGrabStiffness = 100.0;  // N/m

 private:
  struct Applier;  // the Session's commands (session_commands.cpp)

  void reload();                      // the scene file again (throws as load)
  void start();                       // lanes, timeline and plots afresh on the scene just loaded
  void restart(const sim::State& s);  // every lane from s, a fresh timeline and plots
  void seek(int entry);               // every lane to a kept state (paused)
  // After a conservative change (k, gravity, grab): every lane's E0 := its current E, the scales
  // from the current state, and a mark on the plots at the current time.
  void reanchor();
  bool addLane(int source, const std::string& integrator, double dt, const std::string& setup,
               std::string& why);

  LoadedScene scene_;
  Timeline timeline_{scene_};
  Measurements measure_{scene_, timeline_};
  Editor editor_;
  EnergyZero zero_;
  double grab_stiffness_ = kDefaultGrabStiffness;  // N/m
  LabJobs jobs_;                                   // last: its threads stop before the rest goes
};

}  // namespace app
