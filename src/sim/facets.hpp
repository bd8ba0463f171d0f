// What the layers above ask of a kind beyond stepping it (docs/architecture.md#system-kinds): its
// static equilibrium, its period in theory, how a body is placed by hand, how it scales, its
// joints' angles and what its bodies' editor shows. Each kind answers these in its own files
// (mass_spring_facets.cpp, pendulum_facets.cpp); sim::KindUnit requires every one, so a new kind
// does not compile until it has them, and System forwards them (system_facets.cpp).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model.hpp"

namespace sim {

// --- the static equilibrium (docs/exploring.md#equilibrium)
// A spring network is relaxed by implicit Euler steps of a long step with the velocities zeroed
// after each (each step is then a Newton step on the potential, damped by M / h^2 where the
// stiffness is singular: docs/integrators.md#implicit_euler); it has settled when the largest
// move of a step is below kRelaxSettled of the scene's length scale.
inline constexpr double kRelaxStep = 1.0;  // s: Newton-like for periods up to seconds
inline constexpr int kRelaxStepsMax = 200;
inline constexpr double kRelaxSettled = 1e-10;
// Larger systems are not relaxed: a factorisation per step is seconds for a fine cloth.
inline constexpr int kRelaxParticlesMax = 20000;

struct Equilibrium {
  std::optional<State> state;  // at rest; none with `why`
  std::string why;             // "nothing holds it: it falls for ever"
  int steps = 0;               // the relaxation's
};

// --- the closed forms of a period (docs/lab.md#period). A mass m (kg) on a spring k (N/m):
// 2 pi sqrt(m/k). A simple pendulum of length L (m) under gravity g (m/s^2) released from
// amplitude theta0 (rad, < pi): the exact period 4 sqrt(L/g) K(sin(theta0/2)), K the complete
// elliptic integral of the first kind, by the arithmetic-geometric mean K(k) = pi / (2 AGM(1,
// sqrt(1 - k^2))) (DLMF 19.8.5), so T = 2 pi sqrt(L/g) / AGM(1, cos(theta0/2)): quadratic
// convergence, exact to round-off in a few iterations.
double springPeriod(double mass, double stiffness);
double pendulumPeriod(double length, double gravity, double amplitude);
double agm(double a, double b);

// --- scaling a lane's system (docs/lab.md#parameter-lanes): factors outside the parameter table,
// since they change the model's own arrays rather than a tunable value.
enum class Scale {
  Mass,    // every moving body's mass
  Length,  // every rigid length (a pendulum's links; a spring network's are its scene's)
};
struct ScaleInfo {
  Scale scale;
  std::string_view key;  // "mass_scale"; whether it applies is each kind's (scaleAbsent)
};
std::span<const ScaleInfo> scaleTable();
const ScaleInfo* findScale(std::string_view key);

// --- a joint drawn with its angle (Display: Arrows): the point of the skeleton at the joint and
// the angle of the link below it from the downward vertical, rad, as the state holds it
struct JointAngle {
  int point = 0;
  double angle = 0.0;
};

// --- what the bodies' editor shows (docs/exploring.md#edit-mode)
enum class BodyLayout {
  Network,  // particles joined by springs: pins, masses, springs between two selected
  Chain,    // links in a chain: each link's length, bob mass and start angle
};
struct EditFacts {
  BodyLayout layout = BodyLayout::Network;
  int particles = 0, springs = 0, links = 0;
  // the first selected body (-1: none): its mass (kg), pin; a link's length (m) and angle (rad)
  int body = -1;
  double mass = 0.0, length = 0.0, angle = 0.0;
  bool fixed = false;
  // the spring joining the two selected particles (-1: none): N/m, N s/m, m
  int spring = -1;
  double stiffness = 0.0, damping = 0.0, rest_length = 0.0;
};

}  // namespace sim
