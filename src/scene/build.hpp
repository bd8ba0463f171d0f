// SceneDef -> sim model + initial state (docs/architecture.md#from-a-scene-file-to-pixels).
#pragma once

#include <memory>

#include "scene/scene_def.hpp"
#include "sim/diagnostics.hpp"
#include "sim/model.hpp"
#include "sim/pendulum.hpp"
#include "sim/stepper.hpp"

namespace scene {

struct Built {
  sim::SystemKind kind = sim::SystemKind::MassSpring;
  sim::MassSpringModel mass_spring;  // when kind == MassSpring
  sim::PendulumModel pendulum;       // when kind == Pendulum
  sim::State state;
  std::vector<std::uint32_t> triangles;  // display surface (cloth), 3 particle indices each

  // particles (fixed ones included) or bobs
  int bodies() const {
    return kind == sim::SystemKind::Pendulum ? pendulum.links() : mass_spring.particles();
  }
  // 3 coordinates per body (m)
  void positions(const sim::State& s, Eigen::VectorXd& out) const;
  sim::Energy energy(const sim::State& s) const;
  // energy and length scales of the initial state (drift and the runaway rule)
  sim::SceneScales scales() const;
  // A stepper on this system from `from` (it references this object: keep it alive and in
  // place). The one place that picks the stepper's model by system kind.
  std::unique_ptr<sim::Stepper> stepper(sim::Method m, double h, const sim::State& from) const;
  std::unique_ptr<sim::Stepper> stepper(sim::Method m, double h) const {
    return stepper(m, h, state);
  }
};

Built build(const SceneDef& def);

}  // namespace scene
