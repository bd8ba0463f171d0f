// springlab run (docs/cli.md, run): headless simulation with CSV output.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "cli/commands.hpp"
#include "cli/csv.hpp"
#include "cli/progress.hpp"
#include "cli/stop_signal.hpp"
#include "lab/scheduled_lane.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "scene/method_file.hpp"
#include "sim/diagnostics.hpp"
#include "sim/energy.hpp"
#include "sim/stepper.hpp"
#include "util/format.hpp"
#include "util/one_line.hpp"

namespace cli {

namespace {

// Above this many steps run says how many before it starts: at a microsecond per step (a small
// scene) that is already a quarter of an hour, so a mistyped --dt gets noticed at once.
constexpr long long kLongRunSteps = 1'000'000'000;

int badOption(const std::string& what) {
  std::fprintf(stderr, "springlab run: %s\n", util::oneLine(what).c_str());
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
  } else if (name == "--at") {
    lab::Event e;
    if (auto bad = lab::parseEvent(value, e)) return "--at: " + *bad;
    o.events.push_back(std::move(e));
  } else if (name == "--out" || name == "--energy" || name == "--ledger") {
    if (value.empty()) return name + ": missing file name";
    (name == "--out" ? o.out : name == "--energy" ? o.energy : o.ledger) = value;
  } else {
    return "internal error: option " + name + " has no parser";
  }
  return std::nullopt;
}

// The scene of a run with the options applied, and its number of steps.
struct RunPlan {
  scene::SceneDef def;
  long long steps = 0;
};

// Loads the scene and applies --integrator, --dt, --duration; returns 0 or the exit status.
int planRun(const RunOptions& o, RunPlan& plan) {
  scene::SceneDef& def = plan.def;
  if (!loadSceneOrReport(o.scene, def)) return 2;
  if (o.integrator) {
    const auto lookup = scene::lookupIntegrator(*o.integrator, def.kind);
    if (!lookup.method) return badOption("--integrator: " + lookup.error);
    def.integrator = *lookup.method;
  }
  if (o.dt) def.dt = *o.dt;
  if (o.duration) def.duration = *o.duration;
  if (auto many = stepsProblem(o.duration ? "--duration" : "the scene's duration", def.duration,
                               o.dt ? "--dt" : "the scene's dt", def.dt))
    return badOption(*many);
  const double ratio = def.duration / def.dt;
  plan.steps = std::llround(ratio);
  if (auto heavy = workProblem(def, ratio)) return badOption("--duration / --dt: " + *heavy);
  if (auto big = solverProblem(def, def.integrator)) return badOption("--integrator: " + *big);
  for (const auto& e : o.events) {
    if (auto bad = lab::checkEvent(e, def.kind)) return badOption("--at: " + *bad);
    if (e.key == lab::EventKey::Integrator)
      if (auto big = solverProblem(def, sim::findIntegrator(e.name).value_or(def.integrator)))
        return badOption("--at: \"" + e.text + "\": " + *big);
    if (e.key == lab::EventKey::Dt)
      if (auto many = stepsProblem("the duration", def.duration, "dt", e.value))
        return badOption("--at: \"" + e.text + "\": " + *many);
  }
  return 0;
}

// The trajectory and energy CSV files of a run (either may be absent).
class RowWriter {
 public:
  explicit RowWriter(int bodies) : bodies_(bodies) {}
  // Opens the files named by the options and writes the headers; returns the problem or nothing.
  std::optional<std::string> open(const RunOptions& o) {
    if (o.out && !traj_.open(*o.out)) return traj_.error();
    if (o.energy && !energy_.open(*o.energy)) return energy_.error();
    if (o.ledger && !ledger_.open(*o.ledger)) return ledger_.error();
    if (ledger_.isOpen()) ledger_.text(kLedgerHeader);
    if (traj_.isOpen()) {
      std::string h = "t";
      for (int i = 0; i < bodies_; ++i) {
        const auto s = std::to_string(i);
        h += ",x" + s + ",y" + s + ",z" + s;
      }
      traj_.text((h + "\n").c_str());
    }
    if (energy_.isOpen()) energy_.text("t,kinetic,potential,total\n");
    return std::nullopt;
  }
  bool any() const { return traj_.isOpen() || energy_.isOpen() || ledger_.isOpen(); }
  // The energy ledger's row (docs/integrators.md#the-energy-ledger), lane 0: run's only lane.
  void writeLedger(double t, const lab::Lane::Ledger& l) {
    if (!ledger_.isOpen()) return;
    ledger_.number(t);
    ledger_.text(",0");
    for (double v : {l.total, l.dissipated, l.contacts, l.external, l.residual}) ledger_.number(v);
    ledger_.endRow();
  }
  void write(double t, const Eigen::VectorXd& positions, const sim::Energy& e) {
    if (traj_.isOpen()) {
      traj_.number(t);
      for (Eigen::Index j = 0; j < positions.size(); ++j) traj_.number(positions[j]);
      traj_.endRow();
    }
    if (energy_.isOpen()) {
      for (double v : {t, e.kinetic, e.potential, e.total()}) energy_.number(v);
      energy_.endRow();
    }
  }
  // Renames the files into place; returns the problem or nothing.
  std::optional<std::string> commit() {
    if (traj_.commit() && energy_.commit() && ledger_.commit()) return std::nullopt;
    for (const CsvFile* f : {&traj_, &energy_, &ledger_})
      if (!f->error().empty()) return f->error();
    return std::nullopt;
  }

