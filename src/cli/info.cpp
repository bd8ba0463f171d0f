// springlab info (docs/cli.md#info): a scene's size and its stability facts at the initial state:
// omega_max and each integrator's step limit (sim/spectrum.hpp).
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

#include "cli/commands.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "sim/spectrum.hpp"

namespace cli {

namespace {

int badOption(const std::string& what) {
  std::fprintf(stderr, "springlab info: %s\n", what.c_str());
  return 2;
}

void printJson(const scene::SceneDef& def, const scene::Built& b, double omega) {
  nlohmann::json j;
  j["scene"] = def.name;
  j["system"] = std::string(sim::systemName(b.kind()));
  j["bodies"] = b.bodies();
  j["dofs"] = b.dofs();
  j["dt"] = def.dt;
  j["omega_max"] = omega;
  nlohmann::json limits = nlohmann::json::object();
  for (const sim::Method m : b.integrators()) {
    const auto& i = sim::info(m);
    const auto limit = sim::dtLimit(m, omega);
    // JSON has no infinity: a limit that does not exist (omega 0, implicit) is null
    limits[std::string(i.name)] =
        limit && std::isfinite(*limit) ? nlohmann::json(*limit) : nlohmann::json(nullptr);
  }
  j["dt_limit"] = limits;
  std::printf("%s\n", j.dump(2).c_str());
}

void printText(const scene::SceneDef& def, const scene::Built& b, double omega) {
  std::printf("scene       %s\n", def.name.c_str());
  std::printf("system      %s\n", b.summary(true).c_str());
  std::printf("omega_max   %.9g rad/s (largest eigenvalue of M^-1 K at the initial state)\n",
              omega);
  std::printf("dt          %g s (the scene's)\n\n", def.dt);
  std::printf("%-18s %-16s %s\n", "integrator", "dt_limit (s)", "scene dt / limit");
  for (const sim::Method m : b.integrators()) {
    const auto limit = sim::dtLimit(m, omega);
    const std::string name(sim::info(m).name);
    if (!limit)
      std::printf("%-18s %-16s\n", name.c_str(), "none (implicit: stable at every dt)");
    else if (*limit == 0.0)
      std::printf("%-18s %-16s\n", name.c_str(), "0 (unstable without damping)");
    else
      std::printf("%-18s %-16.6g %.4g\n", name.c_str(), *limit, def.dt / *limit);
  }
}

}  // namespace

int infoCommand(const Args& args) {
  SplitArgs split;
  if (auto problem = splitArgs(args, infoOptions(), split)) return badOption(*problem);
  std::string sceneArg;
  if (auto problem = takeScene(split, sceneArg)) return badOption(*problem);
  const bool json = !split.options.empty();  // --json is the only option
  scene::SceneDef def;
  if (!loadSceneOrReport(sceneArg, def)) return 2;
  if (def.name.empty()) def.name = sceneArg;
  const scene::Built built = scene::build(def);
  const double omega = built.omegaMax(built.state);
  if (json)
    printJson(def, built, omega);
  else
    printText(def, built, omega);
  return 0;
}

}  // namespace cli
