// Energies per docs/integrators.md#energies (J): gravity potential is -m g.x, zero at the origin.
#pragma once

#include "sim/model.hpp"

namespace sim {

// The potential split by its source (the energy bars, docs/integrators.md#energy-bars): the
// gravitational part -sum m g.x over moving bodies and the elastic part sum 1/2 k (l - r)^2 over
// springs (a pendulum's rigid rods store none). `potential` is accumulated as before, in the
// same order, so that every figure derived from it stays bit-identical; it equals
// gravitational + elastic to round-off. Colliders, self-collision and the mouse spring store no
// energy: the first two act on positions and velocities after a step (their work is the ledger's
// dissipated part), the mouse spring is an external force (its work is the ledger's external part).
struct Energy {
  double kinetic = 0.0;
  double potential = 0.0;
  double gravitational = 0.0;
  double elastic = 0.0;
  double total() const { return kinetic + potential; }
};

Energy energy(const MassSpringModel& m, const State& s);

}  // namespace sim
