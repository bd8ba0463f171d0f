// The simulated system, whichever its kind (docs/architecture.md#system-and-lanes): a mass-spring
// network or an N-link pendulum. It answers everything the front ends ask of a system (bodies,
// positions, energies, scales, the grab, the tunable parameters, the integrators that apply, what
// it looks like) and builds Steppers on itself. Its kind is a unit of sim (sim/kind.hpp) that
// System holds and forwards to: callers ask, they never branch on the kind. Several Lanes may
// step the same System: a Stepper references the model, so changing a parameter changes it for
// every lane.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/kinds.hpp"

namespace sim {

class System {
 public:
  System() = default;  // an empty mass-spring system
  // A system of the kind whose model `m` is (sim/kinds.hpp).
  template <class Model>
  requires std::is_constructible_v<KindUnits, Model>
  explicit System(Model m) : unit_(std::move(m)) {}

  // --- what it is
  // The kind as a token for the registry's and the parameter table's questions (sim::onKind,
  // lookupIntegrator); outside sim it is passed back, never branched on.
  SystemKind kind() const;
  int bodies() const;  // particles (fixed ones included) or bobs
  // degrees of freedom: free particles times the dimension, or links
  int dofs() const;
  bool bodyMoves(int body) const;        // false for a fixed particle
  std::string bodyName(int body) const;  // "particle 3" / "bob 3"
  std::string_view bodyNoun() const;     // "particle" / "bob"
  // "x3" / "phi3": the name of state coordinate j
  std::string coordinateName(int j) const;
  Counts counts() const;
  // "mass_spring, 256 particles, 1378 springs, 2D" (with `dofs`: ", 480 DOFs" after it) or
  // "pendulum, 4 links" (a pendulum's links are its DOFs)
  std::string summary(bool dofs = false) const;
  // The coordinate the phase plot starts on, among the first `listed`.
  int defaultPhaseCoordinate(int listed) const;

  // --- integrators
  bool accepts(Method m) const { return appliesTo(m, kind()); }
  // The method named `name` if it applies, else the one-line reason (sim::lookupIntegrator).
  IntegratorLookup lookupIntegrator(std::string_view name) const;
  std::vector<Method> integrators() const;  // those that apply, in registry order
  // Order and symplecticity of m on this kind (docs/integrators.md#summary).
  const OnKind& properties(Method m) const { return onKind(m, kind()); }
  // "order 2, symplectic" on this kind, after the method's description: the panel's tooltip
  std::string integratorTooltip(Method m) const;

  // --- physics
  // 3 coordinates per body (m)
  void positions(const State& s, Eigen::VectorXd& out) const;
  Energy energy(const State& s) const;
  double movingMass() const;  // kg: the bodies that move (fixed particles have none)
  // energy and length scales of a state (drift and the runaway rule, sim/diagnostics.hpp)
  SceneScales scales(const State& s) const;
  // A stepper on this system from `from`; it references this object: keep it alive and in place.
  std::unique_ptr<Stepper> stepper(Method m, double h, const State& from) const;
  // omega_max at state s (sim/spectrum.hpp), rad/s
  double omegaMax(const State& s) const;
  // One evaluation of the forces the explicit methods take at s, what `bench` times: a
  // mass-spring system's total force on every particle (N, 3 a particle), a pendulum's angular
  // accelerations (rad/s^2).
  void forcePass(const State& s, Eigen::VectorXd& out) const;
  // The shortest rest length of its springs (m), 0 when it has none (a pendulum's rods).
  double shortestRestLength() const;
  // The largest l / r over its springs whose rest length r > 0 is within a factor 1 + tolerance
  // of the shortest (a cloth's structural springs: its shear and bending springs are sqrt 2 and
  // 2 times longer), at state s; 1 when it has no springs.
  double maxStretch(const State& s, double tolerance) const;
  // The runaway rule (sim/diagnostics.hpp) on a state whose energy is e and bodies' positions
  // `positions`, its culprit named as this system names its bodies; a torn spring included.
  std::optional<Divergence> runaway(const SceneScales& scales, double e0, double e,
                                    const Eigen::VectorXd& positions, double t,
                                    Method method) const;

