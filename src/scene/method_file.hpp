// Method files (docs/integrators.md#your-own-method): a user's Runge-Kutta tableau or splitting
// in JSON, read as strictly as a scene (every problem one line naming the file and the key), and
// the names by which the rest of the program asks for them: a path ending in .json, or the name of
// a file in the user's method folder, $XDG_CONFIG_HOME/springlab/methods (~/.config/... without
// XDG_CONFIG_HOME).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sim/registry.hpp"
#include "sim/user_methods.hpp"
#include "util/expected.hpp"

namespace scene {

// A method file is a few hundred bytes; a larger one than this is refused before it is read.
inline constexpr std::size_t kMaxMethodBytes = std::size_t(1) << 20;

// The checked coefficients of a method file's text, or the one-line problem ("FILE: KEY: what").
util::Expected<sim::MethodCoefficients> parseMethod(std::string_view text,
                                                    const std::string& origin);
// The file read, checked and registered (sim::registerMethod).
util::Expected<sim::Method> loadMethodFile(const std::string& path);
// The user's method folder, and its .json files in name order (none when it does not exist).
std::string userMethodFolder();
std::vector<std::string> userMethodFiles();
// The method `name` stands for on a `kind` system: a built-in's name, a path ending in .json
// (relative ones against `base`, a folder, when given) or the name of a file in the user's
// method folder; else the one-line reason (sim::lookupIntegrator's, or the file's problem).
sim::IntegratorLookup lookupIntegrator(std::string_view name, sim::SystemKind kind,
                                       const std::string& base = {});

}  // namespace scene
