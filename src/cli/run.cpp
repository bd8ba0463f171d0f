// springlab run (INTERFACE.md §4): headless simulation with CSV output.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <optional>

#include "cli/commands.hpp"
#include "cli/csv.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "sim/energy.hpp"
#include "sim/stepper.hpp"

namespace cli {

namespace {

// Ctrl+C / SIGTERM: stop between steps and keep complete files with the rows so far
volatile std::sig_atomic_t g_stop = 0;
extern "C" void onStopSignal(int) {
  g_stop = 1;
}

int badOption(const std::string& what) {
  std::fprintf(stderr, "springlab run: %s\n", what.c_str());
  return 2;
}

// The value of one run option into `o`; returns the problem or nothing.
std::optional<std::string> setRunOption(const OptionSpec& spec, const std::string& value,
                                        RunOptions& o) {
  const std::string name(spec.name);
  if (name == "--integrator") {
    o.integrator = value;
  } else if (name == "--dt") {
    double v;
    if (!parseDouble(value, v) || !(v > 0))
      return "--dt: must be a finite number > 0, not \"" + value + "\"";
    o.dt = v;
  } else if (name == "--duration") {
    double v;
    if (!parseDouble(value, v) || !(v >= 0))
      return "--duration: must be a finite number >= 0, not \"" + value + "\"";
    o.duration = v;
  } else if (name == "--every") {
    long long v;
    if (!parseWhole(value, v) || v < 1)
      return "--every: must be a whole number >= 1, not \"" + value + "\"";
    o.every = v;
  } else if (name == "--out" || name == "--energy") {
    if (value.empty()) return name + ": missing file name";
    (name == "--out" ? o.out : o.energy) = value;
  } else {
    return "internal error: option " + name + " has no parser";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> parseRunOptions(const Args& args, RunOptions& o) {
  SplitArgs split;
  if (auto problem = splitArgs(args, runOptions(), split)) return problem;
  for (const auto& given : split.options)
    if (auto problem = setRunOption(*given.spec, given.value, o)) return problem;
  if (split.positional.size() > 1)
    return "unexpected argument \"" + split.positional[1] + "\" (one SCENE only)";
  if (split.positional.empty())
    return "missing SCENE (a .json file or a built-in name from springlab list)";
  o.scene = split.positional[0];
  if (o.out && o.energy && *o.out == "-" && *o.energy == "-")
    return "--out and --energy cannot both be - (standard output)";
  return std::nullopt;
}

int runCommand(const Args& args) {
  RunOptions o;
  if (const auto problem = parseRunOptions(args, o)) return badOption(*problem);

  scene::SceneDef def;
  try {
    def = scene::loadSceneArg(o.scene);
  } catch (const scene::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  if (o.integrator) {
    const auto lookup = sim::lookupIntegrator(*o.integrator, def.kind);
    if (!lookup.method) return badOption("--integrator: " + lookup.error);
    const auto m = lookup.method;
    def.integrator = *m;
  }
  if (o.dt) def.dt = *o.dt;
  if (o.duration) def.duration = *o.duration;
  const double ratio = def.duration / def.dt;
  if (!(ratio < 1e15))
    return badOption("--duration / --dt: " + std::to_string(ratio) + " steps is too many");
  const long long steps = std::llround(ratio);

  const scene::Built built = scene::build(def);
  const int n = built.bodies();

  CsvFile traj, energy;
  if (o.out && !traj.open(*o.out)) return badOption(traj.error());
  if (o.energy && !energy.open(*o.energy)) return badOption(energy.error());
  if (traj.isOpen()) {
    std::string h = "t";
    for (int i = 0; i < n; ++i) {
      const auto s = std::to_string(i);
      h += ",x" + s + ",y" + s + ",z" + s;
    }
    h += "\n";
    traj.text(h.c_str());
  }
  if (energy.isOpen()) energy.text("t,kinetic,potential,total\n");

  const auto stepperPtr = built.stepper(def.integrator, def.dt);
  sim::Stepper& stepper = *stepperPtr;
  Eigen::VectorXd pos;
  long long lastWritten = -1;
  auto writeRow = [&](long long k) {
    const double t = static_cast<double>(k) * def.dt;  // k*dt, not an accumulated sum
    const sim::State& s = stepper.state();
    if (traj.isOpen()) {
      traj.number(t);
      built.positions(s, pos);
      for (int j = 0; j < 3 * n; ++j) traj.number(pos[j]);
      traj.endRow();
    }
    if (energy.isOpen()) {
      const sim::Energy e = built.energy(s);
      energy.number(t);
      energy.number(e.kinetic);
      energy.number(e.potential);
      energy.number(e.total());
      energy.endRow();
    }
    lastWritten = k;
  };

  const auto t0 = std::chrono::steady_clock::now();
  const sim::Energy e0 = built.energy(stepper.state());
  writeRow(0);
  std::optional<sim::Divergence> diverged;
  long long k = 1;
  g_stop = 0;
  std::signal(SIGINT, onStopSignal);
  std::signal(SIGTERM, onStopSignal);
  for (; k <= steps && !g_stop; ++k) {
    if ((diverged = stepper.advance())) break;
    if (k % o.every == 0 || k == steps) writeRow(k);
  }
  const bool interrupted = g_stop && !diverged && k <= steps;
  if ((diverged || interrupted) && lastWritten != k - 1) writeRow(k - 1);  // the last step made
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  const bool committed = traj.commit() && energy.commit();
  if (!committed) {
    std::fprintf(stderr, "springlab run: %s\n",
                 (traj.error().empty() ? energy.error() : traj.error()).c_str());
    return 2;
  }
  if (diverged) {
    std::fprintf(stderr, "springlab run: %s\n", diverged->message().c_str());
    return 3;
  }
  if (interrupted) {
    std::fprintf(stderr,
                 "springlab run: interrupted at t = %.17g s; the files hold the rows so far\n",
                 static_cast<double>(k - 1) * def.dt);
    return 130;
  }
  const bool stdoutUsed = (o.out && *o.out == "-") || (o.energy && *o.energy == "-");
  if (!stdoutUsed) {
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const sim::Energy e1 = built.energy(stepper.state());
    std::printf("scene       %s\n", def.name.empty() ? o.scene.c_str() : def.name.c_str());
    if (built.kind == sim::SystemKind::Pendulum)
      std::printf("system      pendulum, %d links\n", n);
    else
      std::printf("system      mass_spring, %d particles, %d springs, %dD\n", n,
                  built.mass_spring.springs(), built.mass_spring.dim);
    std::printf("integrator  %s, dt = %g s, %lld steps, t = %g s\n",
                std::string(sim::info(def.integrator).name).c_str(), def.dt, steps,
                static_cast<double>(steps) * def.dt);
    // relative drift only where E0 is not ~0 (a rope released at pivot height starts at E0 = 0)
    const double scale =
        std::max({std::abs(e1.kinetic), std::abs(e1.potential), std::abs(e0.potential)});
    if (std::abs(e0.total()) > 1e-6 * scale)
      std::printf("energy      E0 = %.9g J, E = %.9g J, (E - E0)/|E0| = %.3e\n", e0.total(),
                  e1.total(), (e1.total() - e0.total()) / std::abs(e0.total()));
    else
      std::printf("energy      E0 = %.9g J, E = %.9g J, E - E0 = %.3e J\n", e0.total(), e1.total(),
                  e1.total() - e0.total());
    std::printf("wall time   %.3f s (%.2f us per step)\n", wall,
                steps ? 1e6 * wall / static_cast<double>(steps) : 0.0);
  }
  return 0;
}

}  // namespace cli
