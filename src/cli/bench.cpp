// springlab bench: microseconds per step of every mass-spring integrator on the cloth scenes, and
// spring evaluations per second of the explicit force pass. Figures, not tests.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include "scene/build.hpp"
#include "scene/edit.hpp"
#include "scene/load.hpp"
#include "sim/parallel.hpp"
#include "sim/simd.hpp"
#include "sim/system.hpp"
#include "util/one_line.hpp"

namespace cli {

namespace {
using Clock = std::chrono::steady_clock;

// The scenes table and the stiff-cloth swings are of mass-spring systems: they time that kind's
// integrators and force pass and measure its springs' stretch (the pendulum table is apart). The
// one line of bench that names a kind: the rest asks sim::System and scene's functions.
constexpr sim::SystemKind kBenchKind = sim::SystemKind::MassSpring;

double seconds(Clock::time_point a) {
  return std::chrono::duration<double>(Clock::now() - a).count();
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// The value of one bench option into `o`; returns the problem or nothing.
std::optional<std::string> setBenchOption(const OptionSpec& spec, const std::string& value,
                                          BenchOptions& o) {
  const std::string name(spec.name);
  if (name == "--scenes") {
    o.scenes = split(value);
    if (o.scenes.empty()) return "--scenes: no scene named";
  } else if (name == "--integrators") {
    o.integrators.clear();
    for (const auto& i : split(value)) {
      const auto m = sim::findIntegrator(i);
      if (!m || !sim::appliesTo(*m, kBenchKind))
        return "--integrators: \"" + i + "\" is not one of " + sim::applicableList(kBenchKind);
      o.integrators.push_back(*m);
    }
    if (o.integrators.empty()) return "--integrators: no integrator named";
  } else if (name == "--seconds") {
    if (!parseDouble(value, o.seconds) || !(o.seconds > 0))
      return "--seconds: must be a number > 0, not \"" + value + "\"";
  } else if (name == "--max-steps") {
    if (!parseWhole(value, o.max_steps) || o.max_steps < 1)
      return "--max-steps: must be a whole number >= 1, not \"" + value + "\"";
  } else if (name == "--suite") {
    if (value != "all" && value != "cloth" && value != "stiff" && value != "self" &&
        value != "pendulum")
      return "--suite: must be all, cloth, stiff, self or pendulum, not \"" + value + "\"";
    o.suite = value;
  } else if (name == "--stiff") {
    o.stiff = split(value);
    if (o.stiff.empty()) return "--stiff: no scene named";
  } else if (name == "--self") {
    o.self = split(value);
    if (o.self.empty()) return "--self: no scene named";
  } else if (name == "--swing") {
    if (!parseDouble(value, o.swing) || !(o.swing > 0))
      return "--swing: must be a number > 0, not \"" + value + "\"";
  } else {
    return "internal error: option " + name + " has no parser";
  }
  return std::nullopt;
}

struct BenchScene {
  std::string name;
  scene::SceneDef def;
};

// Loads every scene of `option` (--scenes: the scenes table, --stiff: the swings) before any
// timing, so that bad input writes nothing. Returns the one-line problem or nothing.
std::optional<std::string> loadBenchScenes(const std::vector<std::string>& names,
                                           const char* option, std::vector<BenchScene>& out) {
  for (const auto& name : names) {
    BenchScene s{name, {}};
    try {
      s.def = scene::loadSceneArg(name);
    } catch (const scene::Error& e) {
      return std::string(e.what());
    }
    if (s.def.kind != kBenchKind)
      return std::string("springlab bench: ") + option + ": " + name +
             " is a pendulum; the scenes table and the stiff-cloth swings take mass-spring "
             "systems (the pendulum table: --suite pendulum)";
    out.push_back(std::move(s));
  }
  return std::nullopt;
}

// Microseconds per step of `m` on `b` at dt, the first step (which builds factorisations and
// sparsity patterns) excluded when more ran; `diverged` tells whether the run diverged.
double clothStepTime(const scene::Built& b, sim::Method m, double dt, double budget,
                     long long maxSteps, bool& diverged) {
  const auto st = b.stepper(m, dt);
  auto t0 = Clock::now();
  auto d = st->advance();
  const double first = seconds(t0);
  long long n = 0;
  t0 = Clock::now();
  while (!d && n < maxSteps && seconds(t0) < budget) {
    d = st->advance();
    ++n;
  }
  diverged = d.has_value();
  return n > 0 ? seconds(t0) / double(n) : first;
}

// Spring evaluations per second of the explicit force pass alone. A pass costs about as much as
// one explicit step, so half a cell's budget measures it as well; at least kMinForcePasses passes
// so that the first one (cold caches) does not stand alone on a huge scene.
constexpr double kForcePassBudgetShare = 0.5;
constexpr long long kMinForcePasses = 3;
double springEvaluationRate(const scene::Built& b, double budget, int threads) {
  const int before = sim::kernelThreadsSetting();
  sim::setKernelThreads(threads);
  Eigen::VectorXd f;
  long long passes = 0;
  const auto t0 = Clock::now();
  while (seconds(t0) < budget * kForcePassBudgetShare || passes < kMinForcePasses) {
    b.forcePass(b.state, f);
    ++passes;
  }
  const double rate = double(passes) * b.counts().springs / seconds(t0);
  sim::setKernelThreads(before);
  return rate;
}

// A table row is printed whole, after the progress line is erased, so that the two never share
// a line of the terminal.
void printRow(Progress& progress, const std::string& row) {
  progress.clear();
  std::fputs(row.c_str(), stdout);
  std::fflush(stdout);
}

// (a text without values is appended as it is: no format string that is not a literal)
void appendf(std::string& out, const char* text) {
  out += text;
}
template <typename... T>
void appendf(std::string& out, const char* format, T... values) {
  char text[128];
  std::snprintf(text, sizeof text, format, values...);
  out += text;
}

// The step a method is timed at: the scene's dt, or kStableShare of the method's stability limit
// at the initial state where the scene's dt is beyond it (a stiff cloth stepped by xpbd at 1/60 s
// would make an explicit method diverge at once, and a diverging run times garbage states).
// euler is never stable undamped; at h omega = kEulerShare * 2 its energy grows by 1 + (h omega)^2
// = 1.01 a step, which stays finite over a cell's steps.
constexpr double kStableShare = 0.5, kEulerShare = 0.05;
double benchDt(sim::Method m, double sceneDt, double omegaMax) {
  if (m == sim::Method::Euler && omegaMax > 0.0)
    return std::min(sceneDt, kEulerShare * 2.0 / omegaMax);
  const auto limit = sim::dtLimit(m, omegaMax);
  if (!limit || !std::isfinite(*limit) || *limit <= 0.0) return sceneDt;
  return std::min(sceneDt, kStableShare * *limit);
}

// A run that diverges at that step is timed again at half the step, at most this many times:
// time_fe has no limit from omega (its rest-length term is explicit, so its limit depends on the
// state), and a diverging run stops after a few steps of growing garbage.
constexpr int kDivergedRetries = 12;

void benchCloth(const std::vector<BenchScene>& scenes, const std::vector<sim::Method>& ms,
                double budget, long long maxSteps, Progress& progress, long long& cells) {
  std::string header;
  header +=
      "# microseconds per step (first step, which factorises, excluded when more ran); at "
      "the scene's dt, or (*) at half the method's stability limit where the dt is beyond "
      "it (euler: a tenth), halved again while the run diverges; the force pass in spring runs "
      "(4096 springs or more): ";
  header += sim::runKernels();
  header += "\n";
  appendf(header, "%-12s %9s %9s", "scene", "particles", "springs");
  for (auto m : ms) appendf(header, " %17s", std::string(sim::info(m).name).c_str());
  const int cores = sim::hardwareThreads();
  appendf(header, " %14s %14s\n", "evals/s 1 thr",
          ("evals/s " + std::to_string(cores) + " thr").c_str());
  printRow(progress, header);
  for (const auto& s : scenes) {
    const scene::Built b = scene::build(s.def);
    std::string row;
    appendf(row, "%-12s %9d %9d", s.name.c_str(), b.counts().particles, b.counts().springs);
    const double omega = b.omegaMax(b.state);
    for (auto m : ms) {
      bool diverged = false;
      double dt = benchDt(m, s.def.dt, omega);
      double per = clothStepTime(b, m, dt, budget, maxSteps, diverged);
      for (int retry = 0; diverged && retry < kDivergedRetries; ++retry)
        per = clothStepTime(b, m, dt *= 0.5, budget, maxSteps, diverged);
      char cell[32];
      std::snprintf(cell, sizeof cell, "%.1f%s%s", 1e6 * per, dt < s.def.dt ? "*" : "",
                    diverged ? " (div)" : "");
      appendf(row, " %17s", cell);
      progress.update(++cells, NAN);
    }
    appendf(row, " %14.3g %14.3g\n", springEvaluationRate(b, budget, 1),
            springEvaluationRate(b, budget, cores));
    printRow(progress, row);
  }
}

// The structural springs, whose largest l / r the swings report (sim::System::maxStretch): those
// whose rest length is within kStructuralTolerance of the shortest (a cloth's shear and bending
// springs are sqrt 2 and 2 times longer).
constexpr double kStructuralTolerance = 0.01;

// The process's peak resident set (VmHWM in /proc/self/status), MiB; nothing where it is not there.
std::optional<double> peakResidentMiB() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return std::nullopt;
  char line[256];
  std::optional<double> kib;
  while (std::fgets(line, sizeof line, f))
    if (double v = 0; std::sscanf(line, "VmHWM: %lf kB", &v) == 1) kib = v;
  std::fclose(f);
  if (!kib) return std::nullopt;
  return *kib / 1024.0;
}

constexpr double kFrame = 1.0 / 60;  // s, the display frame the real-time figures refer to

// The stiff-cloth swing (issue 10's measure): the scene with its own method for `swing` simulated
// seconds; prints the compute per simulated 1/60 s (stepping alone: the stretch is measured
// between the timed steps) and the largest structural stretch reached.
struct Swing {
  double first = 0.0;     // s, the first step (the method's set-up: a factorisation, colours)
  double stepping = 0.0;  // s of compute of the other steps
  double worst = 0.0;     // max structural stretch
  bool diverged = false;
  // the substeps and iterations of the last step, and the mean iterations per step (automatic
  // settings vary, docs/integrators.md#automatic-settings)
  sim::Stepper::Settings last;
  double mean_iterations = 0.0;
  double residual = 0.0;  // the largest relative residual of a step (vbd; 0: not measured)
};

// Steps the stiff cloth for `steps` steps; the stretch is measured between the timed steps.
Swing swingCloth(const scene::SceneDef& def, long long steps) {
  const scene::Built b = scene::build(def);
  const auto st = b.stepper(def.integrator, def.dt);
  Swing w;
  w.worst = b.maxStretch(b.state, kStructuralTolerance);
  long long made = 0;
  for (long long i = 0; i < steps && !w.diverged; ++i, ++made) {
    const auto t0 = Clock::now();
    w.diverged = st->advance().has_value();
    (i == 0 ? w.first : w.stepping) += seconds(t0);
    w.worst = std::max(w.worst, b.maxStretch(st->state(), kStructuralTolerance));
    w.last = st->settingsUsed();
    w.mean_iterations += w.last.iterations;
    w.residual = std::max(w.residual, st->lastResidual());
  }
  w.mean_iterations /= double(std::max(made, 1LL));
  return w;
}

// "10 substeps x 1 iterations", the automatic ones as they went: "automatic: 1 substeps x 2.9
// iterations on average".
std::string settingsText(const sim::System& b, const Swing& w) {
  const int substeps = int(b.parameter(sim::Parameter::Substeps));
  const int iterations = int(b.parameter(sim::Parameter::Iterations));
  std::string text;
  if (substeps == sim::kAutomatic || iterations == sim::kAutomatic)
    appendf(text, "automatic: %d substeps x %.3g iterations on average", w.last.substeps,
            w.mean_iterations);
  else
    appendf(text, "%d substeps x %d iterations", substeps, iterations);
  return text;
}

// The stiff-cloth swing (issue 10's measure): the scene with its own method for `swing` simulated
// seconds; prints the compute per simulated 1/60 s and the largest structural stretch reached.
// Where the processor has AVX2 the swing runs again on the scalar path: the same-run ratio of the
// vector kernels (sim/simd.hpp's switches), and the same stretch, since both give the same bits.
void benchStiff(const scene::SceneDef& def, const std::string& name, double swing,
                Progress& progress, long long& cells) {
  const long long steps = std::llround(swing / def.dt);
  const Swing w = swingCloth(def, steps);
  std::optional<Swing> scalar;
  if (sim::simdAvailable() && def.integrator == sim::Method::Xpbd) {
    sim::setSimd(false);
    scalar = swingCloth(def, steps);
    sim::setSimd(true);
  }
  progress.update(++cells, NAN);
  const scene::Built b = scene::build(def);
  const sim::Counts counts = b.counts();
  std::string out;
  appendf(out, "\n# swing: %s, %d particles, %d springs, %s at dt = %.4g s", name.c_str(),
          counts.particles, counts.springs, std::string(sim::info(def.integrator).name).c_str(),
          def.dt);
  if (sim::info(def.integrator).iterated) appendf(out, " (%s)", settingsText(b, w).c_str());
  appendf(out, ", %.3g s swing\n", swing);
  // the steps after the first: the method's set-up is a one-off, printed apart
  const double simulated = double(std::max(steps - 1, 1LL)) * def.dt;
  // xpbd's sweeps take the vectors the spring runs take (the same switches, sim/simd.hpp)
  const std::string vectors = def.integrator == sim::Method::Xpbd
                                  ? std::string(", ") + sim::runKernels() + " sweeps"
                                  : std::string();
  appendf(out, "compute per simulated 1/60 s: %.3f ms (%.0f %% of a 60 Hz frame)%s%s\n",
          1e3 * w.stepping * kFrame / simulated, 100.0 * w.stepping / simulated,
          w.diverged ? " (diverged)" : "", vectors.c_str());
  if (scalar)
    appendf(out, "the same on the scalar path (no vectors): %.3f ms, %.2f times the time\n",
            1e3 * scalar->stepping * kFrame / simulated, scalar->stepping / w.stepping);
  appendf(out, "max structural stretch: %.4f%s\n", w.worst,
          scalar ? (scalar->worst == w.worst ? " (the same on the scalar path)"
                                             : " (differs on the scalar path: a bug)")
                 : "");
  if (w.residual > 0.0) appendf(out, "largest residual |grad G| / weights: %.3g\n", w.residual);
  appendf(out, "first step (the method's set-up included, not in the compute above): %.1f ms\n",
          1e3 * w.first);
  printRow(progress, out);
}

// Self-collision's cost (docs/benchmarks.md#self-collision): each scene with its own method for
// `swing` simulated seconds without self-collision and with it, at the scene's thickness or, where
// it has none, at kSelfShare of its shortest rest length (a cloth's cell: the thickness that
// stops a particle slipping through the middle of a cell, more than 1/sqrt 2 of it).
constexpr double kSelfShare = 0.78;
// The scene with self-collision at that thickness (of kBenchKind, loadBenchScenes checks: it has
// springs); its particles into `particles`.
scene::SceneDef withSelfCollision(const scene::SceneDef& def, int& particles) {
  const scene::Built b = scene::build(def);
  particles = b.counts().particles;
  scene::SceneDef with = def;
  if (scene::selfThickness(with) == 0.0)
    scene::setSelfThickness(with, kSelfShare * b.shortestRestLength());
  return with;
}

void benchSelf(const std::vector<BenchScene>& scenes, double swing, Progress& progress,
               long long& cells) {
  std::string header;
  // in parts: appendf formats at most 127 characters at a time
  appendf(header, "\n# self-collision: each scene with its own method for %.3g s, ", swing);
  appendf(header, "compute per simulated 1/60 s without it and with it, on one thread ");
  appendf(header, "(thickness: the scene's, or %.2f of its shortest spring)\n", kSelfShare);
  appendf(header, "%-14s %9s %13s %12s %12s %12s %12s\n", "scene", "particles", "thickness mm",
          "method", "without ms", "with ms", "extra ms");
  printRow(progress, header);
  // one thread: the figure is the work's, not that of a busy machine's barriers
  const int before = sim::kernelThreadsSetting();
  sim::setKernelThreads(1);
  for (const auto& s : scenes) {
    int particles = 0;
    const scene::SceneDef with = withSelfCollision(s.def, particles);
    scene::SceneDef without = s.def;
    scene::setSelfThickness(without, 0.0);
    const long long steps = std::llround(swing / s.def.dt);
    const double simulated = double(std::max(steps - 1, 1LL)) * s.def.dt;
    const Swing a = swingCloth(without, steps), b = swingCloth(with, steps);
    const double ms_a = 1e3 * a.stepping * kFrame / simulated,
                 ms_b = 1e3 * b.stepping * kFrame / simulated;
    std::string row;
    appendf(row, "%-14s %9d %13.2f %12s %12.3f %12.3f %12.3f%s\n", s.name.c_str(), particles,
            1e3 * scene::selfThickness(with), std::string(sim::info(s.def.integrator).name).c_str(),
            ms_a, ms_b, ms_b - ms_a, a.diverged || b.diverged ? " (diverged)" : "");
    progress.update(++cells, NAN);
    printRow(progress, row);
  }
  sim::setKernelThreads(before);
}

// Time per step of `m` on a uniform chain of n links (1 m long, 1 kg), released at 45 degrees.
// `diverged` is set if the run diverged (its timing would then measure garbage states).
double pendulumStepTime(int n, sim::Method m, double h, double budget, long long maxSteps,
                        bool& diverged) {
  const scene::Built b =
      scene::build(scene::uniformPendulum(n, 1.0 / n, 1.0 / n, std::numbers::pi / 4));
  const auto st = b.stepper(m, h);
  long long steps = 0;
  diverged = false;
  const auto t0 = Clock::now();
  do {
    if (st->advance()) {
      diverged = true;
      break;
    }
    ++steps;
  } while (steps < maxSteps * 20 && seconds(t0) < budget);
  return seconds(t0) / double(std::max(steps, 1LL));
}

constexpr int kPendulumLinks[] = {2, 10, 100, 1000, 10000};
constexpr int kMaxMidpointLinks = 1000;  // implicit_midpoint's dense solve is O(N^3) per step
constexpr long long kPendulumCells = 9;  // rk4 on each chain, implicit_midpoint up to 1000 links

void benchPendulum(double budget, long long maxSteps, Progress& progress, long long& cells) {
  // the cost of a step does not depend on h; the short links of long chains are stiff, so a
  // small h keeps every run finite (a diverging run would time garbage)
  const double hRk4 = 1e-7, hMid = 1e-5;
  std::string header;
  appendf(header, "\n# pendulum: uniform chain of N links (1 m, 1 kg) released at 45 degrees\n");
  appendf(header, "%8s %22s %32s\n", "N", "rk4 us/step (h=1e-7)",
          "implicit_midpoint us/step (h=1e-5)");
  printRow(progress, header);
  double t1000 = 0, t10000 = 0;
  for (int n : kPendulumLinks) {
    bool div = false;
    const double rk = pendulumStepTime(n, sim::Method::Rk4, hRk4, budget, maxSteps, div);
    progress.update(++cells, NAN);
    if (n == 1000) t1000 = rk;
    if (n == 10000) t10000 = rk;
    std::string row;
    appendf(row, "%8d %16.2f%6s", n, 1e6 * rk, div ? "(div)" : "");
    if (n <= kMaxMidpointLinks) {
      const double mid =
          pendulumStepTime(n, sim::Method::ImplicitMidpoint, hMid, budget, maxSteps, div);
      progress.update(++cells, NAN);
      appendf(row, " %26.2f%6s\n", 1e6 * mid, div ? "(div)" : "");
    } else {
      appendf(row, " %32s\n", "-");
    }
    printRow(progress, row);
  }
  std::string last;
  appendf(last, "rk4 scaling exponent between N = 1000 and 10000: %.3f\n",
          std::log(t10000 / t1000) / std::log(10.0));
  printRow(progress, last);
}
}  // namespace

namespace {
std::optional<std::string> parseBenchOptionsText(const Args& args, BenchOptions& o) {
  SplitArgs given;
  if (auto problem = splitArgs(args, benchOptions(), given)) return problem;
  if (!given.positional.empty())
    return "unexpected argument \"" + given.positional[0] + "\" (bench takes only options)";
  for (const auto& g : given.options)
    if (auto problem = setBenchOption(*g.spec, g.value, o)) return problem;
  if (o.integrators.empty())
    for (const auto& i : sim::integrators())
      if (sim::appliesTo(i.method, kBenchKind)) o.integrators.push_back(i.method);
  return std::nullopt;
}
}  // namespace

// The problem in one line (util/one_line.hpp): the text may hold a line break
std::optional<std::string> parseBenchOptions(const Args& args, BenchOptions& o) {
  auto problem = parseBenchOptionsText(args, o);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

int benchCommand(const Args& args) {
  BenchOptions o;
  if (const auto problem = parseBenchOptions(args, o)) {
    std::fprintf(stderr, "springlab bench: %s\n", problem->c_str());
    return 2;
  }
  const bool all = o.suite == "all";
  std::vector<BenchScene> scenes, stiff, self;
  if (all || o.suite == "cloth") {
    if (const auto problem = loadBenchScenes(o.scenes, "--scenes", scenes)) {
      std::fprintf(stderr, "%s\n", problem->c_str());
      return 2;
    }
  }
  if (all || o.suite == "stiff") {
    if (const auto problem = loadBenchScenes(o.stiff, "--stiff", stiff)) {
      std::fprintf(stderr, "%s\n", problem->c_str());
      return 2;
    }
  }
  if (all || o.suite == "self") {
    if (const auto problem = loadBenchScenes(o.self, "--self", self)) {
      std::fprintf(stderr, "%s\n", problem->c_str());
      return 2;
    }
  }
  const long long clothCells = static_cast<long long>(scenes.size() * o.integrators.size());
  const long long total = clothCells + static_cast<long long>(stiff.size() + self.size()) +
                          (all || o.suite == "pendulum" ? kPendulumCells : 0);
  Progress progress = Progress::forStderr("springlab bench", "cells", total);
  long long cells = 0;
  if (!scenes.empty()) benchCloth(scenes, o.integrators, o.seconds, o.max_steps, progress, cells);
  for (const auto& s : stiff) benchStiff(s.def, s.name, o.swing, progress, cells);
  if (!self.empty()) benchSelf(self, o.swing, progress, cells);
  if (all || o.suite == "pendulum") benchPendulum(o.seconds, o.max_steps, progress, cells);
  progress.finish(cells, NAN);
  if (const auto peak = peakResidentMiB())
    std::printf("\npeak memory (resident set, the whole run): %.1f MiB\n", *peak);
  return 0;
}

}  // namespace cli
