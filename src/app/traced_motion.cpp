#include "app/traced_motion.hpp"

#include <cmath>

namespace app {

double nice125(double x) {
  if (!(x > 0.0) || !std::isfinite(x)) return x;
  const double p = std::pow(10.0, std::floor(std::log10(x)));
  const double m = x / p;  // 1 <= m < 10
  // the nearest of 1, 2, 5 and 10 on a log scale: split at the geometric midpoints
  const double pick = m < std::sqrt(2.0)    ? 1.0
                      : m < std::sqrt(10.0) ? 2.0
                      : m < std::sqrt(50.0) ? 5.0
                                            : 10.0;
  return pick * p;
}

ArrowScales arrowScalesFor(double length) {
  ArrowScales s;
  if (!(length > 0.0) || !std::isfinite(length)) return s;
  const double tau = std::sqrt(length / ArrowScales::kReferenceGravity);
  s.velocity = nice125(tau * ArrowScales::kVelocityOfTau);
  s.acceleration = nice125(tau * tau * ArrowScales::kAccelerationOfTau2);
  return s;
}

namespace {
bool particleState(const sim::System& system, const sim::State& state) {
  return state.x.size() == 3 * static_cast<Eigen::Index>(system.bodies());
}
}  // namespace

int bodyOfCoordinate(const sim::System& system, const sim::State& state, int j) {
  const int body = particleState(system, state) ? j / 3 : j;
  return j >= 0 && body < system.bodies() ? body : -1;
}

sim::Vec3 bodyVelocity(const sim::System& system, const sim::State& state, int body) {
  if (body < 0 || body >= system.bodies()) return sim::Vec3::Zero();
  // a particle's state is its position: its velocity is the state's own
  if (particleState(system, state)) return state.v.segment<3>(3 * body);
  // else the positions' directional derivative, with a step that moves no coordinate more than
  // kStep (its truncation error ~kStep², its rounding ~1e-16 / kStep)
  constexpr double kStep = 1e-6;
  const double speed = state.v.lpNorm<Eigen::Infinity>();
  if (!(speed > 0.0) || !std::isfinite(speed)) return sim::Vec3::Zero();
  const double h = kStep / speed;
  sim::State a = state, b = state;
  a.x += h * state.v, b.x -= h * state.v;
  Eigen::VectorXd pa, pb;
  system.positions(a, pa);
  system.positions(b, pb);
  return (pa.segment<3>(3 * body) - pb.segment<3>(3 * body)) / (2.0 * h);
}

void TracedMotion::record(const lab::LaneGroup& lanes, int body) {
  tracks_.resize(static_cast<size_t>(lanes.size()));
  for (int i = 0; i < lanes.size(); ++i) {
    const lab::Lane& lane = lanes[i];
    Track& tr = tracks_[static_cast<size_t>(i)];
    if (lane.diverged()) continue;
    const double t = lane.state().t;
    const bool same = tr.samples > 0 && tr.body == body;
    if (same && t == tr.t_now) continue;  // it has not moved (a lane with a longer step)
    const sim::Vec3 v = bodyVelocity(lane.system(), lane.state(), body);
    if (same && t > tr.t_now)
      tr.t_before = tr.t_now, tr.v_before = tr.v_now, tr.samples = 2;
    else
      tr.samples = 1;  // the first, a jump back or another body: afresh
    tr.body = body, tr.t_now = t, tr.v_now = v;
  }
}

BodyMotion TracedMotion::motion(const lab::Lane& lane, int index, int body) const {
  BodyMotion m;
  const sim::System& system = lane.system();
  if (body < 0 || body >= system.bodies() || !system.bodyMoves(body)) return m;
  const sim::State& s = lane.shownState();
  m.valid = true;
  m.velocity = bodyVelocity(system, s, body);
  if (index < 0 || index >= static_cast<int>(tracks_.size())) return m;
  const Track& tr = tracks_[static_cast<size_t>(index)];
  // only while the track ends at the state shown: a lane reset or sought has moved since
  if (tr.samples == 2 && tr.body == body && tr.t_now == s.t && tr.t_now > tr.t_before) {
    m.has_acceleration = true;
    m.acceleration = (tr.v_now - tr.v_before) / (tr.t_now - tr.t_before);
  }
  return m;
}

}  // namespace app
