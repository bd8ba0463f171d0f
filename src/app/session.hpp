// The Session (docs/architecture.md#the-session-and-commands): the one owner of the window's
// simulation. It holds the parts: the loaded scene (app/loaded_scene.hpp), its 1 to 4 lanes in
// lock-step (lab/lane_group.hpp), the events, the timeline of past states (lab/history.hpp), the
// plotted series (app/plot_history.hpp) and the background jobs (app/lab_jobs.hpp). The panel and
// the input emit ui::Commands, which it validates and applies between steps
// (session_commands.cpp); it fills the panel's model (session_panel.cpp).
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "app/lab_jobs.hpp"
#include "app/loaded_scene.hpp"
#include "app/plot_history.hpp"
#include "app/stopwatch.hpp"
#include "app/traced_motion.hpp"
#include "lab/equilibrium.hpp"
#include "lab/events.hpp"
#include "lab/history.hpp"
#include "lab/lane_group.hpp"
#include "ui/panel.hpp"

namespace app {

class Session {
 public:
  Session();

  // Loads a scene (a built-in name or a .json path); throws scene::Error on bad input and keeps
  // the previous scene.
  void load(const std::string& sceneArg);
  void loadDef(const scene::SceneDef& def, const std::string& name, const std::string& path);

  // What applying a command did: rejected, or applied, and then what the view follows
  // (FrameDriver::applyCommand): a scene loaded, the lanes started again (Reset, Rewind), a new
  // scene to build on, the scene saved (lastSaved).
  enum class Outcome { Rejected, Applied, Loaded, Restarted, NewScene, Saved };
  // Applies one of the Session's commands (session_commands.cpp) or edit mode's
  // (session_edit.cpp); returns false with a message when it is rejected (out of range,
  // inapplicable integrator, unreadable file...), and what it did in `outcome` if given.
  bool apply(const ui::SessionCommand& c, std::string* message, Outcome* outcome = nullptr);
  bool apply(const ui::EditCommand& c, std::string* message, Outcome* outcome = nullptr);

  // One step of the session's clock (lane 0's dt): events due are applied first, lane 0 steps
  // and every other lane goes to its step nearest in time (lab::LaneGroup). A lane that diverges
  // freezes; the others go on. False when every lane has diverged (the simulation then pauses).
  // A state is kept on the timeline when one is due. The runaway rule is applied first to the
  // state the step starts from when a check is due (kRunawayCheckSpacing).
  bool stepOnce();

  // The mouse spring: body index (particle or bob), target (m); clear with body = -1. Taking or
  // letting go re-anchors the energy drift (the hand does work on the system).
  void setGrab(int body, const sim::Vec3& target);
  int grabbed() const { return built().grabbed(); }
  // Places `body` at `target` (m) by hand (sim::System::placeBody,
  // docs/exploring.md#placing-a-body): lane 0's shown state with the body there, everything at
  // rest, at t = 0, becomes the scene's initial state (Reset and Save as start from it) and every
  // lane starts again from it. False with `why`.
  bool placeBody(int body, const sim::Vec3& target, std::string& why);

  // Records energy and phase samples (called once per rendered frame) when the state has moved
  // since the last one: paused, the plots hold still. Also applies the runaway rule
  // (sim/diagnostics.hpp) to every lane: a state still finite but absurd is reported as that
  // lane's divergence, so the user sees the banner instead of an empty screen (`run` only warns).
  void sample();

  // Events --at (docs/cli.md#events) for the window; they replay after Reset.
  void setEvents(std::vector<lab::Event> events);

  const scene::SceneDef& def() const { return scene_.def(); }
  const scene::Built& built() const { return scene_.built(); }
  // lane 0, the primary lane: what the panel's Simulation section and the caption describe
  const lab::Lane& primary() const { return lanes_.primary(); }
  const sim::State& state() const { return primary().state(); }
  sim::Method method() const { return primary().method(); }
  double dt() const { return primary().dt(); }
  bool paused() const { return paused_; }
  double timeScale() const { return time_scale_; }
  void setPaused(bool p) { paused_ = p; }
  const std::optional<sim::Divergence>& divergence() const { return primary().divergence(); }
  const std::string& sceneName() const { return scene_.name(); }
  const std::string& sceneArg() const { return scene_.arg(); }  // as given to load()
  long long steps() const { return lanes_.clock().total; }      // of the session's clock
  double time() const { return lanes_.time(); }                 // s, the session's clock
  double stiffnessScale() const { return built().parameter(sim::Parameter::StiffnessScale); }
  sim::Energy energy() const { return primary().energy(); }
  double initialEnergy() const { return primary().e0(); }  // J, the drift's anchor
  const sim::SceneScales& scales() const { return primary().scales(); }
  const std::vector<float>& marks() const { return plots_.marks(); }
  bool canRewind() const { return divergence() && history_.size() > 0; }
  // Counts the jumps of the state (Reset, a seek, Back 1 s): what follows the state smoothly
  // (the auto strain scale) starts afresh from the state restored.
  long long restores() const { return restores_; }

