// A kind of system as a unit (docs/architecture.md#system-kinds): each kind (mass_spring_kind.hpp,
// pendulum_kind.hpp) holds its model and answers, in its own terms, everything sim::System is
// asked: how to describe, step, measure and draw itself, and its parameters. System holds one of
// them and forwards; nothing outside sim asks which one it holds. A new kind is a new class that
// satisfies KindUnit, one more alternative in System's variant, and its rows' columns in the
// registry and the parameter table.
#pragma once

#include <concepts>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/body_forces.hpp"
#include "sim/diagnostics.hpp"
#include "sim/energy.hpp"
#include "sim/facets.hpp"
#include "sim/model.hpp"
#include "sim/parameters.hpp"
#include "sim/skeleton.hpp"
#include "sim/stepper.hpp"

namespace sim {

// The counts a system shows (the panel, `run`, `info`); 0 for what a kind does not have.
struct Counts {
  int particles = 0, springs = 0, links = 0;
  int dim = 3;  // 2 for a planar mass-spring system
};

template <class K>
concept KindUnit = requires(K k, const K ck, const State s, State& place, Eigen::VectorXd& out,
                            std::vector<float>& points, Parameter p, Method m, Vec3 v, int i,
                            const std::vector<int>& selection) {
  { K::kKind } -> std::convertible_to<SystemKind>;
  { K::kBodyNoun } -> std::convertible_to<std::string_view>;
  { K::kFirstBodyPoint } -> std::convertible_to<int>;           // the skeleton's point of body 0
  { K::kSystemName } -> std::convertible_to<std::string_view>;  // scene files' "type"
  // its columns of the registry, the parameter table and the scales (sim/facets.hpp)
  { K::onMethod(m) } -> std::same_as<const OnKind&>;
  { K::onParameter(p) } -> std::same_as<const ParameterOnKind&>;
  { K::scaleAbsent(Scale::Mass) } -> std::same_as<std::string_view>;
  // description
  { ck.bodies() } -> std::same_as<int>;
  { ck.dofs() } -> std::same_as<int>;
  { ck.bodyMoves(i) } -> std::same_as<bool>;
  { ck.coordinateName(i) } -> std::same_as<std::string>;
  { ck.counts() } -> std::same_as<Counts>;
  { ck.summary(true) } -> std::same_as<std::string>;
  { ck.defaultPhaseCoordinate(i) } -> std::same_as<int>;
  // physics
  ck.positions(s, out);
  { ck.energy(s) } -> std::same_as<Energy>;
  { ck.scales(s) } -> std::same_as<SceneScales>;
  { ck.stepper(m, 0.0, s) } -> std::same_as<std::unique_ptr<Stepper>>;
  { ck.omegaMax(s) } -> std::same_as<double>;
  ck.forcePass(s, out);  // the explicit methods' one evaluation of the forces at s
  // its springs: the shortest rest length (0: none) and the largest stretch l / r over those
  // within a factor 1 + tolerance of it (1: none; a pendulum's rods are rigid)
  { ck.shortestRestLength() } -> std::same_as<double>;
  { ck.maxStretch(s, 0.0) } -> std::same_as<double>;
  // the runaway rule (sim/diagnostics.hpp) with the kind's own parts (a mass-spring system's torn
  // springs); args: scales, E0, E (J), positions, t, method
  { ck.runaway(SceneScales{}, 0.0, 0.0, out, 0.0, m) } -> std::same_as<std::optional<Divergence>>;
  k.setGrab(i, v, 0.0);
  { ck.grabbed() } -> std::same_as<int>;
  { ck.grabTarget() } -> std::same_as<Vec3>;
  // parameters (the value already passed the table's rule)
  { ck.parameter(p) } -> std::same_as<double>;
  { ck.vector(p) } -> std::same_as<Vec3>;
  { k.setParameter(p, 0.0, v) } -> std::same_as<std::optional<std::string>>;
  k.invalidateCaches();
  // drawing
  { ck.skeleton(s, true) } -> std::same_as<Skeleton>;
  ck.pointPositions(s, points, out);
  { ck.planar() } -> std::same_as<bool>;
  // the facets the layers above ask for (sim/facets.hpp)
  { ck.equilibrium(s) } -> std::same_as<Equilibrium>;
  { ck.theoryPeriod(s) } -> std::same_as<std::optional<double>>;
  ck.place(place, i, v);  // body i towards v, every velocity left as it was
  { k.scale(Scale::Mass, 0.0) } -> std::same_as<std::optional<std::string>>;
  { ck.jointAngles(s) } -> std::same_as<std::vector<JointAngle>>;
  { ck.editFacts(s, selection) } -> std::same_as<EditFacts>;
  // body i's forces one by one (sim/body_forces.hpp), and a collider's push read off its motion
  { ck.bodyForces(s, i) } -> std::same_as<std::vector<BodyForce>>;
  { ck.contactForce(s, i, v) } -> std::same_as<std::vector<BodyForce>>;
};

}  // namespace sim
