// The panel's Physics section (docs/architecture.md#one-parameter-table): read from the System,
// the parameter table and the registry, so that the panel never asks which kind of system it
// shows. The parameters belong to the loaded scene's System; the Session fills this view.
#pragma once

#include "lab/lane.hpp"
#include "scene/build.hpp"

namespace ui {
struct PhysicsView;
}

namespace app {

// The controls of the parameters of `b` that apply (substeps and iterations only while lane 0's
// integrator has them, their automatic values as its last step took them), gravity for the
// Heading control's basis, the drag for its note, and the mouse spring's stiffness (N/m).
void fillPhysics(const scene::Built& b, const lab::Lane& primary, double grabStiffness,
                 ui::PhysicsView& v);

}  // namespace app