  // lanes (docs/lab.md#lanes)
  int laneCount() const { return lanes_.size(); }
  const lab::Lane& lane(int i) const { return lanes_[i]; }
  // the timeline of kept states
  const lab::History& history() const { return history_; }
  void setHistoryBudget(std::size_t bytes) { history_.setBudget(bytes); }

  // omega_max with the current parameters (rad/s), and a lane's step limit from it: 0 for
  // euler, nothing for the implicit ones (sim::dtLimit).
  double omegaMax() const { return scene_.omegaMax(); }
  std::optional<double> dtLimit(sim::Method m) const { return sim::dtLimit(m, omegaMax()); }
  // The local frequency of lane i's current state (rad/s, LoadedScene::omegaAt), as of the last
  // refresh: every kOmegaRefreshFills panel fills (a few times a second at 60 frames a second),
  // at once when a lane appears or its clock goes back. The limit lines follow it.
  double laneOmega(int i) const;
  static constexpr int kOmegaRefreshFills = 15;
  // The scene's definition with the parameters as they are now (for background jobs).
  scene::SceneDef currentDef() const { return scene_.currentDef(method(), dt()); }
  // Where "Save map PNG" writes with no path given (session_commands.cpp).
  std::string mapPngPath() const;
  // Where Save as writes with no path given: "SCENE-edited.json" in the current folder.
  std::string savePath() const;
  // The scene as Save as writes it: the initial state and the parameters as they are now.
  scene::SceneDef savedDef() const;
  const std::string& lastSaved() const { return last_saved_; }  // the path of the last save

  // --- the static equilibrium (lab/equilibrium.hpp) with the parameters as they are now: found
  // when first asked for after a change of the scene, a parameter or the grab, then kept
  const lab::Equilibrium& equilibrium();

  // --- edit mode and undo (docs/exploring.md#edit-mode; session_edit.cpp)
  bool editing() const { return editing_; }
  const std::vector<int>& selection() const { return selection_; }
  // The last edit's refusal ("a spring needs two different particles..."), empty after one that
  // was done: the Edit section shows it.
  const std::string& editMessage() const { return edit_message_; }
  int undoDepth() const { return static_cast<int>(undo_.size()); }
  int redoDepth() const { return static_cast<int>(redo_.size()); }
  // Before a paused drag places a body: the scene as it starts now goes on the undo stack.
  void beginPlacement();
  // Undo keeps at most this many scenes, and at most kUndoBudget bytes of them (the oldest go).
  static constexpr int kUndoDepth = 200;
  static constexpr std::size_t kUndoBudget = 256u << 20;

  // --- the traced body's arrows (docs/exploring.md#arrows; app/traced_motion.hpp)
  // The body of the phase plot's coordinate (-1: none), and lane i's motion of it.
  int tracedBody() const;
  BodyMotion tracedMotion(int lane) const;
  // fixed when a scene starts, from its initial size: every lane's arrows to one scale
  const ArrowScales& arrowScales() const { return arrow_scales_; }

  // The divergence report for the screen, times to 6 significant digits; empty if none.
  std::string divergenceSummary() const { return summary(divergence()); }
  static std::string summary(const std::optional<sim::Divergence>& d);
  // Fills the physics, simulation, lanes and diagnostics parts of a panel model.
  void fillPanel(ui::PanelModel& pm) const;

  // The mouse spring's stiffness until the panel changes it.
  static constexpr double kDefaultGrabStiffness = 100.0;  // N/m
  // The timeline: a state every kHistorySpacing of simulated time at first (a copy is O(N) and
  // rare next to the steps between two), within kHistoryBudget bytes unless the preferences say.
  static constexpr double kHistorySpacing = 1.0 / 30.0;      // s
  static constexpr std::size_t kHistoryBudget = 256u << 20;  // bytes
  // How far before the divergence Rewind goes: far enough to see the instability build up.
  static constexpr double kRewindBack = 1.0;  // s
  // The runaway rule is applied at least this often in simulated time, between rendered frames
  // too, so that the last checked state a blow-up shows (docs/lab.md) is at most this far before
  // it, whatever the frame rate (a 10 fps clip's frames are 0.1 s apart). A scene whose step is
  // longer is checked every step.
  static constexpr double kRunawayCheckSpacing = 1.0 / 240.0;  // s
  // The phase plot's choices: the first coordinates only, since the panel rebuilds the list
  // every frame (a 256 x 256 cloth has 196 608).
  static constexpr int kPhaseCoordinatesListed = 3000;
  // The step of the probe that picks which of the plotted body's coordinates moves
  static constexpr double kPhaseProbeStep = 1e-3;  // s
  // Lanes on screen at once (lane 0 included).
  static constexpr int kMaxLanes = lab::LaneGroup::kMaxLanes;

