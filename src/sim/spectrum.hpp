// The stability facts of a system (docs/integrators.md#stability-limits): the highest angular
// frequency omega_max of its linearised undamped oscillation. Each integrator's step limit from it
// is the registry's (sim::dtLimit); a System answers omegaMax for its kind.
#pragma once

#include "sim/model.hpp"
#include "sim/pendulum.hpp"

namespace sim {

// omega_max (rad/s): the square root of the largest eigenvalue of M^-1 K over the free
// coordinates at state s, K the Hessian of the potential (springs, their geometric term
// included; gravity). Matrix-free Lanczos in the M inner product: O(N) per iteration, never a
// dense matrix. 0 when no eigenvalue is positive (nothing oscillates).
double omegaMax(const MassSpringModel& m, const State& s);
double omegaMax(const PendulumModel& m, const State& s);

}  // namespace sim
