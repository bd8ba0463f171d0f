// springlab compare (docs/cli.md#compare): one scene, 2 to 8 lanes from one initial state, lane 0
// setting the clock. Each lane is a lab::ScheduledLane on its own copy of the system, the same
// class `run` steps through, so a lane's states are bit-identical to `run`'s.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "cli/csv.hpp"
#include "cli/progress.hpp"
#include "cli/stop_signal.hpp"
#include "lab/lane_spec.hpp"
#include "lab/scheduled_lane.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "util/one_line.hpp"

namespace cli {

namespace {

struct CompareOptions {
  std::string scene, lanes;
  std::optional<double> dt, duration;  // s
  long long every = 1;
  std::optional<std::string> out, ledger;
  std::vector<lab::Event> events;
};

int badOption(const std::string& what) {
  std::fprintf(stderr, "springlab compare: %s\n", util::oneLine(what).c_str());
  return 2;
}

std::optional<std::string> setCompareOption(const std::string& name, const std::string& value,
                                            CompareOptions& o) {
  double v;
  if (name == "--lanes") {
    o.lanes = value;
  } else if (name == "--dt" || name == "--duration") {
    const bool dt = name == "--dt";
    if (!parseDouble(value, v) || (dt ? !(v > 0) : !(v >= 0)))
      return name + ": must be a finite number " + (dt ? "> 0" : ">= 0") + ", not \"" + value +
             "\"";
    (dt ? o.dt : o.duration) = v;
  } else if (name == "--every") {
    if (!parseWhole(value, o.every) || o.every < 1)
      return "--every: must be a whole number >= 1, not \"" + value + "\"";
  } else if (name == "--out" || name == "--ledger") {
    if (value.empty()) return name + ": missing file name";
    (name == "--out" ? o.out : o.ledger) = value;
  } else if (name == "--at") {
    lab::Event e;
    if (auto bad = lab::parseEvent(value, e)) return "--at: " + *bad;
    o.events.push_back(std::move(e));
  }
  return std::nullopt;
}

std::optional<std::string> parseCompareOptions(const Args& args, CompareOptions& o) {
  SplitArgs split;
  if (auto problem = splitArgs(args, compareOptions(), split)) return problem;
  for (const auto& given : split.options)
    if (auto problem = setCompareOption(std::string(given.spec->name), given.value, o))
      return problem;
  if (auto problem = takeScene(split, o.scene)) return problem;
  if (o.lanes.empty()) return "missing --lanes SPEC,SPEC (integrator names, NAME@DT for a step)";
  if (o.out && o.ledger && *o.out == "-" && *o.ledger == "-")
    return "--out and --ledger cannot both be - (standard output)";
  return std::nullopt;
}

// The scene with --dt and --duration applied, and the lanes resolved.
struct ComparePlan {
  scene::SceneDef def;
  std::vector<lab::LaneSpec> lanes;
};

int planCompare(const CompareOptions& o, ComparePlan& plan) {
  if (!loadSceneOrReport(o.scene, plan.def)) return 2;
  if (o.dt) plan.def.dt = *o.dt;
  if (o.duration) plan.def.duration = *o.duration;
  if (auto bad = lab::parseLaneSpecs(o.lanes, plan.def.kind, plan.lanes))
    return badOption("--lanes: " + *bad);
  if (plan.lanes.size() < static_cast<size_t>(lab::kMinLanes))
    return badOption("--lanes: one lane; compare needs 2 to 8 (springlab run runs one)");
  for (const auto& spec : plan.lanes) {
    const double dt = spec.dt.value_or(plan.def.dt);
    if (auto many = stepsProblem("the duration", plan.def.duration, "dt", dt))
      return badOption("--lanes: lane \"" + spec.text + "\": " + *many);
    if (auto heavy = workProblem(plan.def, plan.def.duration / dt))
      return badOption("--lanes: lane \"" + spec.text + "\": " + *heavy);
    if (auto big = solverProblem(plan.def, spec.method))
      return badOption("--lanes: lane \"" + spec.text + "\": " + *big);
  }
  for (const auto& e : o.events)
    if (auto bad = lab::checkEvent(e, plan.def.kind)) return badOption("--at: " + *bad);
  return 0;
}

// The largest distance between the same body in two states (m).
double largestDistance(const sim::System& system, const sim::State& a, const sim::State& b,
                       Eigen::VectorXd& pa, Eigen::VectorXd& pb) {
  system.positions(a, pa);
  system.positions(b, pb);
  double d = 0.0;
  for (Eigen::Index i = 0; i + 2 < pa.size(); i += 3)
    d = std::max(d, (pa.segment<3>(i) - pb.segment<3>(i)).norm());
  return d;
}

// What each lane did, for the summary.
struct LaneReport {
  std::optional<sim::Divergence> diverged, runaway;
  bool final_written = false;  // the diverged lane's last finite row
  double max_distance = 0.0;   // m, from lane 0 over the written rows
};

// Steps the lanes in lock-step of lane 0's clock and writes the rows due (docs/cli.md#compare).
// A lane's own copy of the scene's system with its set-up (docs/lab.md#parameter-lanes);
// parseLaneSpecs has checked every key and value against the scene's kind.
sim::System laneSystem(const scene::Built& built, const lab::LaneSpec& spec) {
  sim::System system = built;
  lab::applyLaneSettings(spec.settings, system);
  return system;
}

// The events that reach a lane: none of those on a parameter the lane sets itself (its set-up
// is what the lane is about).
std::vector<lab::Event> eventsFor(const lab::LaneSpec& spec, const std::vector<lab::Event>& all) {
  std::vector<lab::Event> out;
  for (const lab::Event& e : all)
    if (e.key != lab::EventKey::Parameter || !spec.sets(e.parameter)) out.push_back(e);
  return out;
}

class CompareLoop {
 public:
  CompareLoop(const scene::Built& built, const ComparePlan& plan, const CompareOptions& o,
              CsvFile& csv, CsvFile& ledger)
      : every_(o.every), csv_(csv), ledger_(ledger), reports_(plan.lanes.size()) {
    for (const auto& spec : plan.lanes)
      lanes_.push_back(std::make_unique<lab::ScheduledLane>(
          laneSystem(built, spec), built.state, spec.method, spec.dt.value_or(plan.def.dt),
          eventsFor(spec, o.events), plan.def.duration));
    const auto& lane0 = *lanes_[0];
    progress_.emplace(Progress::forStderr("springlab compare", "steps", lane0.lastStep()));
    check_every_ = runawayCheckSpacing(lane0.lastStep(), plan.lanes[0].method, built.counts());
  }

