// The `mesh` generator (docs/scenes.md#mesh): a cloth or shell from a user's OBJ mesh. One
// particle per vertex, one spring per distinct triangle edge, bending springs across the edges
// two triangles share, mass by vertex area, the triangles drawn as the surface.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scene/obj_reader.hpp"
#include "scene/scene_def.hpp"
#include "util/expected.hpp"

namespace scene {

struct MeshParams {
  double mass = 1.0;               // kg, the whole mesh, shared by vertex area
  double stiffness = 1000.0;       // N/m, each edge's spring
  double bending_stiffness = 0.0;  // N/m, each interior edge's cross spring; 0: none
  double damping = 0.0;            // N s/m, every spring's dashpot
  MeshTransform transform;
  std::vector<int> pin;                          // vertex indices, 0-based, in range
  std::optional<std::pair<Vec3, Vec3>> pin_box;  // m: [min, max] after the transform
};

// What addMesh made, for the caller's checks and messages.
struct MeshSummary {
  int box_pinned = 0;                         // vertices the pin_box holds
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();  // m: the mesh's bounding box after the transform
};

// Appends the mesh's particles, springs and triangles to `out` (indices offset by what it holds).
// A vertex in no triangle, a free vertex of no area, a triangle listed twice and, with bending
// springs, an edge of more than two triangles are scene::Errors "NAME:LINE: what".
MeshSummary addMesh(MassSpringDef& out, const ObjMesh& mesh, const MeshParams& p,
                    const std::string& shownName);

// The OBJ that a scene read from `origin` (a path, or "builtin:NAME") names as `file`: relative
// to the scene file's folder; a built-in scene's folder is assets/scenes/ inside the binary, so
// "../meshes/NAME.obj" is the embedded assets/meshes/NAME.obj. The file's own problems throw
// "NAME:LINE: what" (NAME the path as resolved); one that cannot be found or read is the
// problem.
struct SceneMesh {
  ObjMesh mesh;
  std::string shown;  // its name in messages: "assets/meshes/flag.obj", "builtin:meshes/flag.obj"
};
util::Expected<SceneMesh> readSceneMesh(const std::string& origin, const std::string& file);

}  // namespace scene
