// The static equilibrium (docs/exploring.md#equilibrium): where the system comes to rest with the
// parameters as they are, drawn as a grey ghost so that a swing is seen about its centre. A
// pendulum hangs along gravity; a spring network is relaxed by implicit Euler steps of a long
// step with the velocities zeroed after each (each step is then a Newton step on the potential,
// damped by M / h^2 where the stiffness is singular: docs/integrators.md#implicit_euler).
#pragma once

#include <optional>
#include <string>

#include "sim/system.hpp"

namespace lab {

// The relaxation's step, its number of steps at most, and when it has settled: the largest
// move of a step below this fraction of the scene's length scale.
inline constexpr double kRelaxStep = 1.0;  // s: Newton-like for periods up to seconds
inline constexpr int kRelaxStepsMax = 200;
inline constexpr double kRelaxSettled = 1e-10;
// Larger systems are not relaxed here: a factorisation per step is seconds for a fine cloth.
inline constexpr int kRelaxParticlesMax = 20000;

struct Equilibrium {
  std::optional<sim::State> state;  // at rest; none with `why`
  std::string why;                  // "nothing holds it: it falls for ever"
  int steps = 0;                    // the relaxation's
};

// The equilibrium nearest to `from` (its positions; velocities are ignored).
Equilibrium staticEquilibrium(const sim::System& system, const sim::State& from);

}  // namespace lab
