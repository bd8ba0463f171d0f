// The generators' keys (docs/scenes.md#generators): each kind's allowed keys, their checks and the
// scene::addX of generators.hpp that expands them.
#include <algorithm>
#include <ranges>
#include <string>

#include "scene/generators.hpp"
#include "scene/lattice.hpp"
#include "scene/load_parts.hpp"

namespace scene::detail {
namespace {

constexpr long long kMaxGridSide = 2048;
constexpr double kMaxClothTilt = 90.0;  // degrees: horizontal, the far side up or down

int count(const Obj& o, const char* key, long long lo, long long hi) {
  return static_cast<int>(o.integer(key, lo, hi));
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
  addSpringPendulum(out, p);
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
  o.fail("pins", "must be one of " + commaList(std::views::transform(kClothPins, &PinsName::name)) +
                     ", not \"" + pins + "\"");
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
  addCloth(out, p);
}

// ---- lattice (docs/scenes.md#lattice) -----------------------------------------------------------

// A lattice's "pin_box": [[min x, y, z], [max x, y, z]], m, min <= max along every axis (the
// messages those of the mesh generator's pin_box).
std::array<Vec3, 2> latticePinBox(const Obj& o) {
  const json& v = o.raw("pin_box");
  if (!v.is_array() || v.size() != 2) o.fail("pin_box", "must be [[min x, y, z], [max x, y, z]]");
  std::array<Vec3, 2> box{Vec3::Zero(), Vec3::Zero()};
  for (size_t c = 0; c < 2; ++c) {
    const std::string at = o.at("pin_box") + "[" + std::to_string(c) + "]";
    if (!v[c].is_array() || (v[c].size() != 2 && v[c].size() != 3))
      throw Error(o.file() + ": " + at + ": must be an array of 2 or 3 numbers");
    for (size_t i = 0; i < v[c].size(); ++i)
      box[c][Eigen::Index(i)] = finiteNumber(v[c][i], at + "[" + std::to_string(i) + "]", o.file());
  }
  for (int a = 0; a < 3; ++a)
    if (box[0][a] > box[1][a])
      o.fail("pin_box", std::string("its min must not exceed its max (") + "xyz"[a] + ": " +
                            formatNumber(box[0][a]) + " > " + formatNumber(box[1][a]) + ")");
  return box;
}

// "[x, y, z]" for messages.
std::string latticeVecText(const Vec3& v) {
  std::string text(1, '[');  // appended: GCC 12 warns falsely on "[" + string (-Wrestrict)
  for (int k = 0; k < 3; ++k) text.append(k ? ", " : "").append(formatNumber(v[k]));
  return text + "]";
}

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
  p.damping = o.optNonNegative("damping", 0);
  p.velocity = o.optVec("velocity", Vec3::Zero());
  if (o.has("pin_box")) p.pin_box = latticePinBox(o);
  return p;
}

constexpr const char* kLatticeShapes[] = {"box", "ellipsoid", "mesh"};
constexpr const char* kMeshOnlyKeys[] = {"file", "scale", "rotate", "translate"};

void parseLattice(const Obj& o, MassSpringDef& out) {
  const std::string shape = o.optString("shape").value_or("box");
  if (std::ranges::find(kLatticeShapes, shape) == std::end(kLatticeShapes))
    o.fail("shape", "must be one of " + commaList(kLatticeShapes) + ", not \"" + shape + "\"");
  if (shape == "mesh") o.fail("shape", "\"mesh\" is not available yet");
  for (const char* key : kMeshOnlyKeys)
    if (o.has(key)) o.fail(key, "applies to the mesh shape only");
  const Vec3 size = o.vec("size");
  for (int a = 0; a < 3; ++a)
    if (!(size[a] > 0))
      o.fail("size",
             std::string("must be > 0 along ") + "xyz"[a] + " (got " + formatNumber(size[a]) + ")");
  LatticeGrid g;
  g.spacing = o.positive("spacing");
  g.center = o.optVec("center", Vec3::Zero());
  g.n = latticeCounts(o, "size", "", size, g.spacing);
  const LatticeParams p = latticeParams(o);
  const std::vector<char> occupied = shape == "box" ? boxOccupancy(g) : ellipsoidOccupancy(g, size);
  const LatticeCounts counts = addLattice(out, g, occupied, p);
  if (counts.particles == 0)
    o.failHere("the " + shape + " holds no two neighbouring grid points at spacing " +
               formatNumber(g.spacing) + " m");
  // a box that holds nothing is a typo (the wrong units, a centre moved): say where the body is
  if (p.pin_box && counts.pinned == 0)
    o.fail("pin_box", "pins no particle: the lattice spans " + latticeVecText(counts.lo) + " to " +
                          latticeVecText(counts.hi));
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
    {"lattice",
     {"kind", "shape", "size", "spacing", "center", "mass", "stiffness", "shear_stiffness",
      "damping", "velocity", "pin_box", "file", "scale", "rotate", "translate"},
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
    throw Error(file + ": " + path + ".kind: unknown generator \"" + k + "\" (known: " +
                commaList(std::views::transform(kGenerators, &GeneratorKind::name)) + ")");
  g->parse(Obj(j, path, file, g->keys), out);
  if (out.particles.size() > size_t(kMaxParticles))
    throw Error(file + ": " + path + ": the scene would have more than " +
                std::to_string(kMaxParticles) + " particles");
}

}  // namespace scene::detail
