// Editing a scene by hand (docs/exploring.md#edit-mode): each edit takes an explicit scene (as
// Save as writes it: every particle and spring listed) and changes it, or refuses with one line
// and leaves it as it was. The window's edit mode, its Bodies section and its undo stack
// (app::Session) are built on these; they know nothing of windows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scene/scene_def.hpp"

namespace scene {

// What a refused edit says ("a spring needs two different particles"), or nothing when it is done.
using EditProblem = std::optional<std::string>;

// The smallest length a new spring may have: shorter is two particles in one place (a spring of
// no length has no direction to pull along).
inline constexpr double kMinSpringLength = 1e-6;  // m

// A scene to build on: one fixed particle at the origin (an anchor to hang things from), in the
// x-y plane, Earth's gravity, rk4 at 1 ms. (A scene of no particles is not a scene the loader
// takes, docs/scenes.md.)
SceneDef newScene();

// --- mass-spring scenes
EditProblem addParticle(SceneDef& def, const Vec3& at, double mass);
// A spring from a to b at rest at their current distance, with stiffness k (N/m) and damping c.
EditProblem addSpring(SceneDef& def, int a, int b, double stiffness, double damping);
// Pins each listed particle that is free and frees each that is fixed (a particle freed without
// a mass gets `mass`).
EditProblem togglePinned(SceneDef& def, const std::vector<int>& particles, double mass);
// Removes the listed particles with every spring and triangle that touches them; the others keep
// their order. The last particles cannot all go (the loader takes no empty system).
EditProblem deleteParticles(SceneDef& def, const std::vector<int>& particles);
EditProblem setParticleMass(SceneDef& def, int particle, double mass);
// The spring joining a and b (either way round), or -1.
int springBetween(const SceneDef& def, int a, int b);
EditProblem setSpring(SceneDef& def, int spring, double stiffness, double damping);
EditProblem setRestLength(SceneDef& def, int spring, double restLength);
// Self-collision's thickness (m, docs/scenes.md#self-collision; 0: off); a pendulum's is 0 and
// cannot be set.
double selfThickness(const SceneDef& def);
EditProblem setSelfThickness(SceneDef& def, double thickness);  // >= 0

// The generators as tools (docs/exploring.md#tools): a click in edit mode puts one at the cursor,
// with the new-spring settings.
enum class EditTool {
  Particle,    // one particle
  Chain,       // a chain hanging from a fixed particle at the cursor
  ClothPatch,  // a sheet centred on the cursor, its top corners pinned
  JellyBox,    // a lattice body (docs/scenes.md#lattice) centred on the cursor: a 3-D body
  Mesh,        // an OBJ file's mesh (docs/scenes.md#mesh) centred on the cursor
};
// The Mesh tool's scale that fits the mesh to the other tools' size (kToolSize): a scan in its own
// units (a 0.15 m bunny, a 150 mm part) arrives as large as a chain or a cloth patch.
inline constexpr double kFitMeshScale = 0.0;
struct ToolSettings {
  double stiffness = 100.0, damping = 0.0;  // N/m, N s/m: every spring's
  double mass = 1.0;                        // kg: a particle's, a chain link's, a whole body's
  std::string mesh_file;                    // the Mesh tool's OBJ, relative to the working folder
  // The Mesh tool's transform, as the scene file's mesh generator has it (docs/scenes.md#mesh):
  // scale (> 0; kFitMeshScale: its longest side in the file becomes kToolSize), then rotate
  // (degrees about x, then y, then z); its bounding box's centre then goes to the click.
  double mesh_scale = kFitMeshScale;
  Vec3 mesh_rotate_deg = Vec3::Zero();
};
// A tool's size: a chain's length, a cloth patch's side, a jelly box's edge, a fitted mesh's
// longest side (m).
inline constexpr double kToolSize = 1.0;
inline constexpr int kToolChainLinks = 5;
inline constexpr int kToolClothCells = 8;
inline constexpr int kToolJellyCells = 4;
// The tools' names, in EditTool's order (the panel's list).
inline constexpr const char* kEditToolNames[] = {"Particle", "Chain", "Cloth patch", "Jelly box",
                                                 "Mesh file"};
EditProblem addTool(SceneDef& def, EditTool tool, const Vec3& at, const ToolSettings& s);
// The Mesh tool's scale (finite, >= 0) and rotation (finite).
EditProblem checkMeshTransform(const ToolSettings& s);

// --- pendulums
// A pendulum of `links` equal links (length m, mass kg each: the scene file's "uniform",
// docs/scenes.md#uniform-pendulums) released from rest at `angle` (rad), Earth's gravity, rk4
// at 1 ms.
SceneDef uniformPendulum(int links, double length, double mass, double angle);
// Another link below the last, as long and as heavy as it, hanging straight down at rest.
EditProblem addLink(SceneDef& def);
EditProblem removeLastLink(SceneDef& def);  // one link at least stays
EditProblem setLink(SceneDef& def, int link, double length, double mass);
EditProblem setStartAngle(SceneDef& def, int link, double radians);

}  // namespace scene
