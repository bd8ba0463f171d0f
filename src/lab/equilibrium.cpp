#include "lab/equilibrium.hpp"

#include <cmath>

#include "lab/lane.hpp"
#include "sim/pendulum.hpp"

namespace lab {

namespace {
// Every link along gravity (planar: its x and y); any angle is at rest without gravity.
Equilibrium hanging(const sim::PendulumModel& m, const sim::State& from) {
  Equilibrium e;
  const double gx = m.gravity.x(), gy = m.gravity.y();
  if (gx == 0.0 && gy == 0.0) return e.why = "no gravity in its plane: it rests at any angle", e;
  sim::State s = from;
  s.x.setConstant(std::atan2(gx, -gy));  // phi from the downward vertical, as pendulumPositions
  s.v.setZero();
  e.state = s;
  return e;
}

// Whether anything can hold a spring network against gravity: a fixed particle or a collider.
bool held(const sim::MassSpringModel& m) {
  if (m.gravity.isZero()) return true;
  for (Eigen::Index i = 0; i < m.inv_mass.size(); ++i)
    if (m.inv_mass[i] == 0.0) return true;
  return !m.colliders.empty();
}

Equilibrium relaxed(const sim::System& system, const sim::MassSpringModel& m,
                    const sim::State& from) {
  Equilibrium e;
  if (!held(m)) return e.why = "nothing holds it: it falls for ever", e;
  if (m.particles() > kRelaxParticlesMax)
    return e.why = "more than " + std::to_string(kRelaxParticlesMax) + " particles: not sought", e;
  sim::State s = from;
  s.v.setZero();
  const double length = system.scales(s).length;
  Lane lane(system, s, sim::Method::ImplicitEuler, kRelaxStep);
  for (e.steps = 1; e.steps <= kRelaxStepsMax; ++e.steps) {
    const Eigen::VectorXd before = lane.state().x;
    if (!lane.step()) return e.why = "the relaxation diverged", e;
    sim::State next = lane.state();
    const double moved = (next.x - before).cwiseAbs().maxCoeff();
    next.v.setZero();
    next.t = from.t;
    lane.restart(next);
    if (moved <= kRelaxSettled * length) return e.state = next, e;
  }
  e.why = "not settled in " + std::to_string(kRelaxStepsMax) + " steps";
  return e;
}
}  // namespace

Equilibrium staticEquilibrium(const sim::System& system, const sim::State& from) {
  if (const sim::PendulumModel* p = system.pendulum()) return hanging(*p, from);
  return relaxed(system, *system.massSpring(), from);
}

}  // namespace lab
