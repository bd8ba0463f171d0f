#include "scene/build.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/energy.hpp"
#include "sim/forces.hpp"

namespace scene {

namespace {
Built buildPendulum(const SceneDef& def) {
  Built out;
  const auto& pd = def.pendulum;
  sim::PendulumModel m;
  const int n = static_cast<int>(pd.lengths.size());
  m.pivot = pd.pivot;
  m.length = Eigen::Map<const Eigen::VectorXd>(pd.lengths.data(), n);
  m.mass = Eigen::Map<const Eigen::VectorXd>(pd.masses.data(), n);
  out.state.x = Eigen::Map<const Eigen::VectorXd>(pd.angles.data(), n);
  out.state.v = Eigen::Map<const Eigen::VectorXd>(pd.angular_velocities.data(), n);
  static_cast<sim::System&>(out) = sim::System(std::move(m));
  return out;
}

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

// The rows the scene gives (SceneDef::parameters) set through the table, as the panel sets them:
// the loader checked each by its rule, so none is refused.
void setParameters(const SceneDef& def, sim::System& system) {
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (row.scene == sim::SceneSlot::None || !system.has(row.parameter)) continue;
    const sim::Parameter p = row.parameter;
    const auto refused = sim::isVector(row) ? system.setParameter(p, 0.0, def.parameters.vector(p))
                                            : system.setParameter(p, def.parameters.scalar(p));
    if (refused) throw Error(def.name + ": " + std::string(row.key) + ": " + *refused);
  }
}

Built buildKind(const SceneDef& def) {
  switch (def.kind) {
    case sim::SystemKind::MassSpring:
      return buildMassSpring(def);
    case sim::SystemKind::Pendulum:
      return buildPendulum(def);
  }
  throw Error(def.name + ": unknown system kind");
}
}  // namespace

Built build(const SceneDef& def) {
  Built out = buildKind(def);
  setParameters(def, out);
  return out;
}

SceneDef withParameters(SceneDef d, const sim::System& system) {
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (row.scene == sim::SceneSlot::None || !system.has(row.parameter)) continue;
    if (sim::isVector(row))
      d.parameters.set(row.parameter, system.vectorParameter(row.parameter));
    else
      d.parameters.set(row.parameter, system.parameter(row.parameter));
  }
  if (const sim::MassSpringModel* m = system.massSpring()) {
    for (size_t s = 0; s < d.mass_spring.springs.size(); ++s)
      d.mass_spring.springs[s].damping = m->damping[static_cast<Eigen::Index>(s)];
  }
  return d;
}

}  // namespace scene
