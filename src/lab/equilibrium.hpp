// The static equilibrium (docs/exploring.md#equilibrium): where the system comes to rest with the
// parameters as they are, drawn as a grey ghost so that a swing is seen about its centre. Each
// kind finds its own (sim/facets.hpp): a pendulum hangs along gravity; a spring network is relaxed
// by implicit Euler steps of a long step with the velocities zeroed after each.
#pragma once

#include "sim/system.hpp"

namespace lab {

using sim::Equilibrium;
using sim::kRelaxParticlesMax;
using sim::kRelaxSettled;
using sim::kRelaxStep;
using sim::kRelaxStepsMax;

// The equilibrium nearest to `from` (its positions; velocities are ignored).
inline Equilibrium staticEquilibrium(const sim::System& system, const sim::State& from) {
  return system.staticEquilibrium(from);
}

}  // namespace lab
