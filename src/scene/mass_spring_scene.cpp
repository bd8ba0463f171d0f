// The mass-spring kind in scene files (docs/scenes.md#mass-spring-systems): its system built from
// a definition, written back (every particle, spring, triangle and collider), taken back from a
// running system, and its size; read by load_mass_spring.cpp. Listed in kinds.cpp.
#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "scene/kinds.hpp"
#include "scene/load_parts.hpp"
#include "scene/writer.hpp"
#include "sim/forces.hpp"

namespace scene::detail {

namespace {
// Each free particle is tethered to its kTethersPerParticle nearest fixed particles at the
// distance it starts from them (docs/integrators.md#tethers): for a sheet that starts flat and
// unstretched, as the generators' cloths do, that is the length of the straight path through the
// material, so a tether only acts once the sheet is stretched.
constexpr int kTethersPerParticle = 2;
void addTethers(sim::MassSpringModel& m, const Eigen::VectorXd& x) {
  std::vector<int> anchors;
  for (int i = 0; i < m.particles(); ++i)
    if (m.fixed(i)) anchors.push_back(i);
  const int per = std::min<int>(kTethersPerParticle, static_cast<int>(anchors.size()));
  std::vector<std::pair<double, int>> nearest(anchors.size());
  std::vector<double> lengths;
  for (int i = 0; i < m.particles(); ++i) {
    if (m.fixed(i)) continue;
    for (size_t a = 0; a < anchors.size(); ++a)
      nearest[a] = {(x.segment<3>(3 * anchors[a]) - x.segment<3>(3 * i)).norm(), anchors[a]};
    std::partial_sort(nearest.begin(), nearest.begin() + per, nearest.end());
    for (int k = 0; k < per; ++k) {
      m.tether_particle.push_back(i);
      m.tether_anchor.push_back(nearest[k].second);
      lengths.push_back(nearest[k].first);
    }
  }
  m.tether_length = Eigen::Map<const Eigen::VectorXd>(lengths.data(), Eigen::Index(lengths.size()));
}

// Nothing can move a particle out of the x-y plane (colliders and wind included): the model is
// then 2-D (docs/scenes.md#planar-scenes).
bool isPlanar(const SceneDef& def) {
  const auto& ms = def.mass_spring;
  bool planar = def.gravity().z() == 0.0 && def.parameters.vector(sim::Parameter::Wind).z() == 0.0;
  for (const sim::Collider& c : ms.colliders)
    planar = planar &&
             (c.shape == sim::Collider::Shape::Plane ? c.normal.z() == 0.0 : c.point.z() == 0.0);
  for (const auto& p : ms.particles)
    planar = planar && p.position.z() == 0.0 && p.velocity.z() == 0.0;
  return planar;
}

// The masses and the initial state: a fixed particle has mass and inverse mass 0 and stands still.
void setParticles(const MassSpringDef& ms, sim::MassSpringModel& m, sim::State& state) {
  const int n = static_cast<int>(ms.particles.size());
  m.mass.resize(n);
  m.inv_mass.resize(n);
  state.x.resize(3 * n);
  state.v.resize(3 * n);
  for (int i = 0; i < n; ++i) {
    const auto& p = ms.particles[i];
    m.mass[i] = p.fixed ? 0.0 : p.mass;
    m.inv_mass[i] = p.fixed ? 0.0 : 1.0 / p.mass;
    state.x.segment<3>(3 * i) = p.position;
    state.v.segment<3>(3 * i) = p.fixed ? Vec3::Zero() : p.velocity;
  }
}

// Three indices a triangle, flat, as the renderer's index buffers take them.
std::vector<std::uint32_t> flatIndices(const std::vector<std::array<int, 3>>& triangles) {
  std::vector<std::uint32_t> indices;
  for (const auto& t : triangles)
    for (int v : t) indices.push_back(static_cast<std::uint32_t>(v));
  return indices;
}

// The display surfaces (the surface, its shadow's, its coarser levels) as index arrays.
void setSurfaces(const MassSpringDef& ms, Built& out) {
  out.triangles = flatIndices(ms.triangles);
  out.shadow_triangles = flatIndices(ms.shadow_triangles);
  for (const auto& level : ms.surface_levels) out.surface_levels.push_back(flatIndices(level));
}

// The springs' arrays; an unset rest length is the initial distance (docs/scenes.md#springs).
void setSprings(const MassSpringDef& ms, sim::MassSpringModel& m) {
  const int ns = static_cast<int>(ms.springs.size());
  m.spring_a.resize(ns);
  m.spring_b.resize(ns);
  m.stiffness.resize(ns);
  m.rest_length.resize(ns);
  m.damping.resize(ns);
  for (int s = 0; s < ns; ++s) {
    const auto& d = ms.springs[s];
    m.spring_a[s] = d.a;
    m.spring_b[s] = d.b;
    m.stiffness[s] = d.stiffness;
    m.damping[s] = d.damping;
    m.rest_length[s] = d.rest_length
                           ? *d.rest_length
                           : (ms.particles[d.b].position - ms.particles[d.a].position).norm();
  }
}

Built buildMassSpring(const SceneDef& def) {
  Built out;
  const auto& ms = def.mass_spring;
  sim::MassSpringModel m;
  m.colliders = ms.colliders;
  setParticles(ms, m, out.state);
  m.dim = isPlanar(def) ? 2 : 3;
  setSurfaces(ms, out);
  setSprings(ms, m);
  if (ms.tethers) addTethers(m, out.state.x);
  m.self_thickness = ms.self_thickness;
  if (ms.self_thickness > 0.0) m.self_rest = out.state.x;  // pairs that start closer keep that
  sim::buildAdjacency(m);
  static_cast<sim::System&>(out) = sim::System(std::move(m));
  return out;
}

void writeParticle(Writer& w, const ParticleDef& p) {
  bool first = true;
  w.raw() += '{';
  w.key("position", first);
  w.vec(p.position);
  if (p.fixed) {
    // a fixed particle's mass is ignored and its velocity zero (docs/scenes.md#particles)
    w.key("fixed", first);
    w.raw() += "true";
  } else {
    if (!isPlusZero(p.velocity)) w.key("velocity", first), w.vec(p.velocity);
    w.key("mass", first);
    w.number(p.mass);
  }
  w.raw() += '}';
}

// The rest length always, the default's (the initial distance) computed as scene::build does, so
// that the file holds it explicitly whatever later edits do to the positions.
void writeSpring(Writer& w, const SpringDef& s, const std::vector<ParticleDef>& particles) {
  bool first = true;
  w.raw() += '{';
  w.key("a", first);
  w.integer(s.a);
  w.key("b", first);
  w.integer(s.b);
  w.key("stiffness", first);
  w.number(s.stiffness);
  w.key("rest_length", first);
  w.number(s.rest_length ? *s.rest_length
                         : (particles[s.b].position - particles[s.a].position).norm());
  if (!isPlusZero(s.damping)) w.key("damping", first), w.number(s.damping);
  w.raw() += '}';
}

bool sameBits(const Vec3& a, const Vec3& b) {
  return std::memcmp(a.data(), b.data(), sizeof(double) * 3) == 0;
}

// A plane's unit normal n is stored as the loader made it, v.normalized() of the file's v; but
// normalising a unit vector again moves about a third of tilted normals by an ulp. So the file
// gets a v that normalises to n bit for bit: n itself where it does (the axes), else n times a
// scale just above 1 (steps of 1/4096: the length's rounding then falls differently) moved by at
// most an ulp per component, the first that does. n came from some v, so one exists; this search
// found one for every tilted normal of a test of a thousand, within 1 700 tries.
constexpr int kScaleSteps = 4096;
Vec3 normalSpelling(const Vec3& n) {
  if (sameBits(n.normalized(), n)) return n;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr int kNudges = 27;  // -1, 0 or +1 ulp on each of the three components
  for (int k = 0; k < kScaleSteps; ++k) {
    const Vec3 base = n * (1.0 + static_cast<double>(k) / kScaleSteps);
    for (int d = 0; d < kNudges; ++d) {
      Vec3 v = base;
      for (int c = 0, place = 1; c < 3; ++c, place *= 3)
        if (const int step = (d / place) % 3 - 1; step != 0)
          v[c] = std::nextafter(v[c], step > 0 ? kInf : -kInf);
      if (sameBits(v.normalized(), n)) return v;
    }
  }
  return n;  // none found: the normal read back may differ from n by an ulp
}

void writeCollider(Writer& w, const sim::Collider& c) {
  bool first = true;
  w.raw() += '{';
  w.key("type", first);
  if (c.shape == sim::Collider::Shape::Plane) {
    w.raw() += "\"plane\"";
    w.key("point", first);
    w.vec(c.point);
    w.key("normal", first);
    w.vec(normalSpelling(c.normal));
  } else {
    w.raw() += "\"sphere\"";
    w.key("center", first);
    w.vec(c.point);
    w.key("radius", first);
    w.number(c.radius);
  }
  if (!isPlusZero(c.friction)) w.key("friction", first), w.number(c.friction);
  w.raw() += '}';
}

// `"key": [\n  item,\n  item\n]`, one item a line (a list of thousands stays readable and diffable)
template <class T, class F>
void writeList(Writer& w, const char* key, const std::vector<T>& items, F&& item) {
  w.raw() += ",\n    \"";
  w.raw() += key;
  w.raw() += "\": [";
  for (size_t i = 0; i < items.size(); ++i) {
    w.raw() += i ? ",\n      " : "\n      ";
    item(items[i]);
  }
  w.raw() += items.empty() ? "]" : "\n    ]";
}

void writeMassSpring(Writer& w, const SceneDef& def) {
  const MassSpringDef& ms = def.mass_spring;
  w.raw() += "{\n    \"type\": \"mass_spring\"";
  writeParameters(w, def, sim::SceneSlot::System, "    ");
  if (ms.tethers) w.raw() += ",\n    \"tethers\": true";
  if (ms.self_thickness > 0.0) {
    w.raw() += ",\n    \"self_collision\": {\"thickness\": ";
    w.number(ms.self_thickness);
    w.raw() += '}';
  }
  if (!ms.colliders.empty())
    writeList(w, "colliders", ms.colliders, [&](const sim::Collider& c) { writeCollider(w, c); });
  writeList(w, "particles", ms.particles, [&](const ParticleDef& p) { writeParticle(w, p); });
  writeList(w, "springs", ms.springs, [&](const SpringDef& s) { writeSpring(w, s, ms.particles); });
  if (!ms.triangles.empty())
    writeList(w, "triangles", ms.triangles, [&](const std::array<int, 3>& t) {
      w.raw() += '[' + std::to_string(t[0]) + ", " + std::to_string(t[1]) + ", " +
                 std::to_string(t[2]) + ']';
    });
  w.raw() += "\n  }";
}

void takeMassSpringParameters(SceneDef& d, const sim::System& system) {
  const sim::MassSpringModel* m = system.massSpring();
  for (size_t s = 0; s < d.mass_spring.springs.size(); ++s)
    d.mass_spring.springs[s].damping = m->damping[static_cast<Eigen::Index>(s)];
}

void takeMassSpring(SceneDef& def, const sim::System& system, const sim::State& initial) {
  const sim::MassSpringModel* m = system.massSpring();
  MassSpringDef& ms = def.mass_spring;
  for (size_t i = 0; i < ms.particles.size(); ++i) {
    ParticleDef& p = ms.particles[i];
    const auto k = static_cast<Eigen::Index>(i);
    p.position = initial.x.segment<3>(3 * k);
    p.velocity = p.fixed ? Vec3::Zero() : Vec3(initial.v.segment<3>(3 * k));
    if (!p.fixed) p.mass = m->mass[k];
  }
  for (size_t s = 0; s < ms.springs.size(); ++s) {
    const auto k = static_cast<Eigen::Index>(s);
    ms.springs[s].stiffness = m->stiffness[k];
    ms.springs[s].rest_length = m->rest_length[k];
  }
}

SceneSize massSpringSize(const SceneDef& def) {
  const auto& ms = def.mass_spring;
  SceneSize s{.elements = ms.particles.size() + ms.springs.size(),
              .elements_noun = "particles and springs",
              .factored = ms.particles.size()};
  s.bytes = ms.particles.size() * sizeof(ParticleDef) + ms.springs.size() * sizeof(SpringDef) +
            (ms.triangles.size() + ms.shadow_triangles.size()) * sizeof(ms.triangles[0]);
  return s;
}

void parseMassSpringSystem(const json& system, const std::string& file, SceneDef& def) {
  def.mass_spring = parseMassSpring(system, file, def.parameters);
}
}  // namespace

extern const SceneKind kMassSpringScene{.parse = parseMassSpringSystem,
                                        .build = buildMassSpring,
                                        .write = writeMassSpring,
                                        .takeParameters = takeMassSpringParameters,
                                        .takeSystem = takeMassSpring,
                                        .size = massSpringSize};

}  // namespace scene::detail
