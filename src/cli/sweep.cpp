// springlab sweep (docs/cli.md#sweep): a stability map over integrators, dt and stiffness scale,
// on a thread pool, sharded for many machines; CSV rows in grid order and an optional heat map.
#include <cmath>
#include <cstdio>
#include <thread>

#include "cli/commands.hpp"
#include "cli/csv.hpp"
#include "cli/progress.hpp"
#include "cli/stop_signal.hpp"
#include "lab/sweep.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "scene/method_file.hpp"
#include "sim/spectrum.hpp"
#include "util/format.hpp"
#include "util/one_line.hpp"
#include "util/png.hpp"

namespace cli {

namespace {

struct SweepOptions {
  std::string scene, integrators, dt, stiffness = "1:1:1";
  std::optional<double> seconds;
  double threshold = 0.01;
  int shard = 1, shards = 1;
  int threads = 0;  // 0: every core
  std::optional<std::string> out, png;
};

int badOption(const std::string& what) {
  std::fprintf(stderr, "springlab sweep: %s\n", util::oneLine(what).c_str());
  return 2;
}

// "I/N" with 1 <= I <= N
std::optional<std::string> parseShard(const std::string& v, SweepOptions& o) {
  const auto slash = v.find('/');
  long long i = 0, n = 0;
  if (slash == std::string::npos || !parseWhole(v.substr(0, slash), i) ||
      !parseWhole(v.substr(slash + 1), n) || n < 1 || n > 1000000)
    return "--shard: must be I/N with whole numbers, not \"" + v + "\"";
  if (i < 1 || i > n) return "--shard: I must be from 1 to N, not \"" + v + "\"";
  o.shard = static_cast<int>(i), o.shards = static_cast<int>(n);
  return std::nullopt;
}

std::optional<std::string> setSweepOption(const std::string& name, const std::string& v,
                                          SweepOptions& o) {
  double x;
  long long n;
  if (name == "--integrators") {
    o.integrators = v;
  } else if (name == "--dt") {
    o.dt = v;
  } else if (name == "--stiffness") {
    o.stiffness = v;
  } else if (name == "--seconds" || name == "--threshold") {
    if (!parseDouble(v, x) || !(x > 0))
      return name + ": must be a finite number > 0, not \"" + v + "\"";
    name == "--seconds" ? void(o.seconds = x) : void(o.threshold = x);
  } else if (name == "--shard") {
    return parseShard(v, o);
  } else if (name == "--threads") {
    if (!parseWhole(v, n) || n < 1 || n > 1024)
      return "--threads: must be a whole number from 1 to 1024, not \"" + v + "\"";
    o.threads = static_cast<int>(n);
  } else if (name == "--out" || name == "--png") {
    if (v.empty()) return name + ": missing file name";
    (name == "--out" ? o.out : o.png) = v;
  }
  return std::nullopt;
}

std::optional<std::string> parseSweepOptions(const Args& args, SweepOptions& o) {
  SplitArgs split;
  if (auto problem = splitArgs(args, sweepOptions(), split)) return problem;
  for (const auto& given : split.options)
    if (auto problem = setSweepOption(std::string(given.spec->name), given.value, o))
      return problem;
  if (auto problem = takeScene(split, o.scene)) return problem;
  if (o.integrators.empty()) return "missing --integrators A,B,...";
  if (o.dt.empty()) return "missing --dt LO:HI:N";
  return std::nullopt;
}

// The scene, the integrators and the grids; returns 0 or the exit status.
int planSweep(const SweepOptions& o, lab::SweepSpec& spec) {
  if (!loadSceneOrReport(o.scene, spec.def)) return 2;
  size_t begin = 0;
  while (true) {
    const size_t comma = o.integrators.find(',', begin);
    const auto lookup =
        scene::lookupIntegrator(o.integrators.substr(begin, comma - begin), spec.def.kind);
    if (!lookup.method) return badOption("--integrators: " + lookup.error);
    if (auto big = solverProblem(spec.def, *lookup.method))
      return badOption("--integrators: " + *big);
    spec.methods.push_back(*lookup.method);
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  if (auto bad = lab::parseGridAxis(o.dt, spec.dt)) return badOption("--dt: " + *bad);
  if (auto bad = lab::parseGridAxis(o.stiffness, spec.stiffness))
    return badOption("--stiffness: " + *bad);
  const bool unscaled = spec.stiffness.lo == 1.0 && spec.stiffness.hi == 1.0;
  if (auto why = sim::notApplicable(sim::Parameter::StiffnessScale, spec.def.kind);
      why && !unscaled)
    return badOption("--stiffness: " + *why + " (only 1:1:1)");
  spec.seconds = o.seconds.value_or(spec.def.duration);
  if (!(spec.seconds > 0)) return badOption("--seconds: the scene's duration is 0; give --seconds");
  if (auto many = stepsProblem(o.seconds ? "--seconds" : "the scene's duration", spec.seconds,
                               "--dt's smallest", spec.dt.lo))
    return badOption(*many);
  if (auto heavy = workProblem(spec.def, spec.seconds / spec.dt.lo))
    return badOption("--seconds / --dt: the longest cell: " + *heavy);
  if (const double cells = double(spec.methods.size()) * spec.dt.n * spec.stiffness.n;
      cells > double(lab::kMaxSweepCells))
    return badOption("--integrators, --dt, --stiffness: " + std::to_string(spec.methods.size()) +
                     " x " + std::to_string(spec.dt.n) + " x " + std::to_string(spec.stiffness.n) +
                     " = " + util::messageNumber(cells) + " cells, more than the " +
                     std::to_string(lab::kMaxSweepCells) + " a sweep may have");
  spec.threshold = o.threshold;
  return 0;
}

}  // namespace

std::optional<std::string> parseSweepArgs(const Args& args) {
  SweepOptions o;
  auto problem = parseSweepOptions(args, o);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

// The heat map (sweep_png.cpp).
util::Problem writeSweepPng(const std::string& path, const lab::SweepSpec& spec,
                            const std::vector<lab::CellResult>& cells, double omegaMax);

int sweepCommand(const Args& args) {
  SweepOptions o;
  if (auto problem = parseSweepOptions(args, o)) return badOption(*problem);
  lab::SweepSpec spec;
  if (const int status = planSweep(o, spec)) return status;
  CsvFile csv;
  if (!csv.open(o.out.value_or("-"))) return badOption(csv.error());
  csv.text("integrator,dt,stiffness_scale,class,drift,t_end\n");
  const size_t total =
      (cellCount(spec) + static_cast<size_t>(o.shards - o.shard)) / static_cast<size_t>(o.shards);
  Progress progress =
      Progress::forStderr("springlab sweep", "cells", static_cast<long long>(total));
  long long done = 0;
  const int threads = o.threads > 0
                          ? o.threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::atomic<bool> stop{false};
  std::vector<lab::CellResult> cells;
  {
    StopOnSignal signals;
    std::thread watcher([&] {  // Ctrl+C: the workers stop after their current cell's step
      while (!stop.load()) {
        if (StopOnSignal::requested()) stop = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    });
    cells = lab::runSweep(
        spec, o.shard, o.shards, threads,
        [&](const lab::CellResult&) { progress.update(++done, std::nan("")); }, &stop);
    const bool interrupted = StopOnSignal::requested();
    stop = true;
    watcher.join();
    progress.finish(done, std::nan(""));
    if (interrupted) {
      std::fprintf(stderr, "springlab sweep: interrupted; nothing written\n");
      return 130;
    }
  }
  for (const auto& c : cells) {
    csv.text((std::string(sim::info(c.method).name) + ",").c_str());
    csv.number(c.dt);
    csv.number(c.stiffness_scale);
    csv.text(",");
    csv.text(lab::className(c.cls));
    csv.number(c.drift);
    csv.number(c.t_end);
    csv.endRow();
  }
  if (!csv.commit()) return badOption(csv.error());
  if (o.png) {
    const scene::Built built = scene::build(spec.def);
    // the limit over the same T as the cells (docs/cli.md#info): omega_max over the motion
    const double omega = sim::motionSpectrum(built, built.state, spec.seconds).omega_max;
    if (auto problem = writeSweepPng(*o.png, spec, cells, omega)) return badOption(*problem);
  }
  return 0;
}

}  // namespace cli
