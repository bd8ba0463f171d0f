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
  if (p == Parameter::JointDamping) return model.joint_damping;
  if (p == Parameter::Gravity) return model.gravity.norm();
  return parameterInfo(p).neutral;
}

Vec3 PendulumKind::vector(Parameter p) const {
  return p == Parameter::Gravity ? model.gravity : Vec3::Zero();
}

std::optional<std::string> PendulumKind::setParameter(Parameter p, double value, const Vec3& vec) {
  if (p == Parameter::JointDamping)
    model.joint_damping = value;
  else if (p == Parameter::Gravity)
    model.gravity = vec;
  else
    return *notApplicable(p, kKind);  // the table says so first
  return std::nullopt;
}

// The pivot (point 0, fixed) and the bobs, joined by rigid rods; a trail on the last bob, which
// traces the chaos; the reach a camera frames: the circle of the whole chain's length.
Skeleton PendulumKind::skeleton(const State&, bool) const {
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
  k.reach_centre = model.pivot;
  k.reach_half = Vec3(total, total, 0.0);
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
