// The generators' keys (docs/scenes.md#generators): each kind's allowed keys, their checks and the
// scene::addX of generators.hpp that expands them.
#include <algorithm>
#include <ranges>
#include <string>

#include "scene/generators.hpp"
#include "scene/lattice.hpp"
#include "scene/load_parts.hpp"
#include "scene/mesh_generator.hpp"

namespace scene::detail {

static_assert(kMaxObjVertices == kMaxParticles && kMaxObjTriangles == kMaxTriangles,
              "a mesh's limits are the scene's (docs/scenes.md#limits)");

namespace {

constexpr long long kMaxGridSide = 2048;
constexpr double kMaxClothTilt = 90.0;  // degrees: horizontal, the far side up or down

int count(const Obj& o, const char* key, long long lo, long long hi) {
  return static_cast<int>(o.integer(key, lo, hi));
}

// Before a generator allocates: its requested counts on top of what the scene holds.
void checkRequest(const Obj& o, const MassSpringDef& out, const BodyCounts& more) {
  checkCounts(o.file() + ": " + o.path(), out, more);
}

void parseChain(const Obj& o, MassSpringDef& out) {
  ChainParams p;
  p.start = o.vec("start");
  p.end = o.vec("end");
  p.segments = count(o, "segments", 1, kMaxParticles);
  p.mass = o.positive("mass");
  p.stiffness = o.positive("stiffness");
  p.rest_length = optRest(o);
  p.damping = o.optNonNegative("damping", 0);
  p.fix_start = o.boolean("fix_start", true);
  p.fix_end = o.boolean("fix_end", false);
  p.velocity = o.optVec("velocity", Vec3::Zero());
  if (o.has("end_velocity")) p.end_velocity = o.vec("end_velocity");
  if ((p.end - p.start).norm() == 0 && !p.rest_length) o.fail("end", "must differ from start");
  checkRequest(o, out, {p.segments + 1LL, p.segments, 0});
  addChain(out, p);
}

void parseHangingChain(const Obj& o, MassSpringDef& out) {
  HangingChainParams p;
  p.pivot = o.vec("pivot");
  p.segments = count(o, "segments", 1, kMaxParticles);
  p.segment_length = o.positive("segment_length");
  p.mass = o.positive("mass");
  p.stiffness = o.positive("stiffness");
  p.rest_length = optRest(o);
  p.damping = o.optNonNegative("damping", 0);
  if (o.has("angles")) {
    p.angles = o.numbers("angles");
    if (p.angles.size() != size_t(p.segments))
      o.fail("angles", "must have one angle per segment (" + std::to_string(p.segments) +
                           "), got " + std::to_string(p.angles.size()));
  }
  checkRequest(o, out, {p.segments + 1LL, p.segments, 0});
  addHangingChain(out, p);
}

void parseLoop(const Obj& o, MassSpringDef& out) {
  LoopParams p;
  p.center = o.vec("center");
  p.radius = o.positive("radius");
  p.count = count(o, "count", 3, kMaxParticles);
  p.mass = o.positive("mass");
  p.stiffness = o.positive("stiffness");
  p.rest_length = optRest(o);
  p.damping = o.optNonNegative("damping", 0);
  p.phase = o.optNumber("phase").value_or(0.0);
  p.velocity = o.optVec("velocity", Vec3::Zero());
  checkRequest(o, out, {p.count, p.count, 0});
  addLoop(out, p);
}

void parseSpringPendulum(const Obj& o, MassSpringDef& out) {
  SpringPendulumParams p;
  p.pivot = o.vec("pivot");
  p.bob = o.vec("bob");
  p.mass = o.positive("mass");
  p.stiffness = o.positive("stiffness");
  p.rest_length = optRest(o);
  p.damping = o.optNonNegative("damping", 0);
  p.velocity = o.optVec("velocity", Vec3::Zero());
  checkRequest(o, out, {2, 1, 0});
  addSpringPendulum(out, p);
}

// The names of a table's rows, for commaList (not std::views::transform, whose libstdc++ 12
// ranges clang 14 cannot compile: the fuzz build, docs/fuzzing.md).
template <class Row, size_t N>
std::vector<std::string_view> rowNames(const Row (&table)[N]) {
  std::vector<std::string_view> names;
  for (const Row& row : table) names.emplace_back(row.name);
  return names;
}

// The cloth's "pins" (docs/scenes.md#cloth), in the order its message lists them.
struct PinsName {
  const char* name;
  ClothPins pins;
};

constexpr PinsName kClothPins[] = {{"top_corners", ClothPins::TopCorners},
                                   {"top_edge", ClothPins::TopEdge},
                                   {"all_corners", ClothPins::AllCorners},
                                   {"none", ClothPins::None}};

ClothPins clothPins(const Obj& o) {
  const std::string pins = o.optString("pins").value_or("top_corners");
  for (const PinsName& p : kClothPins)
    if (pins == p.name) return p.pins;
  o.fail("pins", "must be one of " + commaList(rowNames(kClothPins)) + ", not \"" + pins + "\"");
}

// An nx x ny cloth's particles, springs (structural, shear, bending: generators.cpp) and
// triangles.
BodyCounts clothCounts(long long nx, long long ny) {
  const long long structural = nx * (ny - 1) + ny * (nx - 1), shear = 2 * (nx - 1) * (ny - 1);
  const long long bending = (nx - 2) * ny + nx * (ny - 2);
  return {nx * ny, structural + shear + bending, 2 * (nx - 1) * (ny - 1)};
}

void parseCloth(const Obj& o, MassSpringDef& out) {
  ClothParams p;
  p.nx = count(o, "nx", 2, kMaxGridSide);
  p.ny = count(o, "ny", 2, kMaxGridSide);
  p.width = o.positive("width");
  p.height = o.positive("height");
  p.mass = o.positive("mass");
  p.stiffness = o.positive("stiffness");
  if (o.has("shear_stiffness")) p.shear_stiffness = o.positive("shear_stiffness");
  if (o.has("bending_stiffness")) p.bending_stiffness = o.positive("bending_stiffness");
  p.damping = o.optNonNegative("damping", 0);
  p.center = o.optVec("center", Vec3::Zero());
  const std::string orient = o.optString("orientation").value_or("hanging");
  if (orient != "hanging" && orient != "horizontal")
    o.fail("orientation", "must be \"hanging\" or \"horizontal\", not \"" + orient + "\"");
  p.horizontal = orient == "horizontal";
  if (o.has("tilt")) {
    if (p.horizontal) o.fail("tilt", "applies to a hanging cloth only");
    p.tilt = o.number("tilt");
    if (!(std::abs(p.tilt) <= kMaxClothTilt))
      o.fail("tilt", "must be between " + formatNumber(-kMaxClothTilt) + " and " +
                         formatNumber(kMaxClothTilt) + " degrees (got " + formatNumber(p.tilt) +
                         ")");
  }
  p.pins = clothPins(o);
  checkRequest(o, out, clothCounts(p.nx, p.ny));
  addCloth(out, p);
}

// "pin": vertex indices of the mesh, 0-based, each in range.
std::vector<int> meshPins(const Obj& o, size_t vertices) {
  const json& a = o.raw("pin");
  if (!a.is_array()) o.fail("pin", "must be an array of vertex indices (0-based)");
  const std::string range = "must be a vertex index between 0 and " + std::to_string(vertices - 1);
  std::vector<int> pins;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string at = o.file() + ": " + o.at("pin") + "[" + std::to_string(i) + "]: ";
    if (!a[i].is_number_integer()) throw Error(at + range + ", not " + a[i].dump());
    const bool inRange = a[i].is_number_unsigned()
                             ? a[i].get<unsigned long long>() < vertices
                             : a[i].get<long long>() >= 0 &&
                                   a[i].get<long long>() < static_cast<long long>(vertices);
    if (!inRange) throw Error(at + range + " (got " + a[i].dump() + ")");
    pins.push_back(a[i].get<int>());
  }
  return pins;
}

// "pin_box": [[min x, y, z], [max x, y, z]], m, min <= max on every axis.
std::pair<Vec3, Vec3> pinBox(const Obj& o) {
  const json& a = o.raw("pin_box");
  const std::string at = o.at("pin_box");
  auto corner = [&](size_t k) {
    Vec3 c = Vec3::Zero();
    const json& v = a[k];
    if (!v.is_array() || (v.size() != 2 && v.size() != 3))
      throw Error(o.file() + ": " + at + "[" + std::to_string(k) +
                  "]: must be an array of 2 or 3 numbers");
    for (size_t i = 0; i < v.size(); ++i)
      c[Eigen::Index(i)] = finiteNumber(
          v[i], at + "[" + std::to_string(k) + "][" + std::to_string(i) + "]", o.file());
    return c;
  };
  if (!a.is_array() || a.size() != 2) o.fail("pin_box", "must be [[min x, y, z], [max x, y, z]]");
  const std::pair<Vec3, Vec3> box{corner(0), corner(1)};
  for (int k = 0; k < 3; ++k)
    if (box.first[k] > box.second[k])
      o.fail("pin_box", std::string("its min must not exceed its max (") + "xyz"[k] + ": " +
                            formatNumber(box.first[k]) + " > " + formatNumber(box.second[k]) + ")");
  return box;
}

std::string vecText(const Vec3& v) {
  std::string text(1, '[');  // appended: GCC 12 warns falsely on "[" + string (-Wrestrict)
  for (int k = 0; k < 3; ++k) text.append(k ? ", " : "").append(formatNumber(v[k]));
  return text + "]";
}

// The mesh file's own problems ("NAME:LINE: what") under the key that names it, so that the line
// names the scene that loaded the file too: "s.json: system.generators[0].file: flag.obj:12: ...".
template <class Read>
auto inMeshFile(const Obj& o, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const Error& e) {
    o.fail("file", e.what());
  }
}

