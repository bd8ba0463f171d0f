// A mass-spring system (docs/scenes.md#mass-spring-systems): its particles, the generators'
// expansion, its springs, triangles, colliders, drag and wind.
#include <string>

#include "scene/load_parts.hpp"
#include "sim/contacts.hpp"

namespace scene::detail {

std::optional<double> optRest(const Obj& o) {
  if (!o.has("rest_length")) return std::nullopt;
  return o.nonNegative("rest_length");
}

namespace {

void parseParticles(const Obj& sys, MassSpringDef& def) {
  const json& ps = sys.raw("particles");
  if (!ps.is_array()) sys.fail("particles", "must be an array");
  checkCounts(sys.file() + ": " + sys.at("particles"), def,
              {static_cast<long long>(ps.size()), 0, 0});
  for (size_t i = 0; i < ps.size(); ++i) {
    Obj p(ps[i], sys.at("particles") + "[" + std::to_string(i) + "]", sys.file(),
          {"position", "velocity", "mass", "fixed"});
    ParticleDef d;
    d.position = p.vec("position");
    d.fixed = p.boolean("fixed", false);
    d.velocity = p.optVec("velocity", Vec3::Zero());
    if (d.fixed) {
      // a fixed particle may carry any mass, which is ignored (docs/scenes.md); still a number
      if (p.has("mass")) p.number("mass");
      if (d.velocity != Vec3::Zero()) p.fail("velocity", "must be zero for a fixed particle");
    } else {
      d.mass = p.positive("mass");
    }
    def.particles.push_back(d);
  }
}

// The explicit springs, joining particles 0 .. n - 1, go first, so that "springs[i]" in a message
// is spring i of the system.
void parseSprings(const Obj& sys, long long n, MassSpringDef& def) {
  const json& ss = sys.raw("springs");
  if (!ss.is_array()) sys.fail("springs", "must be an array");
  checkCounts(sys.file() + ": " + sys.at("springs"), def,
              {0, static_cast<long long>(ss.size()), 0});
  std::vector<SpringDef> explicitSprings;
  for (size_t i = 0; i < ss.size(); ++i) {
    Obj s(ss[i], sys.at("springs") + "[" + std::to_string(i) + "]", sys.file(),
          {"a", "b", "stiffness", "rest_length", "damping"});
    SpringDef d;
    d.a = static_cast<int>(s.integer("a", 0, n - 1));
    d.b = static_cast<int>(s.integer("b", 0, n - 1));
    if (d.a == d.b)
      s.fail("b", "a spring cannot join particle " + std::to_string(d.a) + " to itself");
    d.stiffness = s.positive("stiffness");
    d.rest_length = optRest(s);
    d.damping = s.optNonNegative("damping", 0.0);
    explicitSprings.push_back(d);
  }
  def.springs.insert(def.springs.begin(), explicitSprings.begin(), explicitSprings.end());
}

// springlab's extension: a display surface, three distinct particle indices (of 0 .. n - 1) each
void parseTriangles(const Obj& sys, long long n, MassSpringDef& def) {
  const std::string& file = sys.file();
  const json& ts = sys.raw("triangles");
  if (!ts.is_array()) sys.fail("triangles", "must be an array of [a, b, c] index triples");
  checkCounts(sys.at("triangles").insert(0, file + ": "), def,
              {0, 0, static_cast<long long>(ts.size())});
  for (size_t i = 0; i < ts.size(); ++i) {
    const std::string path = sys.at("triangles") + "[" + std::to_string(i) + "]";
    if (!ts[i].is_array() || ts[i].size() != 3)
      throw Error(file + ": " + path + ": must be an array of 3 particle indices");
    std::array<int, 3> t{};
    for (int c = 0; c < 3; ++c) {
      const json& v = ts[i][c];
      const std::string at = path + "[" + std::to_string(c) + "]";
      if (!v.is_number_integer()) throw Error(file + ": " + at + ": must be an integer");
      const long long k =
          v.is_number_unsigned()
              ? static_cast<long long>(std::min<unsigned long long>(v.get<unsigned long long>(), n))
              : v.get<long long>();
      if (k < 0 || k >= n)
        throw Error(file + ": " + at + ": must be between 0 and " + std::to_string(n - 1));
      t[c] = static_cast<int>(k);
    }
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
      throw Error(file + ": " + path + ": the three indices must differ");
    def.triangles.push_back(t);
  }
  // the generators' coarse meshes do not know these triangles: the shadow and the far view draw
  // the whole surface instead
  def.shadow_triangles.clear();
  def.surface_levels.clear();
}

sim::Collider parseCollider(const json& j, const std::string& path, const std::string& file) {
  if (!j.is_object()) throw Error(file + ": " + path + ": must be an object");
  Obj c(j, path, file, {"type", "point", "normal", "center", "radius", "friction"});
  sim::Collider col;
  col.friction = c.optNonNegative("friction", 0.0);
  const std::string type = c.string("type");
  if (type == "plane") {
    for (const char* key : {"center", "radius"})
      if (c.has(key)) c.fail(key, "belongs to a sphere, not a plane");
    col.shape = sim::Collider::Shape::Plane;
    col.point = c.optVec("point", Vec3::Zero());
    const Vec3 normal = c.vec("normal");
    if (!(normal.norm() > 0.0)) c.fail("normal", "must not be the zero vector");
    col.normal = normal.normalized();
  } else if (type == "sphere") {
    for (const char* key : {"point", "normal"})
      if (c.has(key)) c.fail(key, "belongs to a plane, not a sphere");
    col.shape = sim::Collider::Shape::Sphere;
    col.point = c.vec("center");
    col.radius = c.positive("radius");
  } else {
    c.fail("type", "must be \"plane\" or \"sphere\", not \"" + type + "\"");
  }
  return col;
}

// springlab's extension: static colliders (docs/scenes.md#colliders). No free particle may start
// inside one: it would be thrown out on the first step.
void parseColliders(const Obj& sys, MassSpringDef& def) {
  const json& cs = sys.raw("colliders");
  if (!cs.is_array()) sys.fail("colliders", "must be an array of plane or sphere objects");
  for (size_t i = 0; i < cs.size(); ++i) {
    const std::string path = sys.at("colliders") + "[" + std::to_string(i) + "]";
    const sim::Collider c = parseCollider(cs[i], path, sys.file());
    for (size_t k = 0; k < def.particles.size(); ++k) {
      const ParticleDef& p = def.particles[k];
      if (!p.fixed && sim::pushOut(c, p.position, p.position))
        throw Error(sys.file() + ": " + path + ": particle " + std::to_string(k) +
                    " starts inside it");
    }
    def.colliders.push_back(c);
  }
}

// springlab's extension: self-collision (docs/scenes.md#self-collision), an object with exactly
// its thickness.
void parseSelfCollision(const Obj& sys, MassSpringDef& def) {
  const Obj o(sys.raw("self_collision"), sys.at("self_collision"), sys.file(), {"thickness"});
  def.self_thickness = o.positive("thickness");
}

}  // namespace

MassSpringDef parseMassSpring(const json& system, const std::string& file,
                              sim::ParameterValues& values) {
  const Obj sys(system, "system", file,
                withParameterKeys({"type", "tethers", "colliders", "particles", "springs",
                                   "generators", "triangles", "self_collision"},
                                  sim::SceneSlot::System));
  parseParameters(sys, sim::SceneSlot::System, sim::SystemKind::MassSpring, values);
  MassSpringDef def;
  def.tethers = sys.boolean("tethers", false);
  const bool hasGen = sys.has("generators");
  if (!hasGen && !sys.has("particles")) sys.fail("particles", "required key is missing");
  if (sys.has("particles")) parseParticles(sys, def);
  if (hasGen) {
    const json& gs = sys.raw("generators");
    if (!gs.is_array()) sys.fail("generators", "must be an array");
    for (size_t i = 0; i < gs.size(); ++i)
      expandGenerator(gs[i], sys.at("generators") + "[" + std::to_string(i) + "]", sys.file(), def);
  }
  if (def.particles.empty()) sys.failHere("the system has no particles");
  const long long n = static_cast<long long>(def.particles.size());
  if (sys.has("springs")) parseSprings(sys, n, def);
  if (sys.has("triangles")) parseTriangles(sys, n, def);
  if (sys.has("colliders")) parseColliders(sys, def);
  if (sys.has("self_collision")) parseSelfCollision(sys, def);
  checkActsThrough(sys, sim::SceneSlot::System, sim::SystemKind::MassSpring, values);
  return def;
}

}  // namespace scene::detail
