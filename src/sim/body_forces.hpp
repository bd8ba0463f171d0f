// The forces on one body, one by one (docs/exploring.md#forces): what the force arrows draw. Each
// kind's own force law split into its terms, so that the terms add up to the body's mass times the
// acceleration the law gives (m a = sum F, tests/test_sim_body_forces.cpp); the layers above draw
// them and never evaluate a force themselves.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/model.hpp"
#include "sim/pendulum.hpp"

namespace sim {

enum class ForceSource : std::uint8_t {
  Gravity,  // m g
  Spring,   // one spring's elastic pull, -k (l - r) u (seed 000 eqs. 3-4)
  Damping,  // one spring's dashpot along it, or a pendulum's joint damping on its bob
  Drag,     // the air's linear drag, -c (v - wind): the wind acts through it
  Rod,      // one rigid rod's tension (a pendulum's link), along the rod
  Grab,     // the mouse spring
  Contact,  // a collider's push (sim::contactForce): not a force law, read off the motion
};
std::string_view forceSourceName(ForceSource s);  // "gravity", "spring", ...

struct BodyForce {
  ForceSource source = ForceSource::Gravity;
  int index = -1;             // the spring's or the rod's (link's) index; -1 for the others
  Vec3 force = Vec3::Zero();  // N
};

// The terms of particle i's force at state s, as sim::totalForce sums them: gravity, each spring
// on it (elastic and dashpot apart, a dashpot only where its damping is not 0), the drag where
// there is drag, the mouse spring on the grabbed one. A fixed particle has none (it does not move).
std::vector<BodyForce> bodyForces(const MassSpringModel& m, const State& s, int particle);

// Bob i's forces at state s: gravity (its x and y: the pendulum moves in its plane), the joint
// damping's pair on it (a torque at a joint of massless rods is a pair of forces across them, the
// form pendulum.cpp enters it in), the mouse spring, and the tensions of its own rod and of the
// rod below it. The tensions are what the rods must pull with for the bobs to move as the
// equations of motion say: m_i a_i = -T_i e_i + T_(i+1) e_(i+1) + F_i (pendulum.cpp), solved from
// the last bob up.
std::vector<BodyForce> bodyForces(const PendulumModel& m, const State& s, int bob);

// The push of the colliders on particle i, read off its motion: m a_observed - (the force law's
// sum), where a_observed is the particle's acceleration over the lane's last move. Contacts are
// resolved by moving the particle out and stopping its motion into the collider
// (docs/integrators.md#colliders), not by a force law, so this is the only way to see their push.
// Only while the particle touches a collider (within kContactReach of the scene's scale of it);
// else nothing.
std::vector<BodyForce> contactForce(const MassSpringModel& m, const State& s, int particle,
                                    const Vec3& observed_acceleration);
inline constexpr double kContactReach = 1e-6;  // m: on the surface, as the contacts leave it

}  // namespace sim