void parseMesh(const Obj& o, MassSpringDef& out) {
  MeshParams p;
  const std::string file = o.string("file");
  if (file.empty()) o.fail("file", "must name an OBJ file");
  p.mass = o.positive("mass");
  p.stiffness = o.positive("stiffness");
  p.bending_stiffness = o.optNonNegative("bending_stiffness", 0);
  p.damping = o.optNonNegative("damping", 0);
  p.transform.scale = o.optPositive("scale", 1);
  p.transform.rotate_deg = o.optVec("rotate", Vec3::Zero());
  p.transform.translate = o.optVec("translate", Vec3::Zero());
  if (o.has("pin_box")) p.pin_box = pinBox(o);
  const util::Expected<SceneMesh> mesh =
      inMeshFile(o, [&] { return readSceneMesh(o.file(), file); });
  if (!mesh) o.fail("file", mesh.problem());
  if (o.has("pin")) p.pin = meshPins(o, mesh->mesh.vertices.size());
  // its springs (one per edge, and with bending one across each) are counted once added: at most
  // 4.5 per triangle of a mesh within kMaxObjTriangles
  checkRequest(o, out,
               {static_cast<long long>(mesh->mesh.vertices.size()), 0,
                static_cast<long long>(mesh->mesh.triangles.size())});
  const MeshSummary s = inMeshFile(o, [&] { return addMesh(out, mesh->mesh, p, mesh->shown); });
  // a box that holds nothing is a typo (the wrong units, a translate forgotten): say where the
  // mesh is
  if (p.pin_box && s.box_pinned == 0)
    o.fail("pin_box", "pins no vertex: the mesh spans " + vecText(s.lo) + " to " + vecText(s.hi) +
                          " after its transform");
}

