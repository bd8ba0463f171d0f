// Static colliders (docs/integrators.md#colliders): planes (half-spaces) and solid spheres that
// no particle may enter. A particle that ends a step (or an xpbd sweep) inside one is moved back
// to its surface: onto the plane, or onto the tangent plane where its path entered the sphere, so
// that a particle fast enough to cross the sphere within one step is still stopped at the side it
// came from (no tunnelling at any dt). Its velocity into the surface is removed (no bounce) and its
// sliding velocity reduced by Coulomb friction.
#pragma once

#include <optional>

#include "sim/model.hpp"

namespace sim {

// Where a particle that moved from `from` to `to` must be put so that it is not inside collider
// c, and the surface's outward normal there; nothing when `to` is outside (and the path did not
// cross the sphere). `from` inside the sphere already: pushed out radially.
struct Push {
  Vec3 to;       // the corrected position
  Vec3 normal;   // unit, out of the collider
  double depth;  // m: how far it was moved, along the normal
};
std::optional<Push> pushOut(const Collider& c, const Vec3& from, const Vec3& to);

// Position-level Coulomb friction (Macklin et al. 2014): the sliding part of the motion from
// `from` to push.to (along the surface) taken back, all of it when it is at most friction *
// push.depth (static: the particle holds), else by that much (kinetic). The result stays on the
// surface the push put it on.
Vec3 holdBack(const Vec3& from, const Push& push, double friction);

// The contacts of a whole step of the non-xpbd methods: every free particle's new position
// out.x is pushed out of every collider in order (its path from in.x) and held back by friction
// (holdBack); its velocity out.v loses its part into the surface, v_n, and its tangential part
// shrinks by friction * |v_n| (to 0, not past it): the same friction on both, so that a particle
// held by static friction neither creeps nor slides. Returns whether any particle touched a
// collider.
bool resolveStepContacts(const MassSpringModel& m, const Eigen::VectorXd& from, Eigen::VectorXd& x,
                         Eigen::VectorXd& v);

}  // namespace sim
