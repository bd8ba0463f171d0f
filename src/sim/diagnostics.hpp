// Energy drift and the runaway rule, defined once for `run`, the window and the sweeps
// (docs/integrators.md#energy-diagnostics). Both are measured against scales taken from the scene
// itself at its initial state, so that a scene whose energy starts at ~0 (a rope released at
// pivot height) is judged on its own size, not on E0.
#pragma once

#include <optional>
#include <string_view>

#include "sim/energy.hpp"
#include "sim/model.hpp"
#include "sim/pendulum.hpp"
#include "sim/stepper.hpp"

namespace sim {

struct SceneScales {
  double energy = 1.0;         // J, the scene's energy scale S
  double length = 1.0;         // m, the scene's size L
  Vec3 centre = Vec3::Zero();  // m, centre of the initial bounding box (pendulum: the pivot)
};

// S = max(|K0| + |V0|, sum m |g| L, sum_springs 1/2 k (kReferenceStrain l)^2), at least
// kMinEnergyScale; L = the initial bounding box's diagonal (pendulum: the summed rod lengths).
SceneScales sceneScales(const MassSpringModel& m, const State& initial);
SceneScales sceneScales(const PendulumModel& m, const State& initial);

// The energy drift's reference: |E0|, or S where E0 is ~0 next to S (|E0| <= kNearZeroEnergy S).
double driftReference(double e0, const SceneScales& scales);
bool driftIsRelative(double e0, const SceneScales& scales);  // true: the reference is |E0|
// (E - E0) / driftReference(E0)
double energyDrift(double e0, double e, const SceneScales& scales);

// A spring (rest length > 0) longer than this many times its rest length has torn: no real
// material stretches so far, only an integrator that lost the system
// (docs/integrators.md#runaway-rule).
inline constexpr double kTornStretchFactor = 10.0;

// The runaway rule: a state that is still finite but absurd, |E - E0| > kRunawayEnergyFactor S or
// a body farther than kRunawayDistanceFactor L from the scene's centre. `positions` holds 3
// coordinates per body, named `bodyNoun` ("particle", "bob") in the report.
std::optional<Divergence> checkRunaway(const SceneScales& scales, double e0, double e,
                                       const Eigen::VectorXd& positions, double t, Method method,
                                       std::string_view bodyNoun);

// The torn rule, the runaway rule's part for springs: the most stretched spring whose length in
// `positions` (3 coordinates per particle) exceeds kTornStretchFactor times its rest length > 0,
// reported as the culprit (body and other_body its particles); one pass over the springs.
std::optional<Divergence> checkTorn(const MassSpringModel& m, const Eigen::VectorXd& positions,
                                    double t, Method method);

}  // namespace sim
