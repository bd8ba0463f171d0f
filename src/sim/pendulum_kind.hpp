// The pendulum kind (docs/scenes.md#pendulums): N rigid links in generalised coordinates, a
// sim::KindUnit (sim/kind.hpp). Its bodies are the bobs; its points, drawn, are the pivot and the
// bobs.
#pragma once

#include "sim/kind.hpp"

namespace sim {

class PendulumKind {
 public:
  static constexpr SystemKind kKind = SystemKind::Pendulum;
  static constexpr std::string_view kBodyNoun = "bob";
  static constexpr int kFirstBodyPoint = 1;  // the pivot is point 0
  // Its columns of the tables (pendulum_facets.cpp): what each integrator is on this kind
  // (docs/integrators.md#summary), whether each parameter and scale applies (and why not). Each is
  // a switch over every value: a new method, parameter or scale does not compile until the kind
  // says.
  static constexpr std::string_view kSystemName = "pendulum";
  static const OnKind& onMethod(Method m);
  static const ParameterOnKind& onParameter(Parameter p);
  static std::string_view scaleAbsent(Scale s);

  PendulumKind() = default;
  PendulumKind(PendulumModel m) : model(std::move(m)) {}  // NOLINT: as MassSpringKind's

  PendulumModel model;

  int bodies() const { return model.links(); }
  int dofs() const { return model.links(); }
  bool bodyMoves(int) const { return true; }
  // "phi3": the angle of link 3
  std::string coordinateName(int j) const;
  Counts counts() const { return {.links = model.links()}; }
  // "pendulum, 4 links" (its links are its DOFs)
  std::string summary(bool) const {
    return "pendulum, " + std::to_string(model.links()) + " links";
  }
  // the first angle
  int defaultPhaseCoordinate(int) const { return 0; }

  void positions(const State& s, Eigen::VectorXd& out) const;
  Energy energy(const State& s) const;
  SceneScales scales(const State& s) const;
  std::unique_ptr<Stepper> stepper(Method m, double h, const State& from) const;
  double omegaMax(const State& s) const;
  // the angular accelerations (sim::pendulumAcceleration), rad/s^2
  void forcePass(const State& s, Eigen::VectorXd& out) const;
  double shortestRestLength() const { return 0.0; }              // no springs
  double maxStretch(const State&, double) const { return 1.0; }  // rigid rods
  std::optional<Divergence> runaway(const SceneScales& scales, double e0, double e,
                                    const Eigen::VectorXd& positions, double t, Method m) const;
  void setGrab(int body, const Vec3& target, double stiffness);
  int grabbed() const { return model.grab; }
  Vec3 grabTarget() const { return model.grab_target; }

  double parameter(Parameter p) const;
  Vec3 vector(Parameter p) const;
  std::optional<std::string> setParameter(Parameter p, double value, const Vec3& vec);
  void invalidateCaches() {}  // the pendulum's methods cache nothing of the model

  Skeleton skeleton(const State& initial, bool surface) const;
  void pointPositions(const State& s, std::vector<float>& out, Eigen::VectorXd& scratch) const;
  bool planar() const { return true; }

  // facets (sim/facets.hpp, pendulum_facets.cpp)
  Equilibrium equilibrium(const State& from) const;
  std::optional<double> theoryPeriod(const State& s) const;
  void place(State& s, int body, const Vec3& target) const;
  std::optional<std::string> scale(Scale which, double f);
  std::vector<JointAngle> jointAngles(const State&) const;
  EditFacts editFacts(const State& s, const std::vector<int>& selection) const;
  std::vector<BodyForce> bodyForces(const State& s, int body) const {
    return sim::bodyForces(model, s, body);
  }
  // no colliders: a pendulum's bobs touch nothing
  std::vector<BodyForce> contactForce(const State&, int, const Vec3&) const { return {}; }
};

static_assert(KindUnit<PendulumKind>);

}  // namespace sim
