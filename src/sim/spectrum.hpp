// The stability facts of a system (docs/integrators.md#stability-limits): the highest angular
// frequency omega_max of its linearised undamped oscillation, and each integrator's step limit.
#pragma once

#include <optional>

#include "sim/system.hpp"

namespace sim {

// omega_max (rad/s): the square root of the largest eigenvalue of M^-1 K over the free
// coordinates at state s, K the Hessian of the potential (springs, their geometric term
// included; gravity). Matrix-free Lanczos in the M inner product: O(N) per iteration, never a
// dense matrix. 0 when no eigenvalue is positive (nothing oscillates).
double omegaMax(const System& system, const State& s);

// The step limit on undamped oscillation: symplectic_euler and verlet 2/omega, rk4 2 sqrt(2)/omega,
// euler 0 (unstable at every dt without damping); nothing for the implicit ones (stable at every
// dt). Infinite when omega is 0.
std::optional<double> dtLimit(Method m, double omegaMax);

}  // namespace sim
