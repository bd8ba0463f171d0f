// What scene asks of each kind of system (docs/architecture.md#system-kinds): its part of a scene
// file read and written, the system built from it, what is taken back from a running system, and
// its size. Each kind's answers are in its own files (load_mass_spring.cpp with
// mass_spring_scene.cpp, load_pendulum.cpp with pendulum_scene.cpp); kinds.cpp lists them, in one
// switch. Private to the scene library.
#pragma once

#include <string>
#include <string_view>

#include "scene/build.hpp"
#include "scene/json_reader.hpp"
#include "scene/scene_def.hpp"
#include "scene/size.hpp"

namespace scene::detail {

class Writer;

struct SceneKind {
  // "system" of a file of this kind ("type" already read) into def: its own part, and the
  // parameter table's rows that sit in "system" into def.parameters
  void (*parse)(const json& system, const std::string& file, SceneDef& def);
  // the system and its initial state and surfaces (the table's rows are set after, by build)
  Built (*build)(const SceneDef& def);
  // "system"'s object, written after `"system": `
  void (*write)(Writer& w, const SceneDef& def);
  // what withParameters takes from a running system beyond the table's rows (a network's dashpots)
  void (*takeParameters)(SceneDef& def, const sim::System& system);
  // withSystem's part: the model as it is now (masses, lengths, stiffnesses) and `initial`
  void (*takeSystem)(SceneDef& def, const sim::System& system, const sim::State& initial);
  SceneSize (*size)(const SceneDef& def);
};

const SceneKind& sceneKind(sim::SystemKind kind);

}  // namespace scene::detail
