// springlab order (docs/cli.md#order): the observed order of convergence of each integrator on a
// scene, from runs at H, H/2 and H/4 (lab/order.hpp).
#include <cmath>
#include <cstdio>

#include "cli/commands.hpp"
#include "cli/csv.hpp"
#include "lab/order.hpp"
#include "scene/load.hpp"
#include "scene/method_file.hpp"
#include "util/one_line.hpp"

namespace cli {

namespace {

// The default span of the runs: long enough for the method's error to stand above round-off,
// short enough that a chaotic scene has not yet amplified it beyond the asymptotic regime.
constexpr double kDefaultDuration = 1.0;  // s, or the scene's duration if shorter

int badOption(const std::string& what) {
  std::fprintf(stderr, "springlab order: %s\n", util::oneLine(what).c_str());
  return 2;
}

struct OrderOptions {
  std::string scene, integrators;
  std::optional<double> dt, duration;
};

std::optional<std::string> setOrderOption(const std::string& name, const std::string& value,
                                          OrderOptions& o) {
  double v;
  if (name == "--integrators") {
    o.integrators = value;
  } else if (name == "--dt" || name == "--duration") {
    if (!parseDouble(value, v) || !(v > 0))
      return name + ": must be a finite number > 0, not \"" + value + "\"";
    (name == "--dt" ? o.dt : o.duration) = v;
  }
  return std::nullopt;
}

// order's arguments: the options and SCENE into `o`; the problem or nothing.
std::optional<std::string> parseOrderOptions(const Args& args, OrderOptions& o) {
  SplitArgs split;
  if (auto problem = splitArgs(args, orderOptions(), split)) return problem;
  for (const auto& given : split.options)
    if (auto problem = setOrderOption(std::string(given.spec->name), given.value, o))
      return problem;
  return takeScene(split, o.scene);
}

}  // namespace

std::optional<std::string> parseIntegratorList(const std::string& text, sim::SystemKind kind,
                                               std::vector<sim::Method>& out) {
  size_t begin = 0;
  while (true) {
    const size_t comma = text.find(',', begin);
    const auto lookup = scene::lookupIntegrator(text.substr(begin, comma - begin), kind);
    if (!lookup.method) return "--integrators: " + lookup.error;
    out.push_back(*lookup.method);
    if (comma == std::string::npos) return std::nullopt;
    begin = comma + 1;
  }
}

std::optional<std::string> parseOrderArgs(const Args& args) {
  OrderOptions o;
  auto problem = parseOrderOptions(args, o);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

int orderCommand(const Args& args) {
  OrderOptions o;
  if (auto problem = parseOrderOptions(args, o)) return badOption(*problem);
  const std::string& sceneArg = o.scene;
  scene::SceneDef def;
  if (!loadSceneOrReport(sceneArg, def)) return 2;
  std::vector<sim::Method> methods;
  if (!o.integrators.empty()) {
    if (auto problem = parseIntegratorList(o.integrators, def.kind, methods))
      return badOption(*problem);
  } else {
    for (const auto& i : sim::integrators())
      if (sim::appliesTo(i.method, def.kind)) methods.push_back(i.method);
  }
  const double h = o.dt.value_or(def.dt);
  const double duration = o.duration.value_or(std::min(def.duration, kDefaultDuration));
  // the finest run makes 2^(kRuns - 1) times as many steps: its step is the one checked
  const std::string finest = "the finest run's dt (" +
                             std::string(o.dt ? "--dt" : "the scene's dt") + " / " +
                             std::to_string(1 << (lab::kRuns - 1)) + ")";
  if (auto problem = stepsProblem(o.duration ? "--duration" : "the duration", duration, finest,
                                  h / (1 << (lab::kRuns - 1))))
    return badOption(*problem);
  std::printf("integrator,order\n");
  for (const auto& r : lab::measureOrders(def, methods, h, duration)) {
    std::printf("%s,%.6g\n", std::string(sim::info(r.method).name).c_str(), r.order);
    if (std::isnan(r.order))
      std::fprintf(stderr, "springlab order: %s: %s\n",
                   std::string(sim::info(r.method).name).c_str(), r.note.c_str());
  }
  return 0;
}

}  // namespace cli