  // Returns true when it was interrupted.
  bool run() {
    writeGroup(0.0);
    StopOnSignal stop;
    lab::ScheduledLane& lane0 = *lanes_[0];
    long long k = 0;  // lane 0's clock: its steps, counted on after it diverges
    while (!StopOnSignal::requested()) {
      if (!reports_[0].diverged) lane0.applyDueEvents();  // a dt event moves the last step
      if (k >= lane0.lastStep()) break;
      if (!reports_[0].diverged && !lane0.advance()) noteDivergence(0);
      ++k;
      const bool alive0 = !reports_[0].diverged;
      const double t = alive0 ? lane0.state().t : lane0.timeOfStep(k);
      if (k % every_ == 0 || k == lane0.lastStep())
        writeGroup(t);
      else if (k % check_every_ == 0)
        writeGroup(t, false);  // the runaway rule between rows (--every N)
      progress_->update(k, lane0.timeOfStep(k));
    }
    const bool interrupted = k < lane0.lastStep();
    if (interrupted && k % every_ != 0) writeGroup(lane0.timeOfStep(k));
    progress_->finish(k, lane0.timeOfStep(k));
    return interrupted;
  }

  const std::vector<std::unique_ptr<lab::ScheduledLane>>& lanes() const { return lanes_; }
  const std::vector<LaneReport>& reports() const { return reports_; }

