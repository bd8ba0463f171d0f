#include "app/loaded_scene.hpp"

#include <cmath>
#include <filesystem>

#include "scene/catalog.hpp"
#include "scene/load.hpp"
#include "scene/save.hpp"
#include "sim/registry.hpp"
#include "sim/spectrum.hpp"
#include "ui/panel.hpp"

namespace app {

void LoadedScene::load(const std::string& sceneArg) {
  const scene::SceneDef def = scene::loadSceneArg(sceneArg);  // throws: the old scene stays
  const bool builtin = scene::findBuiltin(sceneArg) != nullptr;
  loadDef(def, def.name.empty() ? sceneArg : def.name, builtin ? std::string() : sceneArg);
  arg_ = sceneArg;
}

void LoadedScene::loadDef(const scene::SceneDef& def, const std::string& name,
                          const std::string& path) {
  auto built = std::make_unique<scene::Built>(scene::build(def));
  def_ = def;
  name_ = name;
  path_ = path;
  built_ = std::move(built);
  loaded_ = std::make_unique<sim::System>(*built_);
  omega0_ = built_->omegaMax(built_->state);
}

void LoadedScene::reload() {
  if (path_.empty()) return loadDef(def_, name_, path_);
  const auto def = scene::loadFile(path_);
  loadDef(def, def.name.empty() ? path_ : def.name, path_);
}

double LoadedScene::omegaAt(const sim::System& system, const sim::State& s) const {
  if (!sim::localOmegaIsCheap(system)) return omega0_ * system.omegaRatio(*loaded_);
  const double omega = sim::localOmega(system, s);
  return std::isfinite(omega) ? omega : 0.0;  // a diverged state has no limit to show
}

std::optional<double> LoadedScene::dtLimit(sim::Method m) const {
  return sim::dtLimit(m, omegaMax());
}

scene::SceneDef LoadedScene::currentDef(sim::Method method, double dt) const {
  scene::SceneDef d = scene::withParameters(def_, *built_);
  d.integrator = method;
  d.dt = dt;
  return d;
}

scene::SceneDef LoadedScene::savedDef(sim::Method method, double dt) const {
  return scene::withSystem(currentDef(method, dt), built(), built().state);
}

std::string LoadedScene::savePath() const {
  const std::string stem = path_.empty() ? arg_ : std::filesystem::path(path_).stem().string();
  return (stem.empty() ? std::string("scene") : stem) + "-edited.json";
}

bool LoadedScene::save(const scene::SceneDef& def, const std::string& path, std::string& why) {
  const std::string to = path.empty() ? savePath() : path;
  if (auto bad = scene::saveScene(def, to)) return why = *bad, false;
  last_saved_ = to;
  return true;
}

void LoadedScene::fill(ui::SceneInfo& v) const {
  v.builtin_scenes = scene::builtinNames();
  v.name = name_;
  v.path = path_;
  v.save_default = savePath();
  const sim::Counts counts = built().counts();
  v.particles = counts.particles;
  v.springs = counts.springs;
  v.links = counts.links;
  v.dofs = built().dofs();
}

}  // namespace app
