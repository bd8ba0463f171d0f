// Loading a session from the command line's SCENE, --integrator and --dt: the window and record
// share it, so both accept and reject the same values with the same messages.
#pragma once

#include <optional>
#include <string>

#include "app/session.hpp"

namespace app {

// Loads `scene` (a built-in name or a .json path) and applies a non-empty `integrator` and a
// positive `dt`. Returns the one-line message for standard error ("FILE: path: what", or
// "PREFIX: --integrator: ...", "PREFIX: --dt: ...") or nothing.
std::optional<std::string> setUpSession(Session& s, const std::string& scene,
                                        const std::string& integrator, double dt,
                                        const std::string& prefix);

// The second half of setUpSession, for a session loaded otherwise (a provenance file's scene).
std::optional<std::string> applyIntegratorAndDt(Session& s, const std::string& integrator,
                                                double dt, const std::string& prefix);

}  // namespace app
