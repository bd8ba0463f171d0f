#include "lab/potential_zero.hpp"

#include <limits>
#include <string>

#include "lab/equilibrium.hpp"

namespace lab {

namespace {

// A floor is level when its normal is within about 2.6 degrees of straight up (cos 2.6 deg).
constexpr double kLevel = 0.999;

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

// A large system's lowest point without relaxing it: the highest level floor (a plane collider
// facing up) under its moving bodies at `from`, else its lowest moving body there.
std::optional<sim::Vec3> floorUnder(const sim::System& system, const sim::State& from) {
  std::optional<sim::Vec3> lowest = lowestBody(system, from);
  if (!lowest) return lowest;
  const sim::Vec3 down = system.gravity().normalized();
  std::optional<sim::Vec3> floor;
  for (const sim::Collider& c : system.skeleton(from, false).colliders) {
    const bool level = c.shape == sim::Collider::Shape::Plane && -c.normal.dot(down) > kLevel;
    const bool under = down.dot(c.point) >= down.dot(*lowest);
    if (level && under && (!floor || down.dot(c.point) < down.dot(*floor))) floor = c.point;
  }
  return floor ? floor : lowest;
}

}  // namespace

ZeroReference zeroReference(const sim::System& system, const sim::State& from, PotentialZero zero) {
  ZeroReference ref;
  if (zero == PotentialZero::Origin) return ref;
  if (system.gravity().isZero()) {
    ref.note = "origin: no gravity";
    return ref;
  }
  const bool seek = system.bodies() <= (zero == PotentialZero::Lowest ? kLowestFromEquilibriumMax
                                                                      : kEquilibriumZeroMax);
  Equilibrium e;
  if (seek) e = ungrabbedEquilibrium(system, from);
  if (zero == PotentialZero::Equilibrium) {
    if (e.state)
      ref.rest = std::move(e.state);
    else if (seek)
      ref.note = "origin: no equilibrium (" + e.why + ")";
    else
      ref.note = "origin: more than " + std::to_string(kEquilibriumZeroMax) +
                 " bodies, the equilibrium is not sought";
    return ref;
  }
  ref.line = e.state ? lowestBody(system, *e.state) : floorUnder(system, from);
  if (!ref.line) ref.note = "origin: no moving body";
  return ref;
}

double gravityAtZero(const sim::System& system, const ZeroReference& ref) {
  if (ref.rest) return system.energy(*ref.rest).gravitational;
  if (ref.line) return -system.movingMass() * system.gravity().dot(*ref.line);
  return 0.0;
}

}  // namespace lab
