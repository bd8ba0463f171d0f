// Energies per docs/integrators.md#energies (J): gravity potential is -m g.x, zero at the origin.
#pragma once

#include "sim/model.hpp"

namespace sim {

struct Energy {
  double kinetic = 0.0;
  double potential = 0.0;
  double total() const { return kinetic + potential; }
};

Energy energy(const MassSpringModel& m, const State& s);

}  // namespace sim
