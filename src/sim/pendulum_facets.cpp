// The pendulum kind's facets (sim/facets.hpp): it hangs along gravity, a single link's exact
// period, a bob placed by turning its link, its masses and lengths scaled, its joints' angles,
// its editor's facts.
#include <cmath>
#include <numbers>

#include "sim/pendulum_kind.hpp"

namespace sim {

// On a pendulum symplectic_euler and verlet step (phi, phi') with a mass matrix that changes with
// phi and accelerations that depend on phi': neither symplectic there, and verlet first order
// (docs/integrators.md#summary, note 1).
const OnKind& PendulumKind::onMethod(Method m) {
  static constexpr OnKind kFirst{true, 1, false}, kSecondSymplectic{true, 2, true},
      kFourth{true, 4, false}, kNone{};
  switch (m) {
    case Method::Euler:
    case Method::SymplecticEuler:
    case Method::Verlet:
      return kFirst;
    case Method::Rk4:
      return kFourth;
    case Method::ImplicitMidpoint:
      return kSecondSymplectic;
    case Method::ImplicitEuler:  // the solvers of spring networks
    case Method::TimeFe:
    case Method::Xpbd:
    case Method::Projective:
    case Method::Vbd:
      return kNone;
  }
  return kNone;
}

const ParameterOnKind& PendulumKind::onParameter(Parameter p) {
  static constexpr ParameterOnKind kApplies{}, kNoSprings{.absent = "a pendulum has no springs"},
      kNoDrag{.absent = "not modelled for pendulums (use joint_damping)"},
      kNoWind{.absent = "not modelled for pendulums"}, kScalesOmega{.scales_omega = true};
  switch (p) {
    case Parameter::StiffnessScale:
    case Parameter::SpringDamping:
    case Parameter::Substeps:
    case Parameter::Iterations:
      return kNoSprings;
    case Parameter::Drag:
      return kNoDrag;
    case Parameter::Wind:
      return kNoWind;
    case Parameter::Gravity:
      return kScalesOmega;  // a pendulum's restoring torques are linear in |g|
    case Parameter::JointDamping:
      return kApplies;
  }
  return kApplies;
}

std::string_view PendulumKind::scaleAbsent(Scale) {
  return {};  // its masses and its links' lengths
}

Equilibrium PendulumKind::equilibrium(const State& from) const {
  // every link along gravity (planar: its x and y); any angle is at rest without gravity
  Equilibrium e;
  const double gx = model.gravity.x(), gy = model.gravity.y();
  if (gx == 0.0 && gy == 0.0) return e.why = "no gravity in its plane: it rests at any angle", e;
  State s = from;
  s.x.setConstant(std::atan2(gx, -gy));  // phi from the downward vertical, as pendulumPositions
  s.v.setZero();
  e.state = s;
  return e;
}

std::optional<double> PendulumKind::theoryPeriod(const State& s) const {
  const PendulumModel& p = model;
  if (p.links() != 1 || p.joint_damping != 0.0 || p.grab >= 0) return std::nullopt;
  const double g = std::hypot(p.gravity.x(), p.gravity.y());  // a planar pendulum's
  if (!(g > 0.0)) return std::nullopt;
  // the angle from the equilibrium (straight along gravity), in (-pi, pi]
  const double rest = std::atan2(p.gravity.x(), -p.gravity.y());
  const double theta = std::remainder(s.x[0] - rest, 2.0 * std::numbers::pi);
  const double L = p.length[0], w = s.v[0];
  // energy: the amplitude theta0 at which the bob is at rest
  const double cosAmplitude = std::cos(theta) - L * w * w / (2.0 * g);
  if (!(cosAmplitude > -1.0)) return std::nullopt;  // over the top: it rotates
  return pendulumPeriod(L, g, std::acos(std::min(1.0, cosAmplitude)));
}

// A bob's link turned to point at the target from the joint above it (the pivot or the bob
// before), its length unchanged: phi measured from the downward vertical, as
// sim::pendulumPositions places the bobs (x += L (sin phi, -cos phi, 0)). The bobs below move
// along; their links keep their absolute angles.
void PendulumKind::place(State& s, int bob, const Vec3& target) const {
  Eigen::VectorXd at;
  pendulumPositions(model, s.x, at);
  const Vec3 joint = bob == 0 ? model.pivot : Vec3(at.segment<3>(3 * (bob - 1)));
  const Vec3 d = target - joint;
  if (d.x() == 0.0 && d.y() == 0.0) return;  // at the joint itself: no direction, keep the angle
  s.x[bob] = std::atan2(d.x(), -d.y());
}

std::optional<std::string> PendulumKind::scale(Scale which, double f) {
  switch (which) {
    case Scale::Mass:
      model.mass *= f;
      return std::nullopt;
    case Scale::Length:
      model.length *= f;
      return std::nullopt;
  }
  return "unknown scale";
}

std::vector<JointAngle> PendulumKind::jointAngles(const State& s) const {
  // link i hangs from its upper joint, point i of the skeleton (point 0 the pivot)
  std::vector<JointAngle> out;
  for (Eigen::Index i = 0; i < s.x.size(); ++i) out.push_back({static_cast<int>(i), s.x[i]});
  return out;
}

EditFacts PendulumKind::editFacts(const State& s, const std::vector<int>& selection) const {
  EditFacts e{.layout = BodyLayout::Chain, .links = model.links()};
  if (selection.empty()) return e;
  const int link = e.body = selection.front();
  e.length = model.length[link], e.mass = model.mass[link];
  e.angle = s.x[link];
  return e;
}

}  // namespace sim
