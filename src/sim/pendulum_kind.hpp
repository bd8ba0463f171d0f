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

  PendulumKind() = default;
  explicit PendulumKind(PendulumModel m) : model(std::move(m)) {}

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
};

static_assert(KindUnit<PendulumKind>);

}  // namespace sim
