#include "sim/pendulum_kind.hpp"

#include <algorithm>
#include <cmath>

#include "sim/spectrum.hpp"

namespace sim {

namespace {
// A bob's radius: a fraction of the shortest rod (two bobs never overlap) and of the whole chain
// (a short rod in a long chain does not get a huge bob); scaled by the cube root of the bob's
// mass relative to the heaviest (a sphere's size for a given density).
constexpr double kBobOfShortestRod = 0.3, kBobOfChain = 0.06;
constexpr double kPivotOfBob = 0.4;  // the pivot: a smaller dot than the bobs
// halvings of the search for the highest height a bob's energy allows (2^-24 of its reach)
constexpr int kReachHalvings = 24;

// The least potential (over g, kg m) of the chain with bob i at height h above the pivot: the
// bobs above i hang from the pivot or from bob i, whichever holds them higher; those below it
// hang straight down from it. `reach`: cumulative rod lengths, bob by bob.
double leastPotential(const PendulumModel& m, const Eigen::VectorXd& reach, int i, double h) {
  double v = 0.0;
  for (int j = 0; j < m.links(); ++j) {
    const double hj =
        j < i ? std::max(-reach[j], h - (reach[i] - reach[j])) : h - (reach[j] - reach[i]);
    v += m.mass[j] * hj;
  }
  return v;
}

// The box a pendulum can reach with the energy it has (conserved, or lost to joint damping): bob
// i rises no higher than the height at which the chain, at rest and hanging as low as it can
// with bob i there, would hold all of its energy, and no higher than its chain's length allows;
// sideways it reaches its chain's length where it may rise to the pivot, less below. A hanging
// chain swinging gently is framed on the bottom of its circle, a chain released from the
// horizontal on the circle's lower part and what its whip can throw above. Without gravity, or
// at a state that is not finite, the whole circle.
void energyReach(const PendulumModel& m, const State& s, Skeleton& k) {
  const int n = m.links();
  Eigen::VectorXd reach(n);
  double total = 0.0;
  for (int i = 0; i < n; ++i) reach[i] = total += m.length[i];
  const Vec3 g(m.gravity.x(), m.gravity.y(), 0.0);  // a planar pendulum feels only these
  const double gn = g.norm();
  k.reach_centre = m.pivot, k.reach_half = Vec3(total, total, 0.0);
  Eigen::VectorXd x;
  pendulumPositions(m, s.x, x);
  const Energy e = energy(m, s);
  if (!(gn > 0.0) || !x.allFinite() || !std::isfinite(e.kinetic)) return;
  const Vec3 up = -g / gn, side(-up.y(), up.x(), 0.0);
  double budget = e.kinetic / gn;  // the energy over g: mass-weighted heights (kg m)
  for (int i = 0; i < n; ++i) budget += m.mass[i] * up.dot(x.segment<3>(3 * i) - m.pivot);
  double top = -total, half = 0.0;
  for (int i = 0; i < n; ++i) {
    double lo = -reach[i], hi = reach[i];
    if (leastPotential(m, reach, i, hi) > budget)
      for (int it = 0; it < kReachHalvings; ++it) {
        const double mid = 0.5 * (lo + hi);
        (leastPotential(m, reach, i, mid) <= budget ? lo : hi) = mid;
      }
    else
      lo = hi;
    top = std::max(top, lo);
    half = std::max(half, lo >= 0.0 ? reach[i] : std::sqrt(reach[i] * reach[i] - lo * lo));
  }
  top = std::max(top, 0.0);  // the pivot is always in view
  const Vec3 lowCentre = m.pivot + 0.5 * (top - total) * up;
  k.reach_centre = lowCentre;
  const Vec3 halfUp = 0.5 * (top + total) * up, halfSide = half * side;
  k.reach_half = Vec3(std::abs(halfUp.x()) + std::abs(halfSide.x()),
                      std::abs(halfUp.y()) + std::abs(halfSide.y()), 0.0);
}
}  // namespace

std::string PendulumKind::coordinateName(int j) const {
  return std::string("phi").append(std::to_string(j));
}

void PendulumKind::positions(const State& s, Eigen::VectorXd& out) const {
  pendulumPositions(model, s.x, out);
}

Energy PendulumKind::energy(const State& s) const {
  return sim::energy(model, s);
}

SceneScales PendulumKind::scales(const State& s) const {
  return sceneScales(model, s);
}

std::unique_ptr<Stepper> PendulumKind::stepper(Method m, double h, const State& from) const {
  return std::make_unique<Stepper>(model, from, m, h);
}

double PendulumKind::omegaMax(const State& s) const {
  return sim::omegaMax(model, s);
}

void PendulumKind::forcePass(const State& s, Eigen::VectorXd& out) const {
  PendulumWork work;
  pendulumAcceleration(model, s.x, s.v, out, work);
}

// rigid rods cannot tear: the energy and distance rule alone
std::optional<Divergence> PendulumKind::runaway(const SceneScales& scales, double e0, double e,
                                                const Eigen::VectorXd& positions, double t,
                                                Method m) const {
  return checkRunaway(scales, e0, e, positions, t, m, kBodyNoun);
}

void PendulumKind::setGrab(int body, const Vec3& target, double stiffness) {
  model.grab = body, model.grab_target = target, model.grab_stiffness = stiffness;
}

double PendulumKind::parameter(Parameter p) const {
  switch (p) {
    case Parameter::JointDamping:
      return model.joint_damping;
    case Parameter::Gravity:
      return model.gravity.norm();
    case Parameter::StiffnessScale:  // what a pendulum does not have (onParameter)
    case Parameter::SpringDamping:
    case Parameter::Substeps:
    case Parameter::Iterations:
    case Parameter::Drag:
    case Parameter::Wind:
      break;
  }
  return parameterInfo(p).neutral;
}

Vec3 PendulumKind::vector(Parameter p) const {
  return p == Parameter::Gravity ? model.gravity : Vec3::Zero();
}

std::optional<std::string> PendulumKind::setParameter(Parameter p, double value, const Vec3& vec) {
  switch (p) {
    case Parameter::JointDamping:
      model.joint_damping = value;
      return std::nullopt;
    case Parameter::Gravity:
      model.gravity = vec;
      return std::nullopt;
    case Parameter::StiffnessScale:
    case Parameter::SpringDamping:
    case Parameter::Substeps:
    case Parameter::Iterations:
    case Parameter::Drag:
    case Parameter::Wind:
      break;
  }
  return *notApplicable(p, kKind);  // the table says so first
}

// The pivot (point 0, fixed) and the bobs, joined by rigid rods; a trail on the last bob, which
// traces the chaos; the reach a camera frames: what the chain can reach with the energy it has
// at `initial` (energyReach).
Skeleton PendulumKind::skeleton(const State& initial, bool) const {
  Skeleton k;
  const int n = model.links();
  const double shortest = model.length.minCoeff(), heaviest = model.mass.maxCoeff();
  const double total = model.length.sum();
  const double base = std::min(kBobOfShortestRod * shortest, kBobOfChain * total);
  k.size = total;
  k.radius.push_back(kPivotOfBob * base);
  k.fixed.push_back(1);
  for (int i = 0; i < n; ++i) {
    k.radius.push_back(base * std::cbrt(model.mass[i] / heaviest));
    k.fixed.push_back(0);
    k.lines.push_back(i), k.lines.push_back(i + 1);
    k.rest.push_back(0.0);
    k.rigid.push_back(1);
  }
  k.trail_bodies.push_back(n - 1);
  k.has_reach = true;
  energyReach(model, initial, k);
  return k;
}

void PendulumKind::pointPositions(const State& s, std::vector<float>& out,
                                  Eigen::VectorXd& scratch) const {
  pendulumPositions(model, s.x, scratch);
  out.resize(3 + scratch.size());
  for (int c = 0; c < 3; ++c) out[c] = static_cast<float>(model.pivot[c]);
  for (Eigen::Index j = 0; j < scratch.size(); ++j) out[3 + j] = static_cast<float>(scratch[j]);
}

}  // namespace sim
