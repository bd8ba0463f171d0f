// Writing a scene back as a file (docs/scenes.md#saved-scenes): the explicit form of a SceneDef,
// which scene::parse reads back to the same definition and scene::build to the same bits. What
// the user saves is the expanded system (generators listed particle by particle), since that is
// what the window edits and runs.
#pragma once

#include <string>

#include "scene/build.hpp"
#include "scene/scene_def.hpp"
#include "util/expected.hpp"

namespace scene {

// The scene file's JSON text: every particle, spring, triangle, collider and setting of `def`,
// numbers in their shortest form that reads back to the same double. Throws scene::Error when a
// number is not finite (JSON has no spelling for it).
std::string toJson(const SceneDef& def);

// toJson(def) written atomically to `path` (util/atomic_file.hpp): nothing is left under `path`
// unless the whole file was written. The problem is one line, e.g.
// "out/x.json: cannot open for writing: No such file or directory". A text longer than a scene
// file may be (kMaxSceneBytes) is not written: the loader would refuse it.
util::Problem saveScene(const SceneDef& def, const std::string& path);

// `def` as `system` and `initial` (built from it) are now: withParameters, plus each spring's
// stiffness (the stiffness scale applied) and rest length, the masses, a pendulum's lengths, and
// the initial state's positions and velocities. What the window saves (Ctrl+S).
SceneDef withSystem(SceneDef def, const sim::System& system, const sim::State& initial);

}  // namespace scene
