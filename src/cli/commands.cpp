#include "cli/commands.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "scene/catalog.hpp"
#include "scene/load.hpp"
#include "scene/size.hpp"
#include "util/format.hpp"
#include "util/number.hpp"

namespace cli {

bool parseDouble(const std::string& s, double& out) {
  return util::parseFiniteNumber(s, out);
}

bool parseWhole(const std::string& s, long long& out) {
  const auto v = util::parseWholeNumber(s);
  if (v) out = *v;
  return v.has_value();
}

namespace {

// "3.2 days", "8880 years": the estimate in the unit that reads best (it is at least twelve days).
std::string longTime(double seconds) {
  constexpr double kDay = 86400.0, kYear = 365.25 * kDay;
  if (seconds < 2 * kYear)
    return util::messageNumber(std::round(seconds / kDay * 10) / 10) + " days";
  return util::messageNumber(std::round(seconds / kYear)) + " years";
}

}  // namespace

std::optional<std::string> stepsProblem(const std::string& durationName, double seconds,
                                        const std::string& dtName, double dt) {
  const double steps = seconds / dt;
  if (steps < kMaxStepRatio) return std::nullopt;
  const std::string asked = durationName + " " + util::messageNumber(seconds) + " s at " + dtName +
                            " " + util::messageNumber(dt) + " s is ";
  const std::string limit = util::messageNumber(kMaxStepRatio);
  if (std::isfinite(steps))
    return asked + util::messageNumber(steps) + " steps, more than the " + limit +
           " a run may make";
  return asked + "more than the " + limit + " steps a run may make";
}

std::optional<std::string> workProblem(const scene::SceneDef& def, double steps) {
  const scene::SceneSize size = scene::sizeOf(def);
  const double work = steps * double(size.elements);
  if (work <= kMaxWork) return std::nullopt;
  return util::messageNumber(steps) + " steps of " + std::to_string(size.elements) + " " +
         std::string(size.elements_noun) + " is " + util::messageNumber(work) +
         " element-steps, more than the " + util::messageNumber(kMaxWork) +
         " a run may do (at least " + longTime(work / kWorkRate) + " at " +
         util::messageNumber(kWorkRate) + " a second)";
}

std::optional<std::string> solverProblem(const scene::SceneDef& def, sim::Method m) {
  const size_t n = scene::sizeOf(def).factored;
  if (!sim::info(m).factorises || n <= size_t(kMaxFactoredParticles)) return std::nullopt;
  return std::string(sim::info(m).name) + " factors a sparse matrix: " + std::to_string(n) +
         " particles, more than the " + std::to_string(kMaxFactoredParticles) +
         " it may take (about 11 KB of memory each)";
}

bool loadSceneOrReport(const std::string& arg, scene::SceneDef& def) {
  try {
    def = scene::loadSceneArg(arg);
    return true;
  } catch (const scene::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return false;
  }
}

namespace {
// A system at least this big (springs plus particles, or links) has checks worth spacing out:
// below it a check costs microseconds (the threshold at which the force pass takes a second
// thread, sim/parallel.hpp).
constexpr long long kBigSystem = 4096;
// A check (the energy and the torn rule) costs about this many force passes of the system, and
// the checks may cost this share of the stepping (measured on cloth_128,
// docs/benchmarks.md#the-step-around-the-force-pass).
constexpr long long kCheckCostInPasses = 3;
constexpr long long kCheckShare = 16;  // one sixteenth

}  // namespace

long long runawayCheckSpacing(long long steps, sim::Method m, const sim::Counts& counts) {
  const long long spacing = std::max(1LL, steps / kRunawayChecks);
  const long long size = std::max<long long>(counts.springs + counts.particles, counts.links);
  const long long passes = sim::info(m).force_passes;
  if (size < kBigSystem || passes == 0) return spacing;
  return std::max(spacing, kCheckCostInPasses * kCheckShare / passes);
}

int listCommand(const Args& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "springlab list: unexpected argument \"%s\"\n", args[0].c_str());
    return 2;
  }
  for (const auto& n : scene::builtinNames()) std::printf("%s\n", n.c_str());
  return 0;
}

namespace {
bool isHelp(const std::string& a) {
  return a == "--help" || a == "-h";
}
}  // namespace

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(usage("")->c_str(), stderr);
    std::fputs(
        "springlab: the interactive window is not available in this build; use springlab run\n",
        stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  const Args rest(argv + 2, argv + argc);
  if (isHelp(cmd)) {
    std::fputs(usage("")->c_str(), stdout);
    return 0;
  }
  if (cmd == "--version") {
    std::printf("%s\n", std::string(versionString()).c_str());
    return 0;
  }
  const auto help = usage(cmd);
  if (help && std::any_of(rest.begin(), rest.end(), isHelp)) {
    std::fputs(help->c_str(), stdout);
    return 0;
  }
  if (cmd == "run") return runCommand(rest);
  if (cmd == "list") return listCommand(rest);
  if (cmd == "bench") return benchCommand(rest);
  if (cmd == "compare") return compareCommand(rest);
  if (cmd == "info") return infoCommand(rest);
  if (cmd == "sweep") return sweepCommand(rest);
  if (cmd == "order") return orderCommand(rest);
  if (cmd == "record") {
    // main() hands record to the app when the viewer is built
    std::fputs(
        "springlab record: this build has no renderer (configured with "
        "SPRINGLAB_VIEWER=OFF)\n",
        stderr);
    return 2;
  }
  std::fprintf(stderr,
               "springlab: the interactive window is not available in this build; unknown command "
               "\"%s\" (commands: run, list, bench, compare, sweep, info, order)\n",
               cmd.c_str());
  return 2;
}

}  // namespace cli
