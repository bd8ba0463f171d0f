// Gravity's zero in the window's energy bars and energy plot
// (docs/lab.md#the-zero-of-the-potential): the contract's origin (docs/integrators.md#energies: the
// CSV files keep it) hides the exchange of kinetic and potential energy of a small swing under a
// constant -m g h of the pivot's height, so the window measures gravity's potential from a
// reference the user picks, as PhET's energy skate park puts its zero on a line the user moves. A
// constant per lane: the bars and the plot subtract it from gravity, the potential, the total and
// E0, and every ledger term (differences) stays as it was.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sim/system.hpp"

namespace lab {

enum class PotentialZero {
  Lowest,       // the horizontal line through the lowest body at rest (a swing's bottom)
  Equilibrium,  // each body's height at the static equilibrium
  Origin,       // height 0: the contract's
};

struct PotentialZeroInfo {
  PotentialZero zero;
  std::string_view name, tip;
};
// In the panel's order; the first is the default: the one that shows the exchange.
inline constexpr PotentialZeroInfo kPotentialZeros[] = {
    {PotentialZero::Lowest, "lowest point",
     "Gravity's potential measured from the horizontal line through the lowest body at rest: the "
     "bottom of a pendulum's swing, a hanging network's lowest particle, the floor a dropped "
     "body comes to rest on."},
    {PotentialZero::Equilibrium, "equilibrium",
     "Gravity's potential measured from the static equilibrium: each body's height above where "
     "it would rest."},
    {PotentialZero::Origin, "origin",
     "Gravity's potential zero at height 0, as in the CSV files (-m g . x)."},
};
inline constexpr PotentialZero kDefaultPotentialZero = kPotentialZeros[0].zero;

// Where the equilibrium is sought for the zero: the pendulums' is a closed form, a spring
// network's a relaxation that factors its matrix at each of up to 200 steps, which took 0.3 s
// for cloth_16's 256 particles, 1.3 s for jelly_cube's 729 and minutes for cloth_64's 4096 on
// the 2-core development machine. So the default (lowest point) relaxes only small systems and
// takes a larger one's floor (or its lowest body at the start); the equilibrium, picked by the
// user, relaxes up to kEquilibriumZeroMax bodies.
inline constexpr int kLowestFromEquilibriumMax = 64;
inline constexpr int kEquilibriumZeroMax = 1000;

// Where gravity's zero lies for a system: the equilibrium's state, or a point of the horizontal
// line, or neither (the origin), with the reason where the choice could not be met.
struct ZeroReference {
  std::optional<sim::State> rest;  // Equilibrium
  std::optional<sim::Vec3> line;   // Lowest (m)
  std::string note;                // e.g. "origin: no equilibrium (nothing holds it: ...)"
};

// The reference of `zero` for `system` with its parameters now, the mouse spring left out (a
// grab must not move the zero), sought from `from`'s positions (lab/equilibrium.hpp).
ZeroReference zeroReference(const sim::System& system, const sim::State& from, PotentialZero zero);

// The gravitational energy (J) `system`'s bodies have at the reference, which the bars subtract:
// the equilibrium's, or -M g . p for the moving mass M on the line through p; 0 at the origin.
double gravityAtZero(const sim::System& system, const ZeroReference& ref);

}  // namespace lab
