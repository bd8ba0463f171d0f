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

  // One simulation step unless diverged; false if it diverged now or before.
  bool stepOnce();

  // The mouse spring: body index (particle or bob), target (m); clear with body = -1.
  void setGrab(int body, const sim::Vec3& target);
  int grabbed() const;

  // Records energy and phase samples (called once per rendered frame). Also applies the runaway
  // rule (sim/diagnostics.hpp): a state still finite but absurd is reported as a divergence and
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
  double initialEnergy() const { return e0_; }
  int phaseCoordinate() const { return phase_coordinate_; }

  // Fills the physics, simulation and diagnostics parts of a panel model.
  void fillPanel(ui::PanelModel& pm) const;

 private:
  void rebuildStepper(sim::Method m, double h, const sim::State& s);
  void clearHistory();
  scene::SceneDef def_;
  std::unique_ptr<scene::Built> built_;
  std::unique_ptr<sim::Stepper> stepper_;
  Eigen::VectorXd base_stiffness_;
  std::string name_, path_, arg_;
  bool paused_ = false;
  double time_scale_ = 1.0;
  double stiffness_scale_ = 1.0, spring_damping_ = 0.0, grab_stiffness_ = 100.0;
  long long steps_ = 0;
  std::optional<sim::Divergence> divergence_;
  double e0_ = 0.0;
  sim::SceneScales scales_;
  int phase_coordinate_ = 0;
  // diagnostics history (ring buffers as vectors trimmed from the front)
  std::vector<float> hist_t_, hist_k_, hist_p_, hist_e_, hist_drift_, phase_q_, phase_v_;
  friend class SessionTestAccess;
};

}  // namespace app
