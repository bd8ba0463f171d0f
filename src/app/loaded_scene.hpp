// The scene the window runs (docs/architecture.md#the-session-and-commands), the Session's owner of
// loading and saving: its definition, its built System with the initial state, the System as
// loaded (Reset with events restores its parameters) and omega_max at load, from which the current
// one follows the parameters, the local frequency of a moving state (the panel's limit lines), Save
// as, and the panel's Scene section (fill).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "scene/build.hpp"
#include "scene/scene_def.hpp"

namespace ui {
struct SceneInfo;
}

namespace app {

class LoadedScene {
 public:
  // A built-in name or a .json path; throws scene::Error on bad input and keeps the scene.
  void load(const std::string& sceneArg);
  void loadDef(const scene::SceneDef& def, const std::string& name, const std::string& path);
  // The file again (a built-in scene: its definition again); throws as load.
  void reload();
  bool empty() const { return built_ == nullptr; }

  const scene::SceneDef& def() const { return def_; }
  const scene::Built& built() const { return *built_; }
  scene::Built& built() { return *built_; }
  const std::string& name() const { return name_; }
  const std::string& path() const { return path_; }        // empty for a built-in
  const std::string& arg() const { return arg_; }          // as given to load(): name or path
  void setArg(std::string arg) { arg_ = std::move(arg); }  // a scene made in the window

  // The parameters back to those at load (cached factorisations are rebuilt).
  void restoreParameters() { built_->restore(*loaded_); }
  // omega_max now (rad/s): at load, scaled as the parameter table says (sim::System::omegaRatio).
  double omegaMax() const { return omega0_ * built_->omegaRatio(*loaded_); }
  // The local frequency of state s with the parameters as they are now (rad/s,
  // sim::localOmega: a pendulum's includes its rods' tension from the velocities) where that is
  // cheap (sim::localOmegaIsCheap: a pendulum, a small spring network); for a large cloth the
  // load-time omegaMax(), scaled, keeping the cost out of the frame.
  double omegaAt(const sim::State& s) const { return omegaAt(*built_, s); }
  // The same on a parameter lane's copy of the system (lab::LaneGroup), whose own frequencies
  // follow its set-up: exact where that is cheap, else omegaMax() scaled by its parameters.
  double omegaAt(const sim::System& system, const sim::State& s) const;
  // A step limit at omegaMax(): 0 for euler, nothing for the implicit ones (sim::dtLimit).
  std::optional<double> dtLimit(sim::Method m) const;
  // The definition with the parameters as they are now, and this integrator and dt.
  scene::SceneDef currentDef(sim::Method method, double dt) const;

  // --- Save as (docs/scenes.md#saved-scenes)
  // The scene as Save as writes it: the initial state and the parameters as they are now.
  scene::SceneDef savedDef(sim::Method method, double dt) const;
  // Where Save as writes with no path given: "SCENE-edited.json" in the current folder.
  std::string savePath() const;
  // `def` as a scene file at `path` (empty: savePath()); false with `why`.
  bool save(const scene::SceneDef& def, const std::string& path, std::string& why);
  const std::string& lastSaved() const { return last_saved_; }  // the path of the last save

  // The panel's Scene section: the built-in scenes, this one's name, file and counts.
  void fill(ui::SceneInfo& v) const;

 private:
  scene::SceneDef def_;
  std::unique_ptr<scene::Built> built_;
  std::unique_ptr<sim::System> loaded_;  // the parameters at load
  double omega0_ = 0.0;                  // rad/s, omega_max at load
  std::string name_, path_, arg_;
  std::string last_saved_;
};

}  // namespace app
