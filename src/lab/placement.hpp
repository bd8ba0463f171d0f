// Placing a body by hand (docs/exploring.md#placing-a-body): while paused, a drag puts a particle
// at a new spot or turns a bob's link towards the cursor, and that state, at rest, becomes the
// scene's new initial state (PhET Pendulum Lab's habit: set the start angle by dragging the bob).
#pragma once

#include <optional>
#include <string>

#include "sim/system.hpp"

namespace lab {

// Moves `body` of `system` in `s` towards `target` (m): a particle to the point (a planar
// scene's in its plane, z kept), a pendulum's bob as far as its rod allows, by turning its own
// link to point at the target (absolute link angles: the bobs below it move along, their links
// keep their angles). Every velocity becomes zero: the system is held still where it is put.
// Returns the problem ("body 7: no such particle or bob", a target that is not finite), or nothing.
std::optional<std::string> placeBody(const sim::System& system, sim::State& s, int body,
                                     const sim::Vec3& target);

// The angle of pendulum link `link` from the downward vertical in degrees (the panel's and the
// status line's readout of a placed bob); NaN for a mass-spring system or no such link.
double linkAngleDegrees(const sim::System& system, const sim::State& s, int link);

}  // namespace lab
