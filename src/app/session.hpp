// The Session (docs/architecture.md#the-session-and-commands): owns the scene's model, state and
// stepper; the panel and the input emit ui::Commands, which it validates and applies between
// steps. One owner changes simulation state. Also keeps the diagnostics the panel plots.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "scene/build.hpp"
#include "scene/scene_def.hpp"
#include "sim/diagnostics.hpp"
#include "sim/stepper.hpp"
#include "ui/panel.hpp"

namespace app {

class Session {
 public:
  // Loads a scene (a built-in name or a .json path); throws scene::Error on bad input and keeps
  // the previous scene.
  void load(const std::string& sceneArg);
  void loadDef(const scene::SceneDef& def, const std::string& name, const std::string& path);

  // Applies one command; returns false with a message when it is rejected (out of range,
  // inapplicable integrator, unreadable file...). Visual-only commands return false unhandled
  // (`handled` false) so the app can take them.
  bool apply(const ui::Command& c, std::string* message, bool* handled = nullptr);

  // One simulation step unless diverged; false if it diverged now or before. Keeps a snapshot of
  // the state every kSnapshotInterval of simulated time for Rewind.
  bool stepOnce();

  // The mouse spring: body index (particle or bob), target (m); clear with body = -1. Taking or
  // letting go re-anchors the energy drift (the hand does work on the system).
  void setGrab(int body, const sim::Vec3& target);
  int grabbed() const;

  // Records energy and phase samples (called once per rendered frame) when the state has moved
  // since the last one: paused, the plots hold still. Also applies the runaway rule
  // (sim/diagnostics.hpp): a state still finite but absurd is reported as a divergence and
  // pauses, so the user sees the banner instead of an empty screen (`run` only warns).
  void sample();

  const scene::SceneDef& def() const { return def_; }
  const scene::Built& built() const { return *built_; }
  const sim::State& state() const { return stepper_->state(); }
  sim::Method method() const { return stepper_->method(); }
  double dt() const { return stepper_->dt(); }
  bool paused() const { return paused_; }
  double timeScale() const { return time_scale_; }
  void setPaused(bool p) { paused_ = p; }
  const std::optional<sim::Divergence>& divergence() const { return divergence_; }
  const std::string& sceneName() const { return name_; }
  const std::string& scenePath() const { return path_; }
  const std::string& sceneArg() const { return arg_; }  // as given to load(): name or path
  long long steps() const { return steps_; }
  double grabStiffness() const { return grab_stiffness_; }
  double stiffnessScale() const { return stiffness_scale_; }
  double springDamping() const { return spring_damping_; }
  sim::Energy energy() const { return built_->energy(state()); }
  double initialEnergy() const { return e0_; }  // J, the drift's anchor (see reanchor)
  const sim::SceneScales& scales() const { return scales_; }
  const std::vector<float>& marks() const { return marks_; }
  bool canRewind() const { return divergence_ && !snapshots_.empty(); }
  int phaseCoordinate() const { return phase_coordinate_; }

  // The divergence report for the screen, times to 6 significant digits; empty if none.
  std::string divergenceSummary() const;
  // Fills the physics, simulation and diagnostics parts of a panel model.
  void fillPanel(ui::PanelModel& pm) const;

  // The mouse spring's stiffness until the panel changes it.
  static constexpr double kDefaultGrabStiffness = 100.0;  // N/m
  // Rewind's ring of states: one every kSnapshotInterval of simulated time, the last kSnapshots;
  // a copy is O(N) and rare next to the steps between two.
  static constexpr double kSnapshotInterval = 0.25;  // s
  static constexpr size_t kSnapshots = 8;            // 2 s
  // How far before the divergence Rewind goes: far enough to see the instability build up.
  static constexpr double kRewindBack = 1.0;  // s
  // The phase plot's choices: the first coordinates only, since the panel rebuilds the list
  // every frame (a 256 x 256 cloth has 196 608).
  static constexpr int kPhaseCoordinatesListed = 3000;

 private:
  enum class Outcome { Applied, Rejected, NotMine };
  // Session::apply by command family; a rejection's reason goes to `why`.
  Outcome applyClock(const ui::Command& c, std::string& why);
  Outcome applyLifecycle(const ui::Command& c, std::string& why);
  Outcome applyPhysics(const ui::Command& c, std::string& why);
  Outcome applyGrabAndPlots(const ui::Command& c, std::string& why);
  void rebuildStepper(sim::Method m, double h, const sim::State& s);
  void restart(const sim::State& s);  // the stepper from s, with a fresh snapshot ring
  void rewind();
  // After a conservative change (k, gravity, grab): E0 := the current E, the scales from the
  // current model and state, and a mark on the plots at the current time.
  void reanchor();
  void clearHistory();
  scene::SceneDef def_;
  std::unique_ptr<scene::Built> built_;
  std::unique_ptr<sim::Stepper> stepper_;
  Eigen::VectorXd base_stiffness_;
  std::string name_, path_, arg_;
  bool paused_ = false;
  double time_scale_ = 1.0;
  double stiffness_scale_ = 1.0, spring_damping_ = 0.0;
  double grab_stiffness_ = kDefaultGrabStiffness;  // N/m
  long long steps_ = 0;
  std::optional<sim::Divergence> divergence_;
  double e0_ = 0.0;
  sim::SceneScales scales_;
  int phase_coordinate_ = 0;
  // diagnostics history (ring buffers as vectors trimmed from the front)
  std::vector<float> hist_t_, hist_k_, hist_p_, hist_e_, hist_drift_, phase_q_, phase_v_;
  double last_sample_t_ = -1.0;  // s, the state time of the last sample (-1: none)
  std::vector<float> marks_;     // s, times of the conservative changes within the history
  struct Snapshot {
    sim::State state;
    long long steps;
  };
  std::deque<Snapshot> snapshots_;  // oldest first
  friend class SessionTestAccess;
};

}  // namespace app