 private:
  void noteDivergence(size_t i) {
    reports_[i].diverged = lanes_[i]->lane().divergence();
    progress_->clear();
    std::fprintf(stderr, "springlab compare: lane %zu: %s\n", i,
                 reports_[i].diverged->message().c_str());
  }

  // Every lane at time t (lane 0's clock), one row each in lane order; a lane that diverged
  // writes its last finite row once, at its own time, then no more. Without `write`, the lanes
  // are brought to t and the runaway rule checked on each, no row written.
  void writeGroup(double t, bool write = true) {
    for (size_t i = 0; i < lanes_.size(); ++i) {
      lab::ScheduledLane& lane = *lanes_[i];
      LaneReport& report = reports_[i];
      if (i > 0 && !report.diverged) {
        // the clock is read after the due events: a dt event moves the nearest step
        for (lane.applyDueEvents(); lane.step() < lane.stepNearest(t); lane.applyDueEvents())
          if (!lane.advance()) {
            noteDivergence(i);
            break;
          }
      }
      if (report.final_written) continue;
      if (!write) {
        checkLane(i);
        continue;
      }
      report.final_written = report.diverged.has_value();
      writeRow(i, report.diverged ? lane.state().t : t);
    }
  }

  void writeRow(size_t i, double t) {
    const lab::ScheduledLane& lane = *lanes_[i];
    const sim::Energy e = lane.system().energy(lane.state());
    const double distance =
        largestDistance(lane.system(), lane.state(), lanes_[0]->state(), pa_, pb_);
    LaneReport& report = reports_[i];
    report.max_distance = std::max(report.max_distance, distance);
    checkRunaway(i, e.total());
    writeLedger(i, t);
    if (!csv_.isOpen()) return;
    csv_.number(t);
    // appended piecewise: GCC 12 warns falsely (-Wrestrict) on chained string concatenation
    std::string fields(",");
    fields.append(std::to_string(i)).append(",").append(sim::info(lane.lane().method()).name);
    csv_.text(fields.c_str());
    for (double v : {lane.lane().dt(), e.kinetic, e.potential, e.total(), distance}) csv_.number(v);
    csv_.endRow();
  }

  void writeLedger(size_t i, double t) {
    if (!ledger_.isOpen()) return;
    const lab::Lane::Ledger l = lanes_[i]->lane().ledger();
    ledger_.number(t);
    // appended piecewise: GCC 12 warns falsely (-Wrestrict) on "," + std::to_string(i) here
    std::string lane(",");
    lane.append(std::to_string(i));
    ledger_.text(lane.c_str());
    for (double v : {l.total, l.dissipated, l.contacts, l.external, l.residual}) ledger_.number(v);
    ledger_.endRow();
  }

  // The runaway rule on lane i's state between written rows.
  void checkLane(size_t i) {
    const lab::ScheduledLane& lane = *lanes_[i];
    largestDistance(lane.system(), lane.state(), lanes_[0]->state(), pa_, pb_);  // fills pa_
    checkRunaway(i, lane.system().energy(lane.state()).total());
  }

  // The runaway rule on a written row (pa_ holds the lane's positions): a warning, as in run.
  void checkRunaway(size_t i, double energy) {
    LaneReport& report = reports_[i];
    if (report.runaway) return;
    const lab::Lane& lane = lanes_[i]->lane();
    report.runaway =
        lane.system().runaway(lane.scales(), lane.e0(), energy, pa_, lane.state().t, lane.method());
    if (!report.runaway) return;
    progress_->clear();
    std::fprintf(stderr, "springlab compare: lane %zu: warning: %s at t = %.10g s\n", i,
                 report.runaway->what.c_str(), report.runaway->t);
  }

