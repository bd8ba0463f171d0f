#include "lab/potential_zero.hpp"

#include <limits>

#include "lab/equilibrium.hpp"

namespace lab {

namespace {

// The equilibrium without the mouse spring: on a copy where a grab holds the system.
Equilibrium ungrabbedEquilibrium(const sim::System& system, const sim::State& from) {
  if (system.grabbed() < 0) return staticEquilibrium(system, from);
  sim::System free = system;
  free.setGrab(-1, sim::Vec3::Zero(), 0.0);
  return staticEquilibrium(free, from);
}

// The moving body lowest along gravity at `rest` (largest g . x), or nothing.
std::optional<sim::Vec3> lowestBody(const sim::System& system, const sim::State& rest) {
  Eigen::VectorXd x;
  system.positions(rest, x);
  const sim::Vec3 g = system.gravity();
  std::optional<sim::Vec3> lowest;
  double depth = -std::numeric_limits<double>::infinity();
  for (int b = 0; b < system.bodies(); ++b) {
    const sim::Vec3 p = x.segment<3>(3 * b);
    if (system.bodyMoves(b) && g.dot(p) > depth) depth = g.dot(p), lowest = p;
  }
  return lowest;
}

}  // namespace

ZeroReference zeroReference(const sim::System& system, const sim::State& from, PotentialZero zero) {
  ZeroReference ref;
  if (zero == PotentialZero::Origin) return ref;
  if (system.gravity().isZero()) {
    ref.note = "origin: no gravity";
    return ref;
  }
  Equilibrium e = ungrabbedEquilibrium(system, from);
  if (!e.state) {
    ref.note = "origin: no equilibrium (" + e.why + ")";
    return ref;
  }
  if (zero == PotentialZero::Equilibrium) {
    ref.rest = std::move(e.state);
  } else {
    ref.line = lowestBody(system, *e.state);
    if (!ref.line) ref.note = "origin: no moving body";
  }
  return ref;
}

double gravityAtZero(const sim::System& system, const ZeroReference& ref) {
  if (ref.rest) return system.energy(*ref.rest).gravitational;
  if (ref.line) return -system.movingMass() * system.gravity().dot(*ref.line);
  return 0.0;
}

}  // namespace lab
