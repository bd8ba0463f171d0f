// The Session (docs/architecture.md#the-session-and-commands): owns the scene's System and its
// 1 to 4 Lanes (docs/architecture.md#system-and-lanes); the panel and the input emit
// ui::Commands, which it validates and applies between steps. One owner changes simulation
// state. Also keeps the diagnostics the panel plots and the timeline of past states.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/lab_jobs.hpp"
#include "lab/events.hpp"
#include "lab/history.hpp"
#include "lab/lane.hpp"
#include "scene/build.hpp"
#include "scene/scene_def.hpp"
#include "sim/diagnostics.hpp"
#include "sim/stepper.hpp"
#include "ui/panel.hpp"

namespace app {

class Session {
 public:
  Session();

  // Loads a scene (a built-in name or a .json path); throws scene::Error on bad input and keeps
  // the previous scene.
  void load(const std::string& sceneArg);
  void loadDef(const scene::SceneDef& def, const std::string& name, const std::string& path);

  // Applies one command; returns false with a message when it is rejected (out of range,
  // inapplicable integrator, unreadable file...). Visual-only commands return false unhandled
  // (`handled` false) so the app can take them.
  bool apply(const ui::Command& c, std::string* message, bool* handled = nullptr);

  // One step of the session's clock (lane 0's dt): lane 0 steps, then every other lane is
  // brought to its step nearest in time (docs/lab.md#lanes). A lane that diverges freezes; the
  // others go on. False when every lane has diverged (the simulation then pauses). Events due
  // are applied first; a state is kept on the timeline when one is due.
  bool stepOnce();

  // The mouse spring: body index (particle or bob), target (m); clear with body = -1. Taking or
  // letting go re-anchors the energy drift (the hand does work on the system).
  void setGrab(int body, const sim::Vec3& target);
  int grabbed() const { return built_->grabbed(); }

  // Records energy and phase samples (called once per rendered frame) when the state has moved
  // since the last one: paused, the plots hold still. Also applies the runaway rule
  // (sim/diagnostics.hpp) to every lane: a state still finite but absurd is reported as that
  // lane's divergence, so the user sees the banner instead of an empty screen (`run` only warns).
  void sample();

  // Events --at (docs/cli.md#events) for the window; they replay after Reset.
  void setEvents(std::vector<lab::Event> events);

  const scene::SceneDef& def() const { return def_; }
  const scene::Built& built() const { return *built_; }
  // lane 0, the primary lane: what the panel's Simulation section and the caption describe
  const lab::Lane& primary() const { return lanes_.front().lane; }
  const sim::State& state() const { return primary().state(); }
  sim::Method method() const { return primary().method(); }
  double dt() const { return primary().dt(); }
  bool paused() const { return paused_; }
  double timeScale() const { return time_scale_; }
  void setPaused(bool p) { paused_ = p; }
  const std::optional<sim::Divergence>& divergence() const { return primary().divergence(); }
  const std::string& sceneName() const { return name_; }
  const std::string& scenePath() const { return path_; }
  const std::string& sceneArg() const { return arg_; }  // as given to load(): name or path
  long long steps() const { return steps_; }            // of the session's clock
  double time() const { return clock_t_; }              // s, the session's clock
  double grabStiffness() const { return grab_stiffness_; }
  double stiffnessScale() const { return built_->parameter(sim::Parameter::StiffnessScale); }
  double springDamping() const { return built_->parameter(sim::Parameter::SpringDamping); }
  sim::Energy energy() const { return primary().energy(); }
  double initialEnergy() const { return primary().e0(); }  // J, the drift's anchor
  const sim::SceneScales& scales() const { return primary().scales(); }
  const std::vector<float>& marks() const { return marks_; }
  bool canRewind() const { return divergence() && history_.size() > 0; }
  int phaseCoordinate() const { return phase_coordinate_; }

