// A strict reader of Wavefront OBJ meshes, the subset of docs/scenes.md#mesh: `v x y z` and
// `f i j k ...` (polygons fan-triangulated; `i/t/n` forms use `i`; negative indices count back
// from the last vertex read); every other line is ignored. Used by the `mesh` generator and by the
// lattice's `"shape": "mesh"`.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "scene/scene_def.hpp"
#include "util/expected.hpp"

namespace scene {

struct ObjMesh {
  std::vector<Vec3> vertices;                 // file order
  std::vector<std::array<int, 3>> triangles;  // 0-based, polygons fan-triangulated
  // where each came from, for messages that name a line of the file (1-based)
  std::vector<int> vertex_lines;    // the `v` line of each vertex
  std::vector<int> triangle_lines;  // the `f` line each triangle was cut from
};

// A file larger than this is refused before it is read: a typo must not swallow the memory (the
// largest mesh a scene may hold, 4 million vertices, takes about 160 MB as text).
inline constexpr std::size_t kMaxObjBytes = std::size_t(256) << 20;
// A mesh with more `v` lines, or more triangles once its polygons are cut, is refused while it is
// read, before its vertices are stored: the scene's own limits (4 000 000 particles, 8 000 000
// triangles, docs/scenes.md#limits), which a file of 256 MiB could otherwise pass eight times
// over ("v 0 0 0" is 8 bytes).
inline constexpr int kMaxObjVertices = 4'000'000;
inline constexpr int kMaxObjTriangles = 8'000'000;

// The subset above; every problem a scene::Error "NAME:LINE: what" (NAME as shown), or
// "NAME: what" for the whole file (no faces).
ObjMesh parseObj(std::string_view text, const std::string& shownName);
// The same from a file, with the problems of readObjText besides ("NAME: cannot open the file").
ObjMesh readObj(const std::string& path, const std::string& shownName);

// The whole of the file at `path`, or the problem ("cannot open the file", "is a folder, not a
// file", "cannot read the file", "larger than 256 MiB": util::readBoundedFile): the reading half
// of readObj.
util::Expected<std::string> readObjText(const std::string& path);

// scale (> 0), then rotate (degrees about x, then y, then z, about the fixed axes), then translate
struct MeshTransform {
  double scale = 1.0;
  Vec3 rotate_deg = Vec3::Zero(), translate = Vec3::Zero();
};
Vec3 applyTransform(const MeshTransform& t, const Vec3& p);

}  // namespace scene
