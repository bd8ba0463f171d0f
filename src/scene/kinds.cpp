#include "scene/kinds.hpp"

namespace scene::detail {

// Each kind's, defined in its own file (mass_spring_scene.cpp, pendulum_scene.cpp).
extern const SceneKind kMassSpringScene;
extern const SceneKind kPendulumScene;

const SceneKind& sceneKind(sim::SystemKind kind) {
  switch (kind) {
    case sim::SystemKind::MassSpring:
      return kMassSpringScene;
    case sim::SystemKind::Pendulum:
      return kPendulumScene;
  }
  return kMassSpringScene;  // not reached: the switch is exhaustive
}

}  // namespace scene::detail
