// The generators' keys (docs/scenes.md#generators): each kind's allowed keys, their checks and the
// scene::addX of generators.hpp that expands them.
#include <ranges>
#include <string>

#include "scene/generators.hpp"
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
