// The mass-spring kind's facets (sim/facets.hpp): its equilibrium by relaxation, the period of a
// single particle on a spring, placing a particle, its masses scaled, its editor's facts.
#include <cmath>

#include "sim/mass_spring_kind.hpp"

namespace sim {

namespace {
// Whether anything can hold a spring network against gravity: a fixed particle or a collider.
bool held(const MassSpringModel& m) {
  if (m.gravity.isZero()) return true;
  for (Eigen::Index i = 0; i < m.inv_mass.size(); ++i)
    if (m.inv_mass[i] == 0.0) return true;
  return !m.colliders.empty();
}

// Relative size below which a transverse velocity or gravity counts as none: the motion then
// stays on the spring's line (exactly so, in the steppers, where they are exactly zero).
constexpr double kAxialTolerance = 1e-9;

bool transverse(const Vec3& v, const Vec3& u) {
  return (v - v.dot(u) * u).norm() > kAxialTolerance * v.norm();
}

// The one free particle of a network with one spring to a fixed particle, or -1.
int loneOscillator(const MassSpringModel& m) {
  int free = -1;
  for (int i = 0; i < m.particles(); ++i)
    if (!m.fixed(i)) {
      if (free >= 0) return -1;  // a second free particle
      free = i;
    }
  const int a = m.spring_a[0], b = m.spring_b[0];
  if (free < 0 || (a != free && b != free)) return -1;
  return m.fixed(a == free ? b : a) ? free : -1;
}
}  // namespace

const OnKind& MassSpringKind::onMethod(Method m) {
  static constexpr OnKind kFirst{true, 1, false}, kFirstSymplectic{true, 1, true},
      kSecondSymplectic{true, 2, true}, kFourth{true, 4, false}, kNone{};
  switch (m) {
    case Method::Euler:
    case Method::ImplicitEuler:
    case Method::Xpbd:
    case Method::Projective:
    case Method::Vbd:
      return kFirst;
    case Method::SymplecticEuler:
    case Method::TimeFe:
      return kFirstSymplectic;
    case Method::Verlet:
      return kSecondSymplectic;
    case Method::Rk4:
      return kFourth;
    case Method::ImplicitMidpoint:  // the pendulum's canonical (phi, p) form
      return kNone;
  }
  return kNone;
}

const ParameterOnKind& MassSpringKind::onParameter(Parameter p) {
  static constexpr ParameterOnKind kApplies{}, kScalesOmega{.scales_omega = true},
      kNoJoints{.absent = "only pendulums have joints"};
  switch (p) {
    case Parameter::StiffnessScale:
      return kScalesOmega;  // K is linear in every k
    case Parameter::SpringDamping:
    case Parameter::Substeps:
    case Parameter::Iterations:
    case Parameter::Drag:
    case Parameter::Wind:
    case Parameter::Gravity:
      return kApplies;
    case Parameter::JointDamping:
      return kNoJoints;
  }
  return kApplies;
}

std::string_view MassSpringKind::scaleAbsent(Scale s) {
  switch (s) {
    case Scale::Mass:
      return {};
    case Scale::Length:
      return "a spring network's lengths are its scene's (it applies to a pendulum's links)";
  }
  return {};
}

Equilibrium MassSpringKind::equilibrium(const State& from) const {
  Equilibrium e;
  if (!held(model)) return e.why = "nothing holds it: it falls for ever", e;
  if (model.particles() > kRelaxParticlesMax)
    return e.why = "more than " + std::to_string(kRelaxParticlesMax) + " particles: not sought", e;
  State s = from;
  s.v.setZero();
  const double length = scales(s).length;
  std::unique_ptr<Stepper> relax = stepper(Method::ImplicitEuler, kRelaxStep, s);
  for (e.steps = 1; e.steps <= kRelaxStepsMax; ++e.steps) {
    const Eigen::VectorXd before = relax->state().x;
    if (relax->advance()) return e.why = "the relaxation diverged", e;
    State next = relax->state();
    const double moved = (next.x - before).cwiseAbs().maxCoeff();
    next.v.setZero();
    next.t = from.t;
    relax = stepper(Method::ImplicitEuler, kRelaxStep, next);
    if (moved <= kRelaxSettled * length) return e.state = next, e;
  }
  e.why = "not settled in " + std::to_string(kRelaxStepsMax) + " steps";
  return e;
}

std::optional<double> MassSpringKind::theoryPeriod(const State& s) const {
  const MassSpringModel& m = model;
  if (m.springs() != 1 || m.drag != 0.0 || m.damping[0] != 0.0 || m.grab >= 0 ||
      !m.colliders.empty() || !m.tether_particle.empty())
    return std::nullopt;
  const int free = loneOscillator(m);
  if (free < 0) return std::nullopt;
  const int other = m.spring_a[0] == free ? m.spring_b[0] : m.spring_a[0];
  const double k = m.stiffness[0];
  if (m.rest_length[0] == 0.0) return springPeriod(m.mass[free], k);  // linear in every direction
  const Vec3 d = s.x.segment<3>(3 * free) - s.x.segment<3>(3 * other);
  if (!(d.norm() > 0.0)) return std::nullopt;
  const Vec3 u = d / d.norm();
  if (transverse(s.v.segment<3>(3 * free), u) || transverse(m.gravity, u)) return std::nullopt;
  return springPeriod(m.mass[free], k);
}

void MassSpringKind::place(State& s, int body, const Vec3& target) const {
  const int coordinates = model.dim == 2 ? 2 : 3;  // a planar scene's z stays exactly 0
  s.x.segment(3 * body, coordinates) = target.head(coordinates);
}

std::optional<std::string> MassSpringKind::scale(Scale which, double f) {
  switch (which) {
    case Scale::Mass:  // a fixed particle stays fixed: its mass is 0
      model.mass *= f;
      model.inv_mass /= f;
      ++model.revision;  // the steppers' cached matrices hold the masses
      return std::nullopt;
    case Scale::Length:
      return std::string(scaleAbsent(which));
  }
  return "unknown scale";
}

EditFacts MassSpringKind::editFacts(const State&, const std::vector<int>& selection) const {
  const MassSpringModel& m = model;
  EditFacts e{.layout = BodyLayout::Network, .particles = m.particles(), .springs = m.springs()};
  if (selection.empty()) return e;
  e.body = selection.front();
  e.fixed = m.fixed(e.body), e.mass = m.mass[e.body];
  if (selection.size() != 2) return e;
  const int a = selection[0], b = selection[1];
  for (int i = 0; i < m.springs(); ++i)
    if ((m.spring_a[i] == a && m.spring_b[i] == b) || (m.spring_a[i] == b && m.spring_b[i] == a)) {
      e.spring = i;
      e.stiffness = m.stiffness[i], e.damping = m.damping[i], e.rest_length = m.rest_length[i];
    }
  return e;
}

}  // namespace sim
