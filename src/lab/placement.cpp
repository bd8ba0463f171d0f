#include "lab/placement.hpp"

#include <cmath>
#include <numbers>

#include "sim/pendulum.hpp"

namespace lab {

namespace {
// A bob's link turned to point at the target from the joint above it (the pivot or the bob
// before), its length unchanged: phi measured from the downward vertical, as
// sim::pendulumPositions places the bobs (x += L (sin phi, -cos phi, 0)).
void placeBob(const sim::PendulumModel& m, sim::State& s, int bob, const sim::Vec3& target) {
  Eigen::VectorXd positions;
  sim::pendulumPositions(m, s.x, positions);
  const sim::Vec3 joint = bob == 0 ? m.pivot : sim::Vec3(positions.segment<3>(3 * (bob - 1)));
  const sim::Vec3 d = target - joint;
  if (d.x() == 0.0 && d.y() == 0.0) return;  // at the joint itself: no direction, keep the angle
  s.x[bob] = std::atan2(d.x(), -d.y());
}
}  // namespace

std::optional<std::string> placeBody(const sim::System& system, sim::State& s, int body,
                                     const sim::Vec3& target) {
  if (body < 0 || body >= system.bodies())
    return "body " + std::to_string(body) + ": no such particle or bob";
  if (!target.allFinite()) return "place " + system.bodyName(body) + ": not a finite point";
  if (const sim::PendulumModel* m = system.pendulum()) {
    placeBob(*m, s, body, target);
  } else if (const sim::MassSpringModel* m = system.massSpring()) {
    const int coordinates = m->dim == 2 ? 2 : 3;  // a planar scene's z stays exactly 0
    s.x.segment(3 * body, coordinates) = target.head(coordinates);
  }
  s.v.setZero();
  return std::nullopt;
}

double linkAngleDegrees(const sim::System& system, const sim::State& s, int link) {
  if (!system.pendulum() || link < 0 || link >= s.x.size()) return NAN;
  return s.x[link] * 180.0 / std::numbers::pi;
}

}  // namespace lab
