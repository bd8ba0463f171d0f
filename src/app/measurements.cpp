#include "app/measurements.hpp"

#include <cmath>

#include "sim/registry.hpp"
#include "ui/panel.hpp"

namespace app {

Measurements::Measurements(const LoadedScene& scene, const Timeline& timeline)
    : scene_(scene), timeline_(timeline) {}

void Measurements::newSystem() {
  ++systems_;
  lane_omega_.clear();  // another system: the limit lines' frequencies afresh
  scene_length_ = scene_.built().scales().length;
  arrow_scales_ = arrowScalesFor(scene_length_);
}

void Measurements::restart() {
  stopwatch_.clear();
  periods_.assign(static_cast<std::size_t>(timeline_.laneCount()), LanePeriod{});
}

void Measurements::restartPeriods() {
  for (LanePeriod& p : periods_) p = LanePeriod{};
}

void Measurements::addLane() {
  periods_.emplace_back();
}

void Measurements::removeLane(int i) {
  periods_.erase(periods_.begin() + i);
}

void Measurements::afterStep() {
  for (int i = 0; i < timeline_.laneCount(); ++i) {
    const lab::Lane& lane = timeline_.lane(i);
    if (!lane.diverged())
      pushPeriod(periods_[static_cast<std::size_t>(i)], lane.system(), lane.state());
  }
  motion_.record(timeline_.lanes(), tracedBody());
}

void Measurements::pushPeriod(LanePeriod& p, const sim::System& system, const sim::State& s) const {
  const int j = timeline_.phaseCoordinate();
  if (j < 0 || j >= s.x.size()) return;
  if (!p.started) {
    // the theory of the motion from here: the lane's own amplitude, before its integrator's error
    // has changed it (a copy only where there is a theory: a system of one or two bodies)
    p.started = true;
    if (lab::theoryPeriod(system, s)) p.from = s;
  }
  p.meter.push(s.t, s.x[j]);
}

const lab::Equilibrium& Measurements::equilibrium() const {
  // what the equilibrium depends on: the system built (an edit or a load makes another), every
  // parameter and the grab
  const scene::Built& b = scene_.built();
  std::vector<double> key{static_cast<double>(systems_), static_cast<double>(b.grabbed())};
  for (const sim::ParameterInfo& row : sim::parameters()) {
    key.push_back(b.parameter(row.parameter));
    const sim::Vec3 v = b.vectorParameter(row.parameter);
    key.insert(key.end(), {v.x(), v.y(), v.z()});
  }
  if (key != equilibrium_key_) {
    equilibrium_ = lab::staticEquilibrium(b, b.state);
    equilibrium_key_ = std::move(key);
  }
  return equilibrium_;
}

int Measurements::tracedBody() const {
  return bodyOfCoordinate(scene_.built(), timeline_.primary().state(), timeline_.phaseCoordinate());
}

BodyMotion Measurements::tracedMotion(int lane) const {
  if (lane < 0 || lane >= timeline_.laneCount()) return {};
  return motion_.motion(timeline_.lane(lane), lane, tracedBody());
}

Measurements::TracedForces Measurements::tracedForces(int lane) const {
  TracedForces out;
  const int body = tracedBody();
  if (lane < 0 || lane >= timeline_.laneCount() || body < 0) return out;
  const lab::Lane& l = timeline_.lane(lane);
  const sim::System& system = l.system();
  if (body >= system.bodies() || !system.bodyMoves(body)) return out;
  const sim::State& s = l.shownState();
  const double mass = system.editFacts(s, {body}).mass;
  out.scale = nice125(kWeightOfScene * scene_length_ / (mass * ArrowScales::kReferenceGravity));
  if (!(out.scale > 0.0) || !std::isfinite(out.scale)) return {};
  out.forces = system.bodyForces(s, body);
  const BodyMotion m = tracedMotion(lane);
  if (m.has_acceleration)
    for (const sim::BodyForce& f : system.contactForce(s, body, m.acceleration))
      out.forces.push_back(f);
  return out;
}

void Measurements::refreshLaneOmegas() const {
  const int n = timeline_.laneCount();
  const bool due = ++omega_fills_ >= kOmegaRefreshFills || lane_omega_.size() != size_t(n);
  lane_omega_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    LaneOmega& c = lane_omega_[static_cast<size_t>(i)];
    const lab::Lane& lane = timeline_.lane(i);
    const sim::State& s = lane.state();
    if (!due && s.t >= c.t) continue;  // went back (a seek, a restart): at once
    c = {scene_.omegaAt(lane.system(), s), s.t};
  }
  if (due) omega_fills_ = 0;
}

double Measurements::laneOmega(int i) const {
  if (i < 0 || static_cast<size_t>(i) >= lane_omega_.size())
    return scene_.omegaAt(timeline_.primary().state());
  return lane_omega_[static_cast<size_t>(i)].omega;
}

Outcome Measurements::Applier::operator()(const ui::StartStopwatch&) const {
  m.stopwatch_.start(now);
  return Outcome::Applied;
}

Outcome Measurements::Applier::operator()(const ui::StopStopwatch&) const {
  m.stopwatch_.stop(now);
  return Outcome::Applied;
}

Outcome Measurements::Applier::operator()(const ui::ResetStopwatch&) const {
  m.stopwatch_.zero(now);
  return Outcome::Applied;
}

namespace {
// dt over the step limit at omega (0: no limit known)
double overLimit(const lab::Lane& lane, double omega) {
  const auto limit = sim::dtLimit(lane.method(), omega);
  return limit && *limit > 0.0 && std::isfinite(*limit) ? lane.dt() / *limit : 0.0;
}
}  // namespace

void Measurements::fill(ui::MeasureView& v) const {
  refreshLaneOmegas();
  // lane 0's limit at its current state: the line follows the motion (a pendulum stiffens as
  // it moves)
  const auto limit = sim::dtLimit(timeline_.primary().method(), laneOmega(0));
  v.dt_limit = limit && std::isfinite(*limit) ? *limit : 0.0;
  v.lanes.clear();
  for (int i = 0; i < timeline_.laneCount(); ++i) {
    const lab::Lane& lane = timeline_.lane(i);
    ui::LaneMeasure m;
    m.dt_over_limit = overLimit(lane, laneOmega(i));
    // the period readout (docs/lab.md#period): none for a lane that diverged
    const LanePeriod& p = periods_[static_cast<std::size_t>(i)];
    if (!lane.diverged()) {
      if (const auto reading = p.meter.reading())
        m.period = reading->period, m.crossings = reading->crossings;
      // on the system as it is now: a dashpot or a grab since then leaves no theory
      if (const auto theory = p.from ? lab::theoryPeriod(lane.system(), *p.from) : std::nullopt) {
        m.theory_period = *theory;
        if (m.period > 0.0) m.period_error = lab::periodError(m.period, *theory);
      }
    }
    v.lanes.push_back(m);
  }
  v.stopwatch = stopwatch_.elapsed(timeline_.time());
  v.stopwatch_running = stopwatch_.running();
  v.arrow_velocity_scale = arrow_scales_.velocity;
  v.arrow_acceleration_scale = arrow_scales_.acceleration;
}

}  // namespace app
