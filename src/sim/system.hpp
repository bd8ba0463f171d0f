// The simulated system, whichever its kind (docs/architecture.md#system-and-lanes): a mass-spring
// network or an N-link pendulum. It answers everything the front ends ask of a system (bodies,
// positions, energies, scales, the grab, the tunable parameters) and builds Steppers on itself, so
// the system's kind is decided here and in the stepper only. Several Lanes may step the same
// System: a Stepper references the model, so changing a parameter changes it for every lane.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "sim/diagnostics.hpp"
#include "sim/energy.hpp"
#include "sim/model.hpp"
#include "sim/pendulum.hpp"
#include "sim/stepper.hpp"

namespace sim {

// The parameters a user may change while a system runs (the panel, events `--at`, sweeps).
enum class Parameter {
  StiffnessScale,
  SpringDamping,
  Drag,
  JointDamping,
  Gravity,
  Substeps,    // xpbd's and projective's substeps per step, a whole number in [1, kMaxSubsteps]
  Iterations,  // their sweeps or iterations per substep, [1, kMaxIterations]
  Wind         // m/s, the air's velocity (a vector, felt through the drag), |wind| <= kMaxWind
};

class System {
 public:
  System() = default;
  explicit System(MassSpringModel m);
  explicit System(PendulumModel p);

  SystemKind kind = SystemKind::MassSpring;
  MassSpringModel mass_spring;  // meaningful when kind == MassSpring
  PendulumModel pendulum;       // meaningful when kind == Pendulum

  bool isPendulum() const { return kind == SystemKind::Pendulum; }
  // particles (fixed ones included) or bobs
  int bodies() const;
  // degrees of freedom: free particles times the dimension, or links
  int dofs() const;
  bool bodyMoves(int body) const;  // false for a fixed particle
  // "particle 3" / "bob 3"
  std::string bodyName(int body) const;
  // "x3" / "phi3": the name of state coordinate j
  std::string coordinateName(int j) const;
  // 3 coordinates per body (m)
  void positions(const State& s, Eigen::VectorXd& out) const;
  Energy energy(const State& s) const;
  // energy and length scales of a state (drift and the runaway rule, sim/diagnostics.hpp)
  SceneScales scales(const State& s) const;
  // A stepper on this system from `from`; it references this object: keep it alive and in place.
  std::unique_ptr<Stepper> stepper(Method m, double h, const State& from) const;

  // The mouse spring on `body` (-1 or a fixed particle: none) towards `target` (m).
  void setGrab(int body, const Vec3& target, double stiffness);
  int grabbed() const;
  Vec3 grabTarget() const;
  Vec3 gravity() const;

  // The parameter's current value (StiffnessScale: relative to the scene's own stiffness).
  double parameter(Parameter p) const;
  // Sets a parameter for every lane on this system; returns why it cannot be (e.g. "a pendulum has
  // no springs", "must be > 0"), or nothing. Gravity and wind take `vec`, the others `value`.
  std::optional<std::string> setParameter(Parameter p, double value,
                                          const Vec3& vec = Vec3::Zero());
  // Whether a change of the parameter keeps the energy's meaning (k, gravity): the drift is
  // re-anchored then; damping and drag only change the dissipation.
  static bool conservative(Parameter p) {
    return p == Parameter::StiffnessScale || p == Parameter::Gravity;
  }

 private:
  Eigen::VectorXd base_stiffness_;  // N/m, the scene's springs at stiffness scale 1
  double stiffness_scale_ = 1.0;
};

// The name used by events `--at` and the docs: "stiffness_scale", "damping", "drag",
// "joint_damping", "gravity", "substeps", "iterations", "wind".
std::string_view parameterName(Parameter p);

}  // namespace sim
