// The `mesh` generator (docs/scenes.md#mesh). The edges come from one sort of the triangles'
// half-edges, so a 100 000-vertex mesh builds in tens of milliseconds.
#include "scene/mesh_generator.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>

#include <Eigen/Geometry>

#include "scene/catalog.hpp"

namespace scene {
namespace {

// A built-in scene's folder and its meshes', inside the assets compiled into the binary.
constexpr std::string_view kBuiltinOrigin = "builtin:";
constexpr const char* kBuiltinSceneFolder = "scenes";
constexpr std::string_view kBuiltinMeshFolder = "meshes/";
// a third of each adjoining triangle's area goes to a vertex (docs/scenes.md#mesh)
constexpr double kAreaShare = 1.0 / 3.0;
// bending springs cross an edge that exactly this many triangles share
constexpr int kManifoldTriangles = 2;

std::string where(const std::string& shown, int line) {
  return shown + ":" + std::to_string(line) + ": ";
}

// Two triangles over the same three vertices (either winding) would double the area and cross
// no edge: the second is an error.
void checkDistinctTriangles(const ObjMesh& m, const std::string& shown) {
  std::vector<std::pair<std::array<int, 3>, int>> keys(m.triangles.size());
  for (size_t t = 0; t < m.triangles.size(); ++t) {
    keys[t] = {m.triangles[t], int(t)};
    std::sort(keys[t].first.begin(), keys[t].first.end());
  }
  std::sort(keys.begin(), keys.end());
  for (size_t k = 1; k < keys.size(); ++k)
    if (keys[k].first == keys[k - 1].first) {
      const int first = m.triangle_lines[size_t(keys[k - 1].second)];
      throw Error(where(shown, m.triangle_lines[size_t(keys[k].second)]) +
                  "a triangle of this face repeats one of line " + std::to_string(first));
    }
}

// One side of a triangle: the edge (a < b, packed in `key`), its triangle and the vertex opposite.
struct HalfEdge {
  std::uint64_t key;
  int triangle, opposite;
  bool operator<(const HalfEdge& o) const {
    return key != o.key ? key < o.key : triangle < o.triangle;
  }
};

std::vector<HalfEdge> sortedHalfEdges(const ObjMesh& m) {
  std::vector<HalfEdge> h;
  h.reserve(3 * m.triangles.size());
  for (size_t t = 0; t < m.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const auto a = std::uint32_t(m.triangles[t][size_t(k)]);
      const auto b = std::uint32_t(m.triangles[t][size_t((k + 1) % 3)]);
      const std::uint64_t key = (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
      h.push_back({key, int(t), m.triangles[t][size_t((k + 2) % 3)]});
    }
  std::sort(h.begin(), h.end());
  return h;
}

int edgeA(std::uint64_t key) {
  return int(key >> 32);
}
int edgeB(std::uint64_t key) {
  return int(key & 0xffffffffu);
}

// Bending springs need each edge in at most two triangles: a third has no single "across".
[[noreturn]] void nonManifold(const ObjMesh& m, const std::vector<HalfEdge>& h, size_t from,
                              size_t to, const std::string& shown) {
  std::string lines;
  for (size_t k = from; k < to; ++k)
    lines += (k == from ? "" : ", ") + std::to_string(m.triangle_lines[size_t(h[k].triangle)]);
  throw Error(where(shown, m.triangle_lines[size_t(h[from + kManifoldTriangles].triangle)]) +
              "edge " + std::to_string(edgeA(h[from].key)) + "-" +
              std::to_string(edgeB(h[from].key)) + " (0-based) is shared by " +
              std::to_string(to - from) + " triangles (lines " + lines +
              "): bending springs need at most " + std::to_string(kManifoldTriangles));
}

// One spring per distinct edge, then with bending one across each edge two triangles share.
void addMeshSprings(MassSpringDef& out, const ObjMesh& m, const MeshParams& p, int first,
                    const std::string& shown) {
  const std::vector<HalfEdge> h = sortedHalfEdges(m);
  std::vector<SpringDef> bending;
  for (size_t k = 0; k < h.size();) {
    size_t end = k + 1;
    while (end < h.size() && h[end].key == h[k].key) ++end;
    out.springs.push_back(SpringDef{first + edgeA(h[k].key), first + edgeB(h[k].key), p.stiffness,
                                    std::nullopt, p.damping});
    if (p.bending_stiffness > 0) {
      if (end - k > size_t(kManifoldTriangles)) nonManifold(m, h, k, end, shown);
      if (end - k == size_t(kManifoldTriangles))
        bending.push_back(SpringDef{first + h[k].opposite, first + h[k + 1].opposite,
                                    p.bending_stiffness, std::nullopt, p.damping});
    }
    k = end;
  }
  out.springs.insert(out.springs.end(), bending.begin(), bending.end());
}

// Each vertex's area: a third of each adjoining triangle's (m^2, after the transform).
std::vector<double> vertexAreas(const std::vector<Vec3>& x, const ObjMesh& m) {
  std::vector<double> area(x.size(), 0.0);
  for (const auto& t : m.triangles) {
    const double a =
        0.5 * (x[size_t(t[1])] - x[size_t(t[0])]).cross(x[size_t(t[2])] - x[size_t(t[0])]).norm();
    for (int v : t) area[size_t(v)] += kAreaShare * a;
  }
  return area;
}

// Every vertex in a triangle; every free one with some area to carry its mass.
void checkVertices(const ObjMesh& m, const std::vector<double>& area,
                   const std::vector<char>& pinned, const std::string& shown) {
  std::vector<char> used(m.vertices.size(), 0);
  for (const auto& t : m.triangles)
    for (int v : t) used[size_t(v)] = 1;
  for (size_t i = 0; i < used.size(); ++i)
    if (!used[i])
      throw Error(where(shown, m.vertex_lines[i]) + "vertex " + std::to_string(i) +
                  " (0-based) is in no triangle");
  for (size_t i = 0; i < area.size(); ++i)
    if (!(area[i] > 0) && !pinned[i])
      throw Error(where(shown, m.vertex_lines[i]) + "vertex " + std::to_string(i) +
                  " (0-based) has no area to carry its mass: its triangles are degenerate");
}

// The triangles join the system's surface, and its coarser copies where a cloth made them (the
// shadow's, the far view's levels), so that those still cover the mesh.
void appendSurface(MassSpringDef& out, const ObjMesh& m, int first) {
  const size_t before = out.triangles.size();
  for (const auto& t : m.triangles)
    out.triangles.push_back({first + t[0], first + t[1], first + t[2]});
  const auto added = out.triangles.begin() + static_cast<long>(before);
  if (!out.shadow_triangles.empty())
    out.shadow_triangles.insert(out.shadow_triangles.end(), added, out.triangles.end());
  for (auto& level : out.surface_levels) level.insert(level.end(), added, out.triangles.end());
}

}  // namespace

MeshSummary addMesh(MassSpringDef& out, const ObjMesh& mesh, const MeshParams& p,
                    const std::string& shownName) {
  const size_t n = mesh.vertices.size();
  const int first = static_cast<int>(out.particles.size());
  MeshSummary s;
  std::vector<Vec3> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = applyTransform(p.transform, mesh.vertices[i]);
  std::vector<char> pinned(n, 0);
  for (int i : p.pin) pinned[size_t(i)] = 1;
  if (n > 0) s.lo = s.hi = x[0];
  for (size_t i = 0; i < n; ++i) {
    s.lo = s.lo.cwiseMin(x[i]), s.hi = s.hi.cwiseMax(x[i]);
    if (p.pin_box && (x[i].array() >= p.pin_box->first.array()).all() &&
        (x[i].array() <= p.pin_box->second.array()).all())
      pinned[i] = 1, ++s.box_pinned;
  }
  checkDistinctTriangles(mesh, shownName);
  const std::vector<double> area = vertexAreas(x, mesh);
  checkVertices(mesh, area, pinned, shownName);
  double total = 0.0;
  for (double a : area) total += a;
  for (size_t i = 0; i < n; ++i) {
    ParticleDef d;
    d.position = x[i];
    d.fixed = pinned[i] != 0;
    d.mass = d.fixed ? 0.0 : p.mass * area[i] / total;
    out.particles.push_back(d);
  }
  addMeshSprings(out, mesh, p, first, shownName);
  appendSurface(out, mesh, first);
  return s;
}

util::Expected<SceneMesh> readSceneMesh(const std::string& origin, const std::string& file) {
  namespace fs = std::filesystem;
  if (origin.starts_with(kBuiltinOrigin)) {
    // a built-in scene stands in assets/scenes/: its meshes are assets/meshes/, compiled in
    const std::string path = (fs::path(kBuiltinSceneFolder) / file).lexically_normal().string();
    const std::string shown = std::string(kBuiltinOrigin) + path;
    const std::string name = path.substr(std::min(path.size(), kBuiltinMeshFolder.size()));
    const auto text = path.starts_with(kBuiltinMeshFolder) ? findBuiltinMesh(name) : std::nullopt;
    if (text) return SceneMesh{parseObj(*text, shown), shown};
    std::string names;
    for (const std::string& m : builtinMeshNames()) names += (names.empty() ? "" : ", ") + m;
    return util::fail("no built-in mesh \"" + path + "\" (a built-in scene names ../" +
                      std::string(kBuiltinMeshFolder) + "NAME.obj, one of: " + names + ")");
  }
  const fs::path f(file);
  const std::string shown =
      f.is_absolute() ? file : (fs::path(origin).parent_path() / f).lexically_normal().string();
  const auto text = readObjText(shown);
  if (!text) return util::fail(shown + ": " + text.problem());
  return SceneMesh{parseObj(*text, shown), shown};
}

}  // namespace scene