 private:
  int bodies_;
  CsvFile traj_, energy_, ledger_;
};

struct RunOutcome {
  std::optional<sim::Divergence> diverged;  // a non-finite step: exit status 3
  std::optional<sim::Divergence> runaway;   // the runaway rule fired: a warning only
  bool interrupted = false;
  long long last_step = 0;            // the last step made
  double last_t = 0.0;                // s, its time
  sim::Energy e0, e1;                 // J, at the start and at the last step made
  double wall = 0.0;                  // s
  lab::Lane::WorstResidual residual;  // the largest of the run (NaN: no iterative method)
};

// Steps the scene's lane (lab::ScheduledLane: its events and clock), writing the rows due and
// checking the runaway rule on each of them, on the last step, and at least kRunawayChecks times
// over the run when few rows are written (a check costs about one step); stops at a non-finite
// step or at Ctrl+C / SIGTERM.
class RunLoop {
 public:
  RunLoop(const scene::Built& built, const RunPlan& plan, const RunOptions& o, RowWriter& rows)
      : lane_(built, built.state, plan.def.integrator, plan.def.dt, o.events, plan.def.duration),
        every_(o.every),
        rows_(rows),
        progress_(Progress::forStderr("springlab run", "steps", plan.steps)),
        check_every_(runawayCheckSpacing(plan.steps, plan.def.integrator, built.counts())) {}

  RunOutcome run() {
    const auto start = std::chrono::steady_clock::now();
    out_.e0 = energy();
    record();
    std::optional<StopOnSignal> stop(std::in_place);  // Ctrl+C: the files keep the rows so far
    while (!StopOnSignal::requested()) {
      lane_.applyDueEvents();  // a dt event moves the last step
      if (lane_.step() >= lane_.lastStep()) break;
      if (!lane_.advance()) {
        out_.diverged = lane_.lane().divergence();
        break;
      }
      const long long k = lane_.step();
      if ((rows_.any() && k % every_ == 0) || k == lane_.lastStep())
        record();
      else if (k % check_every_ == 0)
        checkRunaway(energy());
      progress_.update(k, lane_.state().t);
    }
    out_.last_step = lane_.step();
    out_.last_t = lane_.state().t;
    out_.interrupted =
        StopOnSignal::requested() && !out_.diverged && lane_.step() < lane_.lastStep();
    // the files end with the last step made
    if ((out_.diverged || out_.interrupted) && last_recorded_ != lane_.step()) record();
    stop.reset();
    progress_.finish(out_.last_step, out_.last_t);
    out_.e1 = energy();
    out_.residual = lane_.lane().worstResidual();
    out_.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out_;
  }

 private:
  sim::Energy energy() const { return lane_.system().energy(lane_.state()); }

  // The current step's row, written to the files, and the runaway rule on it.
  void record() {
    const sim::Energy e = energy();
    lane_.system().positions(lane_.state(), positions_);
    rows_.write(lane_.state().t, positions_, e);
    rows_.writeLedger(lane_.state().t, lane_.lane().ledger());
    last_recorded_ = lane_.step();
    checkRunaway(e, false);
  }

  // The runaway rule on the current state (positions_ already hold it unless `needPositions`),
  // reported once; a warning only: `run` goes on (docs/cli.md#run).
  void checkRunaway(const sim::Energy& e, bool needPositions = true) {
    if (out_.runaway) return;
    if (needPositions) lane_.system().positions(lane_.state(), positions_);
    const lab::Lane& l = lane_.lane();
    out_.runaway =
        lane_.system().runaway(l.scales(), l.e0(), e.total(), positions_, l.state().t, l.method());
    if (!out_.runaway) return;
    progress_.clear();
    std::fprintf(stderr, "springlab run: warning: %s at t = %.10g s\n", out_.runaway->what.c_str(),
                 out_.runaway->t);
  }

