// springlab info (docs/cli.md#info): a scene's size and its stability facts: omega_max over the
// scene's motion (an accurate reference run, sim::motionSpectrum), omega_max at the initial state,
// and each integrator's step limit from omega_max or, where that may miss (a pendulum's explicit
// methods), from where its own runs diverge (lab/step_limit.hpp).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "cli/commands.hpp"
#include "lab/step_limit.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "scene/save.hpp"
#include "sim/spectrum.hpp"
#include "util/one_line.hpp"

namespace cli {

namespace {

// The reference run's default length: the scene's duration, at most this (s).
constexpr double kDefaultMaxSeconds = 10.0;

int badOption(const std::string& what) {
  std::fprintf(stderr, "springlab info: %s\n", util::oneLine(what).c_str());
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

// How a measured limit was found, for the text table; empty where the linear limit stands alone.
std::string limitNote(const lab::StepLimit& l, double seconds) {
  if (!l.measured) return "";
  if (l.scan.empty()) return "  (not measured: " + l.stopped + ")";  // the first run's cost
  char buf[160];
  if (const auto first = l.firstDiverged())
    std::snprintf(buf, sizeof buf,
                  "  (measured over T = %g s: diverges from %.3g s, at every step from %.3g s; "
                  "omega_max's %.3g s",
                  seconds, *first, *l.solidFrom(), *l.linear);
  else
    std::snprintf(buf, sizeof buf, "  (measured over T = %g s: held from %.3g s to %.3g s", seconds,
                  l.scan.front().dt, l.scan.back().dt);
  return buf + (l.stopped.empty() ? ")" : "; " + l.stopped + ")");
}

// A measured limit's scan as JSON.
nlohmann::json scanJson(const lab::StepLimit& l) {
  return {{"first_diverged", limitJson(l.firstDiverged())},
          {"solid_from", limitJson(l.solidFrom())},
          {"from", l.scan.empty() ? 0.0 : l.scan.front().dt},
          {"to", l.scan.empty() ? 0.0 : l.scan.back().dt},
          {"runs", l.scan.size()},
          {"stopped", l.stopped.empty() ? nlohmann::json(nullptr) : nlohmann::json(l.stopped)}};
}

void printJson(const scene::SceneDef& def, const scene::Built& b, const sim::MotionSpectrum& r,
               const std::vector<lab::StepLimit>& steps, double seconds) {
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
                 stability = nlohmann::json::object(), linear = nlohmann::json::object(),
                 measured = nlohmann::json::object();
  for (const lab::StepLimit& l : steps) {
    const std::string name(sim::info(l.method).name);
    limits[name] = limitJson(l.limit());
    linear[name] = limitJson(l.linear);
    if (l.measured) measured[name] = scanJson(l);
    initial[name] = limitJson(sim::dtLimit(l.method, r.omega_initial));
    stability[name] = stabilityWords(l.method).key;
  }
  j["dt_limit"] = limits;
  j["dt_limit_omega"] = linear;       // from omega_max alone
  j["dt_limit_measured"] = measured;  // the scans, where the linear limit may miss
  j["dt_limit_initial"] = initial;
  j["stability"] = stability;
  std::printf("%s\n", j.dump(2).c_str());
}

void printText(const scene::SceneDef& def, const scene::Built& b, const sim::MotionSpectrum& r,
               const std::vector<lab::StepLimit>& steps, double seconds) {
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
  for (const lab::StepLimit& l : steps) {
    const auto limit = l.limit();
    const std::string name(sim::info(l.method).name);
    if (!limit || *limit == 0.0)
      std::printf("%-18s %s\n", name.c_str(), stabilityWords(l.method).text);
    else if (!std::isfinite(*limit))
      std::printf("%-18s %-16s\n", name.c_str(), "none (nothing oscillates)");
    else if (const std::string note = limitNote(l, seconds); !note.empty())
      std::printf("%-18s %-16.6g %-16.4g%s\n", name.c_str(), *limit, def.dt / *limit, note.c_str());
    else
      std::printf("%-18s %-16.6g %.4g\n", name.c_str(), *limit, def.dt / *limit);
  }
}

struct InfoOptions {
  bool json = false;
  std::optional<double> seconds;
  std::optional<std::string> save_expanded;  // the explicit scene file to write
  std::optional<std::string> integrators;    // "A,B": these alone (method files too)
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
    } else if (name == "--save-expanded") {
      if (g.value.empty()) return std::string("--save-expanded: must name a file");
      o.save_expanded = g.value;
    } else if (name == "--integrators") {
      o.integrators = g.value;
    }
  }
  return std::nullopt;
}

// info's arguments: SCENE into `sceneArg`, the options into `o`; the problem or nothing.
std::optional<std::string> parseInfoArgs(const Args& args, std::string& sceneArg, InfoOptions& o) {
  SplitArgs split;
  if (auto problem = splitArgs(args, infoOptions(), split)) return problem;
  if (auto problem = takeScene(split, sceneArg)) return problem;
  return parseInfoOptions(split, o);
}

}  // namespace

std::optional<std::string> parseInfoArgs(const Args& args) {
  std::string sceneArg;
  InfoOptions o;
  auto problem = parseInfoArgs(args, sceneArg, o);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

int infoCommand(const Args& args) {
  std::string sceneArg;
  InfoOptions o;
  if (auto problem = parseInfoArgs(args, sceneArg, o)) return badOption(*problem);
  scene::SceneDef def;
  if (!loadSceneOrReport(sceneArg, def)) return 2;
  // before the name's default: a file without a name is saved without one
  if (o.save_expanded)
    if (auto problem = scene::saveScene(def, *o.save_expanded)) return badOption(*problem);
  if (def.name.empty()) def.name = sceneArg;
  const scene::Built built = scene::build(def);
  const double seconds = o.seconds.value_or(std::min(def.duration, kDefaultMaxSeconds));
  const sim::MotionSpectrum r = sim::motionSpectrum(built, built.state, seconds);
  std::vector<sim::Method> methods;  // empty: every one that applies
  if (o.integrators)
    if (auto problem = parseIntegratorList(*o.integrators, def.kind, methods))
      return badOption(*problem);
  const std::vector<lab::StepLimit> steps = lab::stepLimits(def, built, r, seconds, methods);
  if (o.json)
    printJson(def, built, r, steps, seconds);
  else
    printText(def, built, r, steps, seconds);
  return 0;
}

}  // namespace cli
