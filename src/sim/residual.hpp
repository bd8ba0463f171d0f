// The residual an iterative method reports (contract §3, docs/integrators.md#residuals): how far
// its step is from its own converged answer. For the methods that lower the incremental potential
// G of backward Euler (projective, xpbd, backward_euler, vbd) it is ‖∇G‖ over the free
// coordinates divided by the weights, Σ m_i |g| over the free particles plus 1 N: a force
// relative to the force that holds the system up, and 1 N where there is no gravity.
#pragma once

#include <cmath>

#include "sim/model.hpp"

namespace sim {

// N: the weights' floor, so that a weightless system's residual is still relative to a force
inline constexpr double kResidualForceFloor = 1.0;

// Σ m_i |g| over the free particles + kResidualForceFloor (N)
inline double residualWeights(const MassSpringModel& m) {
  double mass = 0.0;
  for (int i = 0, n = m.particles(); i < n; ++i)
    if (!m.fixed(i)) mass += m.mass[i];
  return mass * m.gravity.norm() + kResidualForceFloor;
}

}  // namespace sim
