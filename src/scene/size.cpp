#include "scene/size.hpp"

namespace scene {

namespace {
SceneSize massSpringSize(const MassSpringDef& ms) {
  SceneSize s{.elements = ms.particles.size() + ms.springs.size(),
              .elements_noun = "particles and springs",
              .factored = ms.particles.size()};
  s.bytes = ms.particles.size() * sizeof(ParticleDef) + ms.springs.size() * sizeof(SpringDef) +
            (ms.triangles.size() + ms.shadow_triangles.size()) * sizeof(ms.triangles[0]);
  return s;
}

SceneSize pendulumSize(const PendulumDef& p) {
  constexpr std::size_t kArraysPerLink = 4;  // length, mass, angle, angular velocity
  return {.elements = p.lengths.size(),
          .elements_noun = "links",
          .bytes = p.lengths.size() * kArraysPerLink * sizeof(double)};
}
}  // namespace

SceneSize sizeOf(const SceneDef& def) {
  SceneSize s;
  switch (def.kind) {
    case sim::SystemKind::MassSpring:
      s = massSpringSize(def.mass_spring);
      break;
    case sim::SystemKind::Pendulum:
      s = pendulumSize(def.pendulum);
      break;
  }
  s.bytes += sizeof(SceneDef);
  return s;
}

}  // namespace scene