  // The mouse spring on `body` (-1 or a fixed particle: none) towards `target` (m).
  void setGrab(int body, const Vec3& target, double stiffness);
  int grabbed() const;
  Vec3 grabTarget() const;
  Vec3 gravity() const { return vectorParameter(Parameter::Gravity); }

  // --- parameters (sim/parameters.hpp)
  bool has(Parameter p) const { return !notApplicable(p, kind()); }
  // The parameter's current value (StiffnessScale: relative to the scene's own stiffness; a
  // vector's magnitude); its neutral value where it does not apply.
  double parameter(Parameter p) const;
  Vec3 vectorParameter(Parameter p) const;  // Gravity, Wind (zero where it does not apply)
  // Sets a parameter for every lane on this system; returns why it cannot be (it does not apply
  // to this kind, the table's rule, a kind's own rule), or nothing. Vectors take `vec`, the
  // others `value`.
  std::optional<std::string> setParameter(Parameter p, double value,
                                          const Vec3& vec = Vec3::Zero());
  // omega_max relative to `atLoad` (the same system as loaded): the product of sqrt(value /
  // value at load) over the parameters that scale it on this kind (the table's scales_omega);
  // 0 when such a parameter was 0 at load.
  double omegaRatio(const System& atLoad) const;
  // The parameters back to `saved`'s (the same system earlier); cached factorisations of the
  // steppers on this system are rebuilt.
  void restore(const System& saved);

  // --- what it looks like (sim/skeleton.hpp)
  // `surface`: the scene draws triangles over it (beads smaller, no trail on a large mesh).
  Skeleton skeleton(const State& initial, bool surface) const;
  // the skeleton's points at state s, 3 floats each
  void pointPositions(const State& s, std::vector<float>& out, Eigen::VectorXd& scratch) const;
  bool planar() const;
  // The skeleton's point of body b, and the body of point p (-1 for a pendulum's pivot).
  int pointOfBody(int body) const { return body + firstBodyPoint(); }
  int bodyOfPoint(int point) const { return point - firstBodyPoint(); }

  // --- what the layers above ask beyond stepping (sim/facets.hpp; each kind's own answer)
  // The static equilibrium nearest to `from` (its positions; velocities are ignored).
  Equilibrium staticEquilibrium(const State& from) const;
  // The period in theory at state s where the kind has a closed form for it (lab/period.hpp).
  std::optional<double> theoryPeriod(const State& s) const;
  // Moves `body` in `s` towards `target` (m) and zeroes every velocity (lab/placement.hpp);
  // returns the problem (no such body, a target that is not finite) or nothing.
  std::optional<std::string> placeBody(State& s, int body, const Vec3& target) const;
  // Multiplies the model's masses or lengths by f; why not, where the kind has no such lengths.
  std::optional<std::string> scale(Scale which, double f);
  // The joints drawn with their angles (none for a spring network).
  std::vector<JointAngle> jointAngles(const State& s) const;
  // What the bodies' editor shows for the selection at state s.
  EditFacts editFacts(const State& s, const std::vector<int>& selection) const;
  // Body b's forces at state s one by one, from the force law (sim/body_forces.hpp): they add up
  // to its mass times the law's acceleration. None for a fixed body or one out of range.
  std::vector<BodyForce> bodyForces(const State& s, int body) const;
  // The colliders' push on body b, read off its acceleration over the last move (m/s^2), while it
  // touches one (sim::contactForce); none else.
  std::vector<BodyForce> contactForce(const State& s, int body, const Vec3& observed) const;
  // Whether `scale` applies to a `kind` system: the reason it does not, or nothing.
  static std::optional<std::string> scaleAbsent(Scale which, SystemKind kind);

  // --- the model itself: for sim's own code, the scene builder and the tests; null when the
  // system is of the other kind
  const MassSpringModel* massSpring() const;
  MassSpringModel* massSpring();
  const PendulumModel* pendulum() const;
  PendulumModel* pendulum();

 private:
  int firstBodyPoint() const;
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), unit_);
  }
  template <class F>
  decltype(auto) visit(F&& f) {
    return std::visit(std::forward<F>(f), unit_);
  }
  KindUnits unit_;
};

}  // namespace sim
