// SceneDef -> sim model + initial state (docs/architecture.md#from-a-scene-file-to-pixels).
#pragma once

#include <memory>

#include "scene/scene_def.hpp"
#include "sim/diagnostics.hpp"
#include "sim/model.hpp"
#include "sim/pendulum.hpp"
#include "sim/stepper.hpp"
#include "sim/system.hpp"

namespace scene {

// A scene's system (sim::System: the kind is decided there) with its initial state and display
// surface.
struct Built : sim::System {
  sim::State state;                             // the initial state
  std::vector<std::uint32_t> triangles;         // display surface (cloth), 3 particle indices each
  std::vector<std::uint32_t> shadow_triangles;  // a coarser one for its shadow (may be empty)
  // the surface at 2, 4, ... times its cell (MassSpringDef::surface_levels); may be empty
  std::vector<std::vector<std::uint32_t>> surface_levels;

  // energy and length scales of the initial state (drift and the runaway rule)
  sim::SceneScales scales() const { return System::scales(state); }
  using System::stepper;
  std::unique_ptr<sim::Stepper> stepper(sim::Method m, double h) const {
    return stepper(m, h, state);
  }
};

Built build(const SceneDef& def);

// `def` with the parameters `system` (built from it) has now: gravity, drag, wind, dampings,
// substeps and iterations (background jobs run the scene as it is now).
SceneDef withParameters(SceneDef def, const sim::System& system);

}  // namespace scene
