// SceneDef -> sim model + initial state (DESIGN.md §2).
#pragma once

#include "scene/scene_def.hpp"
#include "sim/model.hpp"

namespace scene {

struct Built {
  sim::MassSpringModel model;
  sim::State state;
};

Built build(const SceneDef& def);

}  // namespace scene
