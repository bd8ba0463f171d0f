#include "scene/load.hpp"

#include <fstream>
#include <sstream>

#include "scene/catalog.hpp"
#include "scene/load_parts.hpp"
#include "sim/contacts.hpp"
#include "sim/xpbd.hpp"

namespace scene {
namespace detail {

std::optional<double> optRest(const Obj& o) {
  if (!o.has("rest_length")) return std::nullopt;
  return o.nonNegative("rest_length");
}

}  // namespace detail

namespace {

using detail::expandGenerator;
using detail::json;
using detail::kMaxParticles;
using detail::Obj;
using detail::optRest;

void parseParticles(const Obj& sys, MassSpringDef& def) {
  const json& ps = sys.raw("particles");
  if (!ps.is_array()) sys.fail("particles", "must be an array");
  if (ps.size() > size_t(kMaxParticles)) sys.fail("particles", "too many particles");
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

MassSpringDef parseMassSpring(const Obj& sys) {
  MassSpringDef def;
  def.drag = sys.optNonNegative("drag", 0.0);
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
  def.wind = sys.optVec("wind", Vec3::Zero());
  if (def.wind != Vec3::Zero() && def.drag == 0.0)
    sys.fail("wind", "acts through the drag: set system.drag > 0");
  return def;
}

PendulumDef parsePendulum(const Obj& sys) {
  PendulumDef def;
  def.pivot = sys.optVec("pivot", Vec3::Zero());
  def.joint_damping = sys.optNonNegative("joint_damping", 0.0);
  if (sys.has("uniform")) {
    // springlab's generator: n equal links (docs/scenes.md)
    for (const char* k : {"lengths", "masses", "angles", "angular_velocities"})
      if (sys.has(k)) sys.fail(k, "cannot be combined with \"uniform\"");
    Obj u(sys.raw("uniform"), sys.at("uniform"), sys.file(),
          {"links", "length", "mass", "angle", "angular_velocity"});
    const int n = static_cast<int>(u.integer("links", 1, kMaxParticles));
    def.lengths.assign(n, u.positive("length"));
    def.masses.assign(n, u.positive("mass"));
    def.angles.assign(n, u.optNumber("angle").value_or(0.0));
    def.angular_velocities.assign(n, u.optNumber("angular_velocity").value_or(0.0));
    return def;
  }
  def.lengths = sys.numbers("lengths");
  const size_t n = def.lengths.size();
  if (n == 0) sys.fail("lengths", "must have at least one link");
  auto positiveEach = [&](const char* key, const std::vector<double>& v) {
    for (size_t i = 0; i < v.size(); ++i)
      if (!(v[i] > 0))
        throw Error(sys.file() + ": " + sys.at(key) + "[" + std::to_string(i) +
                    "]: must be > 0 (got " + detail::formatNumber(v[i]) + ")");
  };
  positiveEach("lengths", def.lengths);
  auto sameLength = [&](const char* key, std::vector<double>& v) {
    if (v.size() != n)
      sys.fail(key, "has " + std::to_string(v.size()) + " values but lengths has " +
                        std::to_string(n) + " (one per link)");
  };
  def.masses = sys.numbers("masses");
  sameLength("masses", def.masses);
  positiveEach("masses", def.masses);
  def.angles = sys.numbers("angles");
  sameLength("angles", def.angles);
  if (sys.has("angular_velocities")) {
    def.angular_velocities = sys.numbers("angular_velocities");
    sameLength("angular_velocities", def.angular_velocities);
  } else {
    def.angular_velocities.assign(n, 0.0);
  }
  return def;
}

}  // namespace

namespace {

// The top level's "render" section (docs/scenes.md#render): display only, no physics.
RenderDef parseRender(const Obj& top, const json& root) {
  RenderDef out;
  if (!top.has("render")) return out;
  const Obj r(root.at("render"), "render", top.file(),
              {"camera", "strain_scale", "show_points", "show_springs"});
  if (r.has("camera")) {
    const Obj c(r.raw("camera"), r.at("camera"), r.file(),
                {"target", "distance", "yaw", "pitch", "fov", "orbit"});
    CameraDef& cam = out.camera;
    if (c.has("target")) cam.target = c.vec("target");
    if (c.has("distance")) cam.distance = c.positive("distance");
    cam.yaw_deg = c.optNumber("yaw");
    if (c.has("pitch")) {
      const double p = c.number("pitch");
      if (!(p > -kMaxPitchDeg && p < kMaxPitchDeg))
        c.fail("pitch",
               "must be between -89.9 and 89.9 degrees (got " + detail::formatNumber(p) + ")");
      cam.pitch_deg = p;
    }
    if (c.has("fov")) {
      const double f = c.number("fov");
      if (!(f >= kMinFovDeg && f <= kMaxFovDeg))
        c.fail("fov", "must be between 5 and 120 degrees (got " + detail::formatNumber(f) + ")");
      cam.fov_deg = f;
    }
    cam.orbit_deg_per_s = c.optNumber("orbit").value_or(0.0);
  }
  if (r.has("strain_scale")) {
    const double s = r.number("strain_scale");
    if (!(s > 0 && s <= kMaxStrainScale))
      r.fail("strain_scale", "must be > 0 and <= 10 (got " + detail::formatNumber(s) + ")");
    out.strain_scale = s;
  }
  if (r.has("show_points")) out.show_points = r.boolean("show_points", false);
  if (r.has("show_springs")) out.show_springs = r.boolean("show_springs", false);
  return out;
}

// "line L, column C" of the byte at `pos` in `text` (both counted from 1)
std::string lineColumn(std::string_view text, size_t pos) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < std::min(pos, text.size()); ++i) {
    if (text[i] == '\n')
      ++line, col = 1;
    else
      ++col;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

// The JSON document, or an Error naming the line and column of the problem.
json parseJson(std::string_view text, const std::string& origin) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    // nlohmann's message: "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
    const auto colon = what.find(": ", what.find("parse error"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    // e.byte is 1-based: the byte where parsing stopped
    throw Error(origin + ": " + lineColumn(text, e.byte > 0 ? e.byte - 1 : 0) +
                ": invalid JSON: " + what);
  } catch (const json::out_of_range& e) {
    // a number too large for a double ("1e999"): name where it stands
    const std::string what = e.what();
    const auto q1 = what.find('\''), q2 = what.rfind('\'');
    if (q1 == std::string::npos || !(q2 > q1)) throw Error(origin + ": invalid JSON: " + what);
    const std::string token = what.substr(q1 + 1, q2 - q1 - 1);
    const auto pos = text.find(token);
    const std::string where = pos == std::string_view::npos ? "" : lineColumn(text, pos) + ": ";
    throw Error(origin + ": " + where + "number " + token + " is out of range (must be finite)");
  } catch (const json::exception& e) {
    throw Error(origin + ": invalid JSON: " + std::string(e.what()));
  }
}

// def.kind and def.mass_spring or def.pendulum from the top level's "system".
void parseSystem(const Obj& top, const json& root, SceneDef& def) {
  const std::string& origin = top.file();
  if (!top.has("system")) top.fail("system", "required key is missing");
  const json& sysj = root.at("system");
  if (!sysj.is_object()) top.fail("system", "must be an object");
  if (!sysj.contains("type")) throw Error(origin + ": system.type: required key is missing");
  if (!sysj.at("type").is_string()) throw Error(origin + ": system.type: must be a string");
  const std::string type = sysj.at("type").get<std::string>();
  if (type == "mass_spring") {
    Obj sys(sysj, "system", origin,
            {"type", "drag", "tethers", "wind", "colliders", "particles", "springs", "generators",
             "triangles"});
    def.kind = sim::SystemKind::MassSpring;
    def.mass_spring = parseMassSpring(sys);
  } else if (type == "pendulum") {
    Obj sys(sysj, "system", origin,
            {"type", "pivot", "lengths", "masses", "angles", "angular_velocities", "joint_damping",
             "uniform"});
    def.kind = sim::SystemKind::Pendulum;
    def.pendulum = parsePendulum(sys);
  } else {
    throw Error(origin + ": system.type: must be \"mass_spring\" or \"pendulum\", not \"" + type +
                "\"");
  }
}

}  // namespace

SceneDef parse(std::string_view text, const std::string& origin) {
  const json root = parseJson(text, origin);
  Obj top(root, "", origin,
          {"name", "description", "gravity", "integrator", "dt", "duration", "substeps",
           "iterations", "system", "ui", "render"});
  SceneDef def;
  def.name = top.optString("name").value_or("");
  def.description = top.optString("description").value_or("");
  def.gravity = top.optVec("gravity", def.gravity);
  def.dt = top.optPositive("dt", def.dt);
  def.duration = top.optNonNegative("duration", def.duration);
  if (top.has("substeps"))
    def.substeps = static_cast<int>(top.integer("substeps", 1, sim::kMaxSubsteps));
  if (top.has("iterations"))
    def.iterations = static_cast<int>(top.integer("iterations", 1, sim::kMaxIterations));
  parseSystem(top, root, def);
  if (def.kind == sim::SystemKind::Pendulum)
    for (const char* key : {"substeps", "iterations"})
      if (top.has(key)) top.fail(key, "a pendulum has no springs to project (xpbd's setting)");
  def.render = parseRender(top, root);
  const std::string integ = top.optString("integrator").value_or("rk4");
  const auto lookup = sim::lookupIntegrator(integ, def.kind);
  if (!lookup.method) top.fail("integrator", lookup.error);
  def.integrator = *lookup.method;
  return def;
}

SceneDef loadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw Error(path + ": cannot read the file");
  return parse(ss.str(), path);
}

SceneDef loadSceneArg(const std::string& arg) {
  if (const auto* text = findBuiltin(arg)) return parse(*text, "builtin:" + arg);
  std::ifstream probe(arg);
  const bool looksLikePath = arg.find('/') != std::string::npos || arg.ends_with(".json");
  if (!probe && !looksLikePath)
    throw Error(arg + ": no such file and no built-in scene of that name (see springlab list)");
  return loadFile(arg);
}

}  // namespace scene
