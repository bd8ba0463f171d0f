// The stability facts of a system (docs/integrators.md#stability-limits): the highest angular
// frequency of its linearised undamped oscillation at a state (omegaMax), the local frequency of a
// moving state (localOmega: a pendulum stiffens with its velocities) and the largest local
// frequency over the scene's motion (motionSpectrum). Each integrator's step limit from them is
// the registry's (sim::dtLimit); a System answers omegaMax for its kind.
#pragma once

#include <limits>
#include <optional>
#include <string>

#include "sim/model.hpp"
#include "sim/pendulum.hpp"
#include "sim/registry.hpp"

namespace sim {

// omega_max (rad/s): the square root of the largest eigenvalue of M^-1 K over the free
// coordinates at state s, K the Hessian of the potential (springs, their geometric term
// included; gravity). Matrix-free Lanczos in the M inner product: O(N) per iteration, never a
// dense matrix. 0 when no eigenvalue is positive (nothing oscillates).
double omegaMax(const MassSpringModel& m, const State& s);
double omegaMax(const PendulumModel& m, const State& s);

// The local frequency of a pendulum's state (rad/s): the largest |lambda| of the Jacobian of its
// first-order vector field (phi, phi') -> (phi', phi''), by Arnoldi on central differences of the
// O(N) forward dynamics. It includes every force that stiffens with the state: the rods' tension
// from the velocities (through phi'' and its phi' terms), gravity, joint damping, a grab. At rest
// with no damping it is omegaMax (the eigenvalues are +-i omega).
double localOmega(const PendulumModel& m, const State& s);

class System;  // sim/system.hpp

// The local frequency of any system's state: a pendulum's as above; a mass-spring system's is
// omegaMax at that state (the Hessian's geometric term follows the springs' stretch; nothing in a
// spring network stiffens with velocity).
double localOmega(const System& sys, const State& s);
// Whether localOmega is cheap enough for the window to recompute a few times a second (a
// pendulum, a small spring network); otherwise it scales the load-time value.
bool localOmegaIsCheap(const System& sys);

// omega_max over a scene's motion (docs/integrators.md#stability-limits): the largest local
// frequency over the initial state and the states of a reference run of rk4 whose step follows
// the motion (h omega <= a tenth of rk4's bound) over `seconds`, counted at the level it holds
// for a quarter of its period (a shorter spike falls between two steps of a method at its limit),
// and never below omegaMax at the initial state. Its cost is bounded: the run stops early (and
// says so) when its steps or samples would exceed a few seconds' work.
struct MotionSpectrum {
  double omega_initial = 0.0;  // rad/s, omegaMax at the initial state
  double omega_max = 0.0;      // rad/s, the largest (sustained) local frequency found
  double t_of_max = 0.0;       // s, the time of the state that has it
  double seconds = 0.0;        // s, the time the reference run reached
  long long steps = 0;         // the reference run's steps
  std::string stopped;         // why it stopped before `seconds` (empty: it did not)
};
MotionSpectrum motionSpectrum(const System& sys, const State& initial, double seconds);

// Whether the linear limit sim::dtLimit(m, omega_max) may miss where an explicit method diverges
// on this system, so that `info` measures it instead (lab/step_limit.hpp): a pendulum in
// generalised coordinates, where symplectic_euler and verlet are not symplectic in (phi, phi')
// and the velocity terms pump energy in below the oscillation limit
// (docs/integrators.md#stability-limits). A spring network's forces are linear in its velocities.
bool linearLimitMayFail(const System& sys);

}  // namespace sim