  // lanes (docs/lab.md#lanes)
  int laneCount() const { return static_cast<int>(lanes_.size()); }
  const lab::Lane& lane(int i) const { return lanes_[static_cast<size_t>(i)].lane; }
  // the timeline of kept states
  const lab::History& history() const { return history_; }
  void setHistoryBudget(std::size_t bytes) { history_.setBudget(bytes); }

  // omega_max at the scene's initial state with the current stiffness and gravity (rad/s), and a
  // lane's step limit from it: 0 for euler, nothing for the implicit ones (sim/spectrum.hpp).
  double omegaMax() const;
  std::optional<double> dtLimit(sim::Method m) const;
  // The scene's definition with the parameters as they are now (for background jobs).
  scene::SceneDef currentDef() const;

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
  // The phase plot's choices: the first coordinates only, since the panel rebuilds the list
  // every frame (a 256 x 256 cloth has 196 608).
  static constexpr int kPhaseCoordinatesListed = 3000;
  // Lanes on screen at once (lane 0 included).
  static constexpr int kMaxLanes = 4;

 private:
  enum class Outcome { Applied, Rejected, NotMine };
  // One lane with its plotted history: the lab::Lane references *built_, so it lives in place.
  struct LaneSlot {
    LaneSlot(const sim::System& system, const sim::State& from, sim::Method m, double dt)
        : lane(system, from, m, dt) {}
    lab::Lane lane;
    std::vector<float> t, drift, distance, residual;
  };
  // Session::apply by command family; a rejection's reason goes to `why`.
  Outcome applyClock(const ui::Command& c, std::string& why);
  Outcome applyLanes(const ui::Command& c, std::string& why);
  Outcome applyLifecycle(const ui::Command& c, std::string& why);
  Outcome applyPhysics(const ui::Command& c, std::string& why);
  Outcome applyGrabAndPlots(const ui::Command& c, std::string& why);
  Outcome applyJobs(const ui::Command& c, std::string& why);
  // The lanes a command names (c.lane: one, or -1 every lane); empty with `why` when none.
  std::vector<lab::Lane*> targetLanes(const ui::Command& c, std::string& why);
  bool addLane(int source, const std::string& integrator, double dt, std::string& why);
  void restart(const sim::State& s);  // every lane from s, a fresh timeline and plots
  void rewind();
  void seek(int entry);  // every lane to a kept state (paused)
  void keepState();      // on the timeline, when one is due
  void applyDueEvents();
  void bringLanesTo(double t);  // lanes 1.. to their step nearest to t
  bool anyLaneAlive() const;
  // After a conservative change (k, gravity, grab): every lane's E0 := its current E, the scales
  // from the current state, and a mark on the plots at the current time.
  void reanchor();
  void clearHistory();
  void sampleLane(LaneSlot& slot, const Eigen::VectorXd& primaryPositions);
  void fillLanes(ui::PanelModel& pm) const;
  scene::SceneDef def_;
  std::unique_ptr<scene::Built> built_;
  std::unique_ptr<sim::System> loaded_system_;  // the parameters at load: Reset with events
  std::deque<LaneSlot> lanes_;  // a deque: slots never move, the lanes reference *built_
  lab::EventSchedule events_;
  lab::History history_;
  double omega0_ = 0.0;  // rad/s: omega_max at load (stiffness scale 1, the scene's gravity)
  LabJobs jobs_;         // last: its threads stop before the rest goes
  std::string name_, path_, arg_;
  bool paused_ = false;
  double time_scale_ = 1.0;
  double grab_stiffness_ = kDefaultGrabStiffness;  // N/m
  long long steps_ = 0;
  double clock_t_ = 0.0;  // s: lane 0's time, counted on in its dt once it diverged
  int phase_coordinate_ = 0;
  // lane 0's diagnostics history (ring buffers as vectors trimmed from the front)
  std::vector<float> hist_t_, hist_k_, hist_p_, hist_e_, hist_drift_, phase_q_, phase_v_;
  double last_sample_t_ = -1.0;  // s, the clock time of the last sample (-1: none)
  std::vector<float> marks_;     // s, times of the conservative changes within the history
  friend class SessionTestAccess;
};

}  // namespace app
