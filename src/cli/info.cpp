// springlab info (docs/cli.md#info): a scene's size and its stability facts: omega_max over the
// scene's motion (an accurate reference run, sim::motionSpectrum), omega_max at the initial state,
// and each integrator's step limit from omega_max and, for symplectic_euler on a pendulum, from its
// energy pumping over the run (sim/spectrum.hpp, sim::motionDtLimit).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "cli/commands.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "sim/spectrum.hpp"

namespace cli {

namespace {

// The reference run's default length: the scene's duration, at most this (s).
constexpr double kDefaultMaxSeconds = 10.0;

int badOption(const std::string& what) {
  std::fprintf(stderr, "springlab info: %s\n", what.c_str());
  return 2;
}

// What a method's stability is, in words for the text and as the JSON's `stability` value.
struct StabilityWords {
  const char* key;   // "bounded", "never", "unconditional", "settings"
  const char* text;  // the table's dt_limit column where there is no number
};
StabilityWords stabilityWords(sim::Method m) {
  const auto& i = sim::info(m);
  const auto limit = sim::dtLimit(m, 1.0);
  if (limit && *limit == 0.0) return {"never", "0 (unstable without damping)"};
  if (limit) return {"bounded", ""};
  // no limit from omega: an iterated method (xpbd, projective) holds a stiff system only with
  // enough substeps and iterations (docs/integrators.md#stability-limits)
  if (i.iterated)
    return {"settings", "none from omega_max: depends on its substeps and iterations"};
  return {"unconditional", "none (implicit: stable at every dt)"};
}

// The limit as JSON: a number, or null where there is none (JSON has no infinity).
nlohmann::json limitJson(const std::optional<double>& limit) {
  return limit && std::isfinite(*limit) ? nlohmann::json(*limit) : nlohmann::json(nullptr);
}

// What sets a method's limit over the motion, for the text table: symplectic_euler's energy
// pumping on a pendulum where it comes before the oscillation limit, or why it was not estimated.
std::string limitNote(sim::Method m, const sim::MotionSpectrum& r, double seconds,
                      const scene::Built& b) {
  if (m != sim::Method::SymplecticEuler || b.kind() != sim::SystemKind::Pendulum) return "";
  char buf[96];
  if (!r.pump_estimated)
    return "  (energy pumping not estimated: " + std::to_string(b.dofs()) +
           " links are beyond its cost bound)";
  const auto oscillation = sim::dtLimit(m, r.omega_max);
  if (oscillation && r.pump_limit < *oscillation) {
    std::snprintf(buf, sizeof buf, "  (limit over T = %g s: energy pumping)", seconds);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "  (energy pumping over T = %g s: %.3g s)", seconds, r.pump_limit);
  return buf;
}

void printJson(const scene::SceneDef& def, const scene::Built& b, const sim::MotionSpectrum& r,
               double seconds) {
  nlohmann::json j;
  j["scene"] = def.name;
  j["system"] = std::string(sim::systemName(b.kind()));
  j["bodies"] = b.bodies();
  j["dofs"] = b.dofs();
  j["dt"] = def.dt;
  j["omega_max"] = r.omega_max;
  j["omega_max_initial"] = r.omega_initial;
  j["omega_max_t"] = r.t_of_max;
  j["reference"] = {
      {"integrator", "rk4"},
      {"seconds", seconds},
      {"reached", r.seconds},
      {"steps", r.steps},
      {"stopped", r.stopped.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.stopped)}};
  nlohmann::json limits = nlohmann::json::object(), initial = nlohmann::json::object(),
                 stability = nlohmann::json::object();
  for (const sim::Method m : b.integrators()) {
    const std::string name(sim::info(m).name);
    limits[name] = limitJson(sim::motionDtLimit(m, r));
    initial[name] = limitJson(sim::dtLimit(m, r.omega_initial));
    stability[name] = stabilityWords(m).key;
  }
  j["dt_limit"] = limits;
  // symplectic_euler's limit from its energy pumping on a pendulum (null: not estimated)
  j["dt_limit_pumping"] = r.pump_estimated ? limitJson(r.pump_limit) : nlohmann::json(nullptr);
  j["dt_limit_initial"] = initial;
  j["stability"] = stability;
  std::printf("%s\n", j.dump(2).c_str());
}

void printText(const scene::SceneDef& def, const scene::Built& b, const sim::MotionSpectrum& r,
               double seconds) {
  std::printf("scene              %s\n", def.name.c_str());
  std::printf("system             %s\n", b.summary(true).c_str());
  std::printf(
      "omega_max          %.6g rad/s at t = %.6g s (largest local frequency over the "
      "initial state and an rk4 reference run of %.6g s)\n",
      r.omega_max, r.t_of_max, seconds);
  if (!r.stopped.empty())
    std::printf("                   the reference run stopped early: %s\n", r.stopped.c_str());
  std::printf("omega_max_initial  %.6g rad/s (largest eigenvalue of M^-1 K at the initial state)\n",
              r.omega_initial);
  std::printf("dt                 %g s (the scene's)\n\n", def.dt);
  std::printf("%-18s %-16s %s\n", "integrator", "dt_limit (s)", "scene dt / limit");
  for (const sim::Method m : b.integrators()) {
    const auto limit = sim::motionDtLimit(m, r);
    const std::string name(sim::info(m).name);
    if (!limit || *limit == 0.0)
      std::printf("%-18s %s\n", name.c_str(), stabilityWords(m).text);
    else if (!std::isfinite(*limit))
      std::printf("%-18s %-16s\n", name.c_str(), "none (nothing oscillates)");
    else if (const std::string note = limitNote(m, r, seconds, b); !note.empty())
      std::printf("%-18s %-16.6g %-16.4g%s\n", name.c_str(), *limit, def.dt / *limit, note.c_str());
    else
      std::printf("%-18s %-16.6g %.4g\n", name.c_str(), *limit, def.dt / *limit);
  }
}

struct InfoOptions {
  bool json = false;
  std::optional<double> seconds;
};

std::optional<std::string> parseInfoOptions(const SplitArgs& split, InfoOptions& o) {
  for (const GivenOption& g : split.options) {
    const std::string name(g.spec->name);
    if (name == "--json") {
      o.json = true;
    } else if (name == "--seconds") {
      double x;
      if (!parseDouble(g.value, x) || !(x > 0) || !std::isfinite(x))
        return "--seconds: must be a finite number > 0, not \"" + g.value + "\"";
      o.seconds = x;
    }
  }
  return std::nullopt;
}

}  // namespace

int infoCommand(const Args& args) {
  SplitArgs split;
  if (auto problem = splitArgs(args, infoOptions(), split)) return badOption(*problem);
  std::string sceneArg;
  if (auto problem = takeScene(split, sceneArg)) return badOption(*problem);
  InfoOptions o;
  if (auto problem = parseInfoOptions(split, o)) return badOption(*problem);
  scene::SceneDef def;
  if (!loadSceneOrReport(sceneArg, def)) return 2;
  if (def.name.empty()) def.name = sceneArg;
  const scene::Built built = scene::build(def);
  const double seconds = o.seconds.value_or(std::min(def.duration, kDefaultMaxSeconds));
  const sim::MotionSpectrum r = sim::motionSpectrum(built, built.state, seconds);
  if (o.json)
    printJson(def, built, r, seconds);
  else
    printText(def, built, r, seconds);
  return 0;
}

}  // namespace cli