// ---- lattice (docs/scenes.md#lattice) -----------------------------------------------------------

// The grid points along each axis of `size` at `spacing`, checked: at least 2 along each axis and
// at most kMaxLatticeCells cells, before anything is allocated (and before any count could
// overflow). `what` names the size in messages.
std::array<int, 3> latticeCounts(const Obj& o, const std::string& key, const std::string& what,
                                 const Vec3& size, double spacing) {
  const std::string tooMany = formatNumber(spacing) + " m makes more than the " +
                              std::to_string(kMaxLatticeCells) + " cells a lattice may have";
  std::array<double, 3> n{};
  for (int a = 0; a < 3; ++a) {
    if (size[a] / double(kMaxLatticeCells) > spacing) o.fail("spacing", tooMany);
    n[size_t(a)] = latticePointsAlong(size[a], spacing);
    if (n[size_t(a)] < 2)
      o.fail(key, what + formatNumber(size[a]) + " m along " + "xyz"[a] + " at spacing " +
                      formatNumber(spacing) + " m gives " + formatNumber(n[size_t(a)]) +
                      " grid point (round(size / spacing) + 1); a lattice needs at least 2 along "
                      "each axis");
  }
  if ((n[0] - 1) * (n[1] - 1) * (n[2] - 1) > double(kMaxLatticeCells)) o.fail("spacing", tooMany);
  return {int(n[0]), int(n[1]), int(n[2])};
}

