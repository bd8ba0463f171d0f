// How big a scene is, read off its definition before a system is built: what a run's work, a
// factorisation's memory and the undo budget count (cli/commands.cpp, app/session_edit.cpp).
// Each kind's answer is one case of sizeOf's switch.
#pragma once

#include <cstddef>
#include <string_view>

#include "scene/scene_def.hpp"

namespace scene {

struct SceneSize {
  std::size_t elements = 0;        // what a step's cost follows: particles and springs, or links
  std::string_view elements_noun;  // "particles and springs" / "links"
  std::size_t factored = 0;        // the unknowns (particles) a sparse factorisation of it takes
  std::size_t bytes = 0;           // roughly what the definition costs in memory
};

SceneSize sizeOf(const SceneDef& def);

}  // namespace scene