  long long every_, check_every_ = 1;
  CsvFile &csv_, &ledger_;
  std::vector<std::unique_ptr<lab::ScheduledLane>> lanes_;
  std::vector<LaneReport> reports_;
  std::optional<Progress> progress_;
  Eigen::VectorXd pa_, pb_;
};

// A lane's name in the summary: its integrator, then its set-up as given ("rk4:mass_scale=4").
std::string laneName(const lab::LaneSpec& spec, sim::Method method) {
  std::string name(sim::info(method).name);
  if (const std::string setup = spec.setup(); !setup.empty()) name += ":" + setup;
  return name;
}

// The table for people: one line per lane, the names' column as wide as the longest.
void printSummary(const scene::SceneDef& def, const scene::Built& built,
                  const std::vector<lab::LaneSpec>& specs, const CompareLoop& loop) {
  constexpr int kNameColumn = 18;  // "implicit_euler" and room
  int width = kNameColumn;
  for (size_t i = 0; i < specs.size(); ++i)
    width = std::max(width,
                     static_cast<int>(laneName(specs[i], loop.lanes()[i]->lane().method()).size()));
  std::printf("scene  %s, %g s\n", def.name.c_str(), def.duration);
  std::printf("lane  %-*s dt (s)       steps     drift        max distance (m)  status\n", width,
              "integrator");
  for (size_t i = 0; i < loop.lanes().size(); ++i) {
    const auto& lane = *loop.lanes()[i];
    const auto& report = loop.reports()[i];
    // a parameter lane's energy is its own system's: its drift from its own start
    const double e0 = lane.system().energy(built.state).total();
    const sim::SceneScales scales = lane.system().scales(built.state);
    const double e = lane.system().energy(lane.state()).total();
    char status[64] = "ok";
    if (report.diverged)
      std::snprintf(status, sizeof status, "diverged at t = %.6g s", report.diverged->t);
    else if (report.runaway)
      std::snprintf(status, sizeof status, "runaway at t = %.6g s", report.runaway->t);
    const std::string name = laneName(specs[i], lane.lane().method());
    std::printf("%-5zu %-*s %-12g %-9lld %-12.3e %-17.6g %s\n", i, width, name.c_str(),
                lane.lane().dt(), lane.step(), sim::energyDrift(e0, e, scales), report.max_distance,
                status);
  }
}

}  // namespace

std::optional<std::string> parseCompareArgs(const Args& args) {
  CompareOptions o;
  auto problem = parseCompareOptions(args, o);
  if (problem) *problem = util::oneLine(*problem);
  return problem;
}

int compareCommand(const Args& args) {
  CompareOptions o;
  if (const auto problem = parseCompareOptions(args, o)) return badOption(*problem);
  ComparePlan plan;
  if (const int status = planCompare(o, plan)) return status;
  const scene::Built built = scene::build(plan.def);
  CsvFile csv, ledger;
  if (o.out) {
    if (!csv.open(*o.out)) return badOption(csv.error());
    csv.text("t,lane,integrator,dt,kinetic,potential,total,distance\n");
  }
  if (o.ledger) {
    if (!ledger.open(*o.ledger)) return badOption(ledger.error());
    ledger.text(kLedgerHeader);
  }
  CompareLoop loop(built, plan, o, csv, ledger);
  const bool interrupted = loop.run();
  if (o.out && !csv.commit()) return badOption(csv.error());
  if (o.ledger && !ledger.commit()) return badOption(ledger.error());
  const bool stdoutUsed = (o.out && *o.out == "-") || (o.ledger && *o.ledger == "-");
  if (!stdoutUsed) printSummary(plan.def, built, plan.lanes, loop);
  bool diverged = false;
  for (const auto& r : loop.reports()) diverged = diverged || r.diverged.has_value();
  if (interrupted) {
    std::fprintf(stderr, "springlab compare: interrupted; the file holds the rows so far\n");
    return 130;
  }
  return diverged ? 3 : 0;
}

}  // namespace cli