// The physical keys every shape shares.
LatticeParams latticeParams(const Obj& o) {
  LatticeParams p;
  p.mass = o.positive("mass");
  p.stiffness = o.positive("stiffness");
  if (o.has("shear_stiffness")) p.shear_stiffness = o.positive("shear_stiffness");
  p.bending_stiffness = o.optNonNegative("bending_stiffness", 0);
  p.damping = o.optNonNegative("damping", 0);
  p.velocity = o.optVec("velocity", Vec3::Zero());
  if (o.has("pin_box")) p.pin_box = pinBox(o);
  return p;
}

constexpr const char* kLatticeShapes[] = {"box", "ellipsoid", "mesh"};
constexpr const char* kMeshOnlyKeys[] = {"file", "scale", "rotate", "translate"};

// A box's or an ellipsoid's grid (size and center) and the points it holds.
std::vector<char> shapeOccupancy(const Obj& o, const std::string& shape, LatticeGrid& g) {
  for (const char* key : kMeshOnlyKeys)
    if (o.has(key)) o.fail(key, "applies to the mesh shape only");
  const Vec3 size = o.vec("size");
  for (int a = 0; a < 3; ++a)
    if (!(size[a] > 0))
      o.fail("size",
             std::string("must be > 0 along ") + "xyz"[a] + " (got " + formatNumber(size[a]) + ")");
  g.center = o.optVec("center", Vec3::Zero());
  g.n = latticeCounts(o, "size", "", size, g.spacing);
  return shape == "box" ? boxOccupancy(g) : ellipsoidOccupancy(g, size);
}

// The closed OBJ a lattice fills (relative to the scene file's folder, as the mesh generator's),
// transformed.
ObjMesh latticeMesh(const Obj& o) {
  const std::string file = o.string("file");
  if (file.empty()) o.fail("file", "must name an OBJ file");
  util::Expected<SceneMesh> read = inMeshFile(o, [&] { return readSceneMesh(o.file(), file); });
  if (!read) o.fail("file", read.problem());
  MeshTransform t;
  t.scale = o.optPositive("scale", 1);
  t.rotate_deg = o.optVec("rotate", Vec3::Zero());
  t.translate = o.optVec("translate", Vec3::Zero());
  for (Vec3& v : read->mesh.vertices) v = applyTransform(t, v);
  if (const auto edge = openEdge(read->mesh.triangles))
    o.fail("file", read->shown + ": the mesh is not closed: its edge from vertex " +
                       std::to_string((*edge)[0] + 1) + " to " + std::to_string((*edge)[1] + 1) +
                       " (1-based, as in the file) borders an odd number of triangles");
  return std::move(read->mesh);
}

// A mesh's grid (its bounding box's size and centre) and the points inside it.
std::vector<char> meshLatticeOccupancy(const Obj& o, LatticeGrid& g) {
  if (o.has("size")) o.fail("size", "does not apply to the mesh shape: the grid spans its mesh");
  if (o.has("center"))
    o.fail("center",
           "does not apply to the mesh shape: the grid is centred on its mesh (move it with "
           "translate)");
  const ObjMesh mesh = latticeMesh(o);
  const auto [lo, hi] = boundingBox(mesh.vertices);
  g.center = 0.5 * (lo + hi);
  g.n = latticeCounts(o, "file", "the mesh spans ", hi - lo, g.spacing);
  return meshOccupancy(g, mesh.vertices, mesh.triangles);
}