  lab::ScheduledLane lane_;
  long long every_;
  RowWriter& rows_;
  Progress progress_;
  Eigen::VectorXd positions_;
  long long check_every_;
  long long last_recorded_ = -1;
  RunOutcome out_;
};

// The summary for people (docs/cli.md, run): scene, system, integrator, energy drift, the
// largest residual of an iterative method, warning, wall time.
void printSummary(const RunOptions& o, const RunPlan& plan, const scene::Built& built,
                  const RunOutcome& r) {
  const scene::SceneDef& def = plan.def;
  std::printf("scene       %s\n", def.name.empty() ? o.scene.c_str() : def.name.c_str());
  std::printf("system      %s\n", built.summary().c_str());
  std::printf("integrator  %s, dt = %g s, %lld steps, t = %g s\n",
              std::string(sim::info(def.integrator).name).c_str(), def.dt, r.last_step, r.last_t);
  if (!o.events.empty())
    std::printf("events      %zu (--at): the integrator and dt above are the starting ones\n",
                o.events.size());
  const sim::SceneScales scales = built.scales();
  const double e0 = r.e0.total(), e1 = r.e1.total();
  const double drift = sim::energyDrift(e0, e1, scales);
  if (sim::driftIsRelative(e0, scales))
    std::printf("energy      E0 = %.9g J, E = %.9g J, (E - E0)/|E0| = %.3e\n", e0, e1, drift);
  else  // E0 ~ 0 (a rope released at pivot height): relative to the scene's energy scale
    std::printf(
        "energy      E0 = %.9g J, E = %.9g J, (E - E0)/S = %.3e (S = %.4g J: the scene's "
        "energy scale, as E0 is about 0)\n",
        e0, e1, drift, scales.energy);
  if (!std::isnan(r.residual.value)) {  // contract §3's spelling, the method's own measure
    const std::string by = r.residual.method == def.integrator
                               ? std::string()
                               : " (" + std::string(sim::info(r.residual.method).name) + ")";
    std::printf("residual  max %s = %.3e%s\n",
                std::string(sim::info(r.residual.method).residual).c_str(), r.residual.value,
                by.c_str());
  }
  if (r.runaway)
    std::printf("warning     %s at t = %.10g s\n", r.runaway->what.c_str(), r.runaway->t);
  std::printf("wall time   %.3f s (%.2f us per step)\n", r.wall,
              r.last_step ? 1e6 * r.wall / static_cast<double>(r.last_step) : 0.0);
}

}  // namespace

namespace {
std::optional<std::string> parseRunOptionsText(const Args& args, RunOptions& o) {
  SplitArgs split;
  if (auto problem = splitArgs(args, runOptions(), split)) return problem;
  for (const auto& given : split.options)
    if (auto problem = setRunOption(*given.spec, given.value, o)) return problem;
  if (auto problem = takeScene(split, o.scene)) return problem;
  const int toStdout =
      (o.out && *o.out == "-") + (o.energy && *o.energy == "-") + (o.ledger && *o.ledger == "-");
  if (toStdout > 1) return "at most one of --out, --energy and --ledger can be - (standard output)";
  return std::nullopt;
}
}  // namespace

// The problem in one line (util/one_line.hpp): the text may hold a line break
std::optional<std::string> parseRunOptions(const Args& args, RunOptions& o) {
  auto problem = parseRunOptionsText(args, o);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

int runCommand(const Args& args) {
  RunOptions o;
  if (const auto problem = parseRunOptions(args, o)) return badOption(*problem);
  RunPlan plan;
  if (const int status = planRun(o, plan)) return status;
  const scene::Built built = scene::build(plan.def);
  RowWriter rows(built.bodies());
  if (const auto problem = rows.open(o)) return badOption(*problem);
  if (plan.steps > kLongRunSteps)
    std::fprintf(stderr, "springlab run: %lld steps (duration / dt); this will take a while\n",
                 plan.steps);

  const RunOutcome r = RunLoop(built, plan, o, rows).run();
  if (const auto problem = rows.commit()) return badOption(*problem);
  if (r.diverged) {
    std::fprintf(stderr, "springlab run: %s\n", r.diverged->message().c_str());
    return 3;
  }
  if (r.interrupted) {
    std::fprintf(stderr,
                 "springlab run: interrupted at t = %.6g s; the files hold the rows so far\n",
                 r.last_t);
    return 130;
  }
  const bool stdoutUsed =
      (o.out && *o.out == "-") || (o.energy && *o.energy == "-") || (o.ledger && *o.ledger == "-");
  if (!stdoutUsed) printSummary(o, plan, built, r);
  return 0;
}

}  // namespace cli
