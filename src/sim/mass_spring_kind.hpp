// The mass-spring kind (docs/scenes.md#mass-spring-systems): particles, springs and fixed points in
// 2-D or 3-D, a sim::KindUnit (sim/kind.hpp). Its stiffness scale multiplies the scene's own
// spring constants, kept apart so that a scale is always relative to the scene.
#pragma once

#include "sim/kind.hpp"

namespace sim {

class MassSpringKind {
 public:
  static constexpr SystemKind kKind = SystemKind::MassSpring;
  static constexpr std::string_view kBodyNoun = "particle";
  static constexpr int kFirstBodyPoint = 0;
  // Its columns of the tables (mass_spring_facets.cpp): what each integrator is on this kind
  // (docs/integrators.md#summary), whether each parameter and scale applies (and why not). Each is
  // a switch over every value: a new method, parameter or scale does not compile until the kind
  // says.
  static constexpr std::string_view kSystemName = "mass_spring";
  static const OnKind& onMethod(Method m);
  static const ParameterOnKind& onParameter(Parameter p);
  static std::string_view scaleAbsent(Scale s);

  MassSpringKind() = default;
  MassSpringKind(MassSpringModel m);  // NOLINT: System(model) picks its kind by the model

  MassSpringModel model;

  int bodies() const { return model.particles(); }
  int dofs() const;
  bool bodyMoves(int body) const { return !model.fixed(body); }
  // "x3", "y3", "z3": coordinate j of particle j / 3
  std::string coordinateName(int j) const;
  Counts counts() const;
  // "mass_spring, 256 particles, 1378 springs, 2D" and, with `dofs`, ", 480 DOFs"
  std::string summary(bool dofs) const;
  // The last moving particle's x among the first `listed` coordinates: a cloth's last rows move
  // most (0 when none moves).
  int defaultPhaseCoordinate(int listed) const;

  void positions(const State& s, Eigen::VectorXd& out) const { out = s.x; }
  Energy energy(const State& s) const;
  SceneScales scales(const State& s) const;
  std::unique_ptr<Stepper> stepper(Method m, double h, const State& from) const;
  double omegaMax(const State& s) const;
  // the total force on every particle (sim::totalForce), N
  void forcePass(const State& s, Eigen::VectorXd& out) const;
  double shortestRestLength() const;
  double maxStretch(const State& s, double tolerance) const;
  std::optional<Divergence> runaway(const SceneScales& scales, double e0, double e,
                                    const Eigen::VectorXd& positions, double t, Method m) const;
  void setGrab(int body, const Vec3& target, double stiffness);
  int grabbed() const { return model.grab; }
  Vec3 grabTarget() const { return model.grab_target; }

  double parameter(Parameter p) const;
  Vec3 vector(Parameter p) const;
  std::optional<std::string> setParameter(Parameter p, double value, const Vec3& vec);
  void invalidateCaches() { ++model.revision; }

  Skeleton skeleton(const State& initial, bool surface) const;
  void pointPositions(const State& s, std::vector<float>& out, Eigen::VectorXd& scratch) const;
  bool planar() const { return model.dim == 2; }

  // facets (sim/facets.hpp, mass_spring_facets.cpp)
  Equilibrium equilibrium(const State& from) const;
  std::optional<double> theoryPeriod(const State& s) const;
  void place(State& s, int body, const Vec3& target) const;
  std::optional<std::string> scale(Scale which, double f);
  std::vector<JointAngle> jointAngles(const State&) const { return {}; }  // no joints
  EditFacts editFacts(const State& s, const std::vector<int>& selection) const;
  std::vector<BodyForce> bodyForces(const State& s, int body) const {
    return sim::bodyForces(model, s, body);
  }
  std::vector<BodyForce> contactForce(const State& s, int body, const Vec3& observed) const {
    return sim::contactForce(model, s, body, observed);
  }

 private:
  Eigen::VectorXd base_stiffness_;  // N/m, the scene's springs at stiffness scale 1
  double stiffness_scale_ = 1.0;
};

static_assert(KindUnit<MassSpringKind>);

}  // namespace sim