void parseLattice(const Obj& o, MassSpringDef& out) {
  const std::string shape = o.optString("shape").value_or("box");
  if (std::ranges::find(kLatticeShapes, shape) == std::end(kLatticeShapes))
    o.fail("shape", "must be one of " + commaList(kLatticeShapes) + ", not \"" + shape + "\"");
  LatticeGrid g;
  g.spacing = o.positive("spacing");
  const std::vector<char> occupied =
      shape == "mesh" ? meshLatticeOccupancy(o, g) : shapeOccupancy(o, shape, g);
  const LatticeParams p = latticeParams(o);
  // at most the occupied points become particles; the springs (up to 13 a particle) are counted
  // once added, within the cells' limit
  checkRequest(o, out, {std::ranges::count_if(occupied, [](char c) { return c != 0; }), 0, 0});
  const LatticeCounts counts = addLattice(out, g, occupied, p);
  if (counts.particles == 0)
    o.failHere("the " + shape + " holds no two neighbouring grid points at spacing " +
               formatNumber(g.spacing) + " m");
  // a box that holds nothing is a typo (the wrong units, a centre moved): say where the body is
  if (p.pin_box && counts.pinned == 0)
    o.fail("pin_box", "pins no particle: the lattice spans " + vecText(counts.lo) + " to " +
                          vecText(counts.hi));
}

// One generator kind: its name (the message for an unknown kind lists them all), its keys and the
// function that reads them and adds its particles.
struct GeneratorKind {
  const char* name;
  std::initializer_list<const char*> keys;
  void (*parse)(const Obj&, MassSpringDef&);
};

const GeneratorKind kGenerators[] = {
    {"chain",
     {"kind", "start", "end", "segments", "mass", "stiffness", "rest_length", "damping",
      "fix_start", "fix_end", "velocity", "end_velocity"},
     parseChain},
    {"hanging_chain",
     {"kind", "pivot", "segments", "segment_length", "mass", "stiffness", "rest_length", "damping",
      "angles"},
     parseHangingChain},
    {"loop",
     {"kind", "center", "radius", "count", "mass", "stiffness", "rest_length", "damping", "phase",
      "velocity"},
     parseLoop},
    {"spring_pendulum",
     {"kind", "pivot", "bob", "mass", "stiffness", "rest_length", "damping", "velocity"},
     parseSpringPendulum},
    {"cloth",
     {"kind", "nx", "ny", "width", "height", "mass", "stiffness", "shear_stiffness",
      "bending_stiffness", "damping", "center", "orientation", "tilt", "pins"},
     parseCloth},
    {"mesh",
     {"kind", "file", "mass", "stiffness", "bending_stiffness", "damping", "scale", "rotate",
      "translate", "pin", "pin_box"},
     parseMesh},
    {"lattice",
     {"kind", "shape", "size", "spacing", "center", "mass", "stiffness", "shear_stiffness",
      "bending_stiffness", "damping", "velocity", "pin_box", "file", "scale", "rotate",
      "translate"},
     parseLattice},
};

}  // namespace

void expandGenerator(const json& j, const std::string& path, const std::string& file,
                     MassSpringDef& out) {
  if (!j.is_object() || !j.contains("kind"))
    throw Error(file + ": " + path + ": must be an object with a \"kind\"");
  const json& kind = j.at("kind");
  if (!kind.is_string()) throw Error(file + ": " + path + ".kind: must be a string");
  const std::string k = kind.get<std::string>();
  const GeneratorKind* g = nullptr;
  for (const auto& candidate : kGenerators)
    if (k == candidate.name) g = &candidate;
  if (!g)
    throw Error(file + ": " + path + ".kind: unknown generator \"" + k +
                "\" (known: " + commaList(rowNames(kGenerators)) + ")");
  g->parse(Obj(j, path, file, g->keys), out);
  checkCounts(file + ": " + path, out, {});
}

void checkCounts(const std::string& where, const MassSpringDef& out, const BodyCounts& more) {
  const auto check = [&where](size_t has, long long adds, long long limit, const char* what) {
    const long long total = static_cast<long long>(has) + adds;
    if (total > limit)
      throw Error(where + ": the scene would have " + std::to_string(total) + " " + what +
                  ", more than the " + std::to_string(limit) + " a scene may have");
  };
  check(out.particles.size(), more.particles, kMaxParticles, "particles");
  check(out.springs.size(), more.springs, kMaxSprings, "springs");
  check(out.triangles.size(), more.triangles, kMaxTriangles, "triangles");
}

}  // namespace scene::detail