 private:
  struct Applier;      // the Session's commands (session_commands.cpp)
  struct EditApplier;  // edit mode's (session_edit.cpp)
  // apply's answer: true unless rejected; the reason into `message`, the outcome into `outcome`
  static bool answer(Outcome o, std::string& why, std::string* message, Outcome* outcome);

  void reload();                      // the scene file again (throws as load)
  void start();                       // lanes, timeline and plots afresh on the scene just loaded
  void restart(const sim::State& s);  // every lane from s, a fresh timeline and plots
  // dt within the window's range, else false with `why` ("dt: out of range")
  static bool checkDt(double dt, std::string& why);
  void rewind();
  // Every lane to a kept state (paused). The states after it stay on the timeline (scrubbing
  // goes back and forth) until the simulation steps on from an earlier state (dropFuture).
  void seek(int entry);
  void keepState();    // on the timeline, when one is due
  void keepPresent();  // before a first seek: the newest state too, so a scrub comes back to it
  void dropFuture();   // stepping on from an earlier state: the kept states and samples after it
  void applyDueEvents();
  // After a conservative change (k, gravity, grab): every lane's E0 := its current E, the scales
  // from the current state, and a mark on the plots at the current time.
  void reanchor();
  bool addLane(int source, const std::string& integrator, double dt, const std::string& setup,
               std::string& why);
  void sampleLane(int i, const Eigen::VectorXd& primaryPositions);
  void samplePeriods();  // each lane's phase coordinate into its period meter
  // The runaway rule on every lane (lane 0 with its energy e, where the caller has it).
  void checkRunaways(const sim::Energy* e);
  // An edit: the scene as it starts now (savedDef), changed; on success the old one goes on the
  // undo stack and the session starts on the new one (switchTo). False with `why`.
  template <class Change>
  bool edit(Change&& change, std::string& why);
  // The session on `def` (an edit, undo, redo), keeping the scene's name (or taking `name`, with
  // no file: a new scene), the lanes (integrators, dts, set-ups), pause and edit mode. False with
  // `why` when it cannot be built.
  bool switchTo(const scene::SceneDef& def, std::string& why, const std::string* name = nullptr);
  void pushUndo(scene::SceneDef def);
  bool undo(std::string& why);
  bool redo(std::string& why);
  void fillEdit(ui::PanelModel& pm) const;
  void fillScene(ui::PanelModel& pm) const;
  void fillPhysics(ui::PanelModel& pm) const;
  void fillPlots(ui::PanelModel& pm) const;
  void fillLanes(ui::PanelModel& pm) const;
  void fillPeriod(int i, ui::LaneRow& row) const;
  void fillEnergyBars(ui::PanelModel& pm) const;
  ui::ParameterControl control(const sim::ParameterInfo& row) const;
  std::string automaticFormat(sim::Parameter p) const;
  void refreshLaneOmegas() const;  // the cache below, when due (session_panel.cpp)

  // Each lane's local omega and the time of the state it is of (laneOmega), and the panel fills
  // since it was taken: a cache the const panel fill refreshes.
  struct LaneOmega {
    double omega = 0.0, t = 0.0;  // rad/s, s
  };
  mutable std::vector<LaneOmega> lane_omega_;
  mutable int omega_fills_ = 0;
  LoadedScene scene_;
  lab::LaneGroup lanes_;  // on scene_.built(): reset whenever it is replaced
  lab::EventSchedule events_;
  lab::History history_;
  PlotHistory plots_;
  bool paused_ = false;
  double time_scale_ = 1.0;
  std::string last_saved_;
  bool editing_ = false;
  std::vector<int> selection_;  // bodies selected in edit mode, in the order picked
  std::string edit_message_;
  std::deque<scene::SceneDef> undo_;  // the oldest first
  std::vector<scene::SceneDef> redo_;
  ui::SetNewSpring new_spring_;  // what the next spring and particle get
  ui::SetEditTool tool_;
  // the equilibrium found, and what it was found for: the system and its parameters
  lab::Equilibrium equilibrium_;
  long long systems_built_ = 0;                    // loads and edits: each starts on another system
  std::vector<double> equilibrium_key_;            // what a click on empty space puts there
  double grab_stiffness_ = kDefaultGrabStiffness;  // N/m
  int phase_coordinate_ = 0;
  double last_sample_t_ = -1.0;  // s, the clock time of the last sample (-1: none)
  double last_check_t_ = 0.0;    // s, the clock time of the last runaway check
  long long restores_ = 0;
  Stopwatch stopwatch_;  // on the clock; cleared by Reset, a seek, a load
  TracedMotion motion_;  // the traced body's velocities, recorded after each step
  ArrowScales arrow_scales_;
  LabJobs jobs_;  // last: its threads stop before the rest goes
  friend class SessionTestAccess;
};

}  // namespace app
