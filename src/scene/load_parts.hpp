// The scene loader's parts (docs/scenes.md), one job each: load.cpp reads the file and the top
// level and hands "system" by its type to load_mass_spring.cpp or load_pendulum.cpp;
// load_generators.cpp reads the generators' keys, render_def.cpp the "render" section. Private to
// the scene library.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scene/json_reader.hpp"
#include "scene/scene_def.hpp"

namespace scene::detail {

// Limits that keep a typo from asking for terabytes: generous for any real scene
// (docs/scenes.md#limits). The largest cloth, 2000 x 2000 particles, has 23 988 000 springs
// (structural, shear and bending: about 6 per particle) and 7 992 002 triangles: the three limits
// admit it and nothing much larger. Every path that adds to a system (the lists, each generator,
// the pendulum's links) checks the counts it would reach before it allocates them.
inline constexpr long long kMaxParticles = 4'000'000;
inline constexpr long long kMaxSprings = 24'000'000;
inline constexpr long long kMaxTriangles = 8'000'000;

// The JSON document of `text`, or an Error naming `origin`, the line and column of the problem
// (load.cpp; a method file's reader uses it too, method_file.cpp).
json parseJson(std::string_view text, const std::string& origin);

// What a generator is about to add (its requested sizes), or has added.
struct BodyCounts {
  long long particles = 0, springs = 0, triangles = 0;
};

// An Error "FILE: PATH: the scene would have N particles, more than the 4000000 a scene may have"
// (or springs, or triangles) where `out` and `more` together pass a limit; `where` is "FILE: PATH".
void checkCounts(const std::string& where, const MassSpringDef& out, const BodyCounts& more);

// The top level's "system" of each type ("type" already read), with its own allowed keys; the
// parameter table's rows in "system" into `values`.
MassSpringDef parseMassSpring(const json& system, const std::string& file,
                              sim::ParameterValues& values);
PendulumDef parsePendulum(const json& system, const std::string& file,
                          sim::ParameterValues& values);

// A place's own keys and those of the parameter table's rows in `slot` (load_parameters.cpp).
std::vector<std::string> withParameterKeys(std::vector<std::string> own, sim::SceneSlot slot);
// The rows of `slot` that `o` names, each by its rule; a row that does not apply to `kind` is an
// error that says why ("substeps: a pendulum has no springs").
void parseParameters(const Obj& o, sim::SceneSlot slot, sim::SystemKind kind,
                     sim::ParameterValues& out);
// A row of `slot` that acts through another (sim::ParameterInfo::acts_through) set while that one
// is 0: "wind: acts through the drag: set system.drag > 0".
void checkActsThrough(const Obj& o, sim::SceneSlot slot, sim::SystemKind kind,
                      const sim::ParameterValues& values);

// The top level's "render" section (docs/scenes.md#render): display only, no physics.
RenderDef parseRender(const json& render, const std::string& file);

// A spring's "rest_length" (>= 0), or nothing for the initial distance (docs/scenes.md#springs).
std::optional<double> optRest(const Obj& o);

// The generator at `path` (an object with a "kind", docs/scenes.md#generators): its particles,
// springs and triangles appended to `out`.
void expandGenerator(const json& j, const std::string& path, const std::string& file,
                     MassSpringDef& out);

}  // namespace scene::detail
