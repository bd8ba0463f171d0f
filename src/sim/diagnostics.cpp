#include "sim/diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sim {

namespace {
// A spring stretched by 10 % stores an energy typical of a scene that is moving visibly.
constexpr double kReferenceStrain = 0.1;
// Floors for scenes with no gravity, no springs and no motion (m, J).
constexpr double kMinLengthScale = 1e-3;
constexpr double kMinEnergyScale = 1e-12;
// E0 is "about zero" next to S below this fraction: a drift relative to it would be noise.
constexpr double kNearZeroEnergy = 1e-6;
// A stable integrator's energy error stays orders of magnitude below S, and its bodies within a
// few scene sizes; only an instability grows this far (so the rule never fires on a real run).
constexpr double kRunawayEnergyFactor = 1e6;
constexpr double kRunawayDistanceFactor = 1e4;

double kineticPlusPotentialMagnitude(const Energy& e) {
  return std::abs(e.kinetic) + std::abs(e.potential);
}
}  // namespace

SceneScales sceneScales(const MassSpringModel& m, const State& initial) {
  SceneScales s;
  Vec3 lo = Vec3::Constant(HUGE_VAL), hi = Vec3::Constant(-HUGE_VAL);
  for (int i = 0; i < m.particles(); ++i) {
    lo = lo.cwiseMin(initial.x.segment<3>(3 * i));
    hi = hi.cwiseMax(initial.x.segment<3>(3 * i));
  }
  if (m.particles() == 0) lo = hi = Vec3::Zero();
  s.centre = 0.5 * (lo + hi);
  s.length = std::max((hi - lo).norm(), kMinLengthScale);
  const double gravityWork = m.mass.sum() * m.gravity.norm() * s.length;
  double springs = 0.0;
  for (int k = 0; k < m.springs(); ++k) {
    const double initialLength =
        (initial.x.segment<3>(3 * m.spring_b[k]) - initial.x.segment<3>(3 * m.spring_a[k])).norm();
    const double l = m.rest_length[k] > 0 ? m.rest_length[k]
                     : initialLength > 0  ? initialLength
                                          : s.length;
    springs += 0.5 * m.stiffness[k] * std::pow(kReferenceStrain * l, 2);
  }
  s.energy = std::max(
      {kineticPlusPotentialMagnitude(energy(m, initial)), gravityWork, springs, kMinEnergyScale});
  return s;
}

SceneScales sceneScales(const PendulumModel& m, const State& initial) {
  SceneScales s;
  s.centre = m.pivot;
  s.length = std::max(m.length.sum(), kMinLengthScale);
  const double gravityWork = m.mass.sum() * m.gravity.norm() * s.length;
  s.energy =
      std::max({kineticPlusPotentialMagnitude(energy(m, initial)), gravityWork, kMinEnergyScale});
  return s;
}

bool driftIsRelative(double e0, const SceneScales& scales) {
  return std::abs(e0) > kNearZeroEnergy * scales.energy;
}

double driftReference(double e0, const SceneScales& scales) {
  return driftIsRelative(e0, scales) ? std::abs(e0) : scales.energy;
}

double energyDrift(double e0, double e, const SceneScales& scales) {
  return (e - e0) / driftReference(e0, scales);
}

std::optional<Divergence> checkRunaway(const SceneScales& scales, double e0, double e,
                                       const Eigen::VectorXd& positions, double t, Method method,
                                       std::string_view bodyNoun) {
  double far = 0.0;
  int culprit = -1;
  for (Eigen::Index i = 0; i + 2 < positions.size(); i += 3) {
    const double d = (positions.segment<3>(i) - scales.centre).norm();
    if (d > far) far = d, culprit = static_cast<int>(i / 3);
  }
  const bool energyRunaway = !(std::abs(e - e0) <= kRunawayEnergyFactor * scales.energy);
  const bool distanceRunaway = !(far <= kRunawayDistanceFactor * scales.length);
  if (!energyRunaway && !distanceRunaway) return std::nullopt;
  char what[200];
  std::snprintf(what, sizeof what,
                "runaway: the energy went from %.4g J to %.4g J (scene scale %.3g J); farthest is "
                "%s %d, %.3g m away (scene size %.3g m)",
                e0, e, scales.energy, std::string(bodyNoun).c_str(), culprit, far, scales.length);
  return Divergence{t, method, what, culprit};
}

std::optional<Divergence> checkTorn(const MassSpringModel& m, const Eigen::VectorXd& positions,
                                    double t, Method method) {
  double worst = kTornStretchFactor;  // a stretch (length / rest length) above it tears
  int culprit = -1;
  for (int k = 0; k < m.springs(); ++k) {
    const double rest = m.rest_length[k];
    if (!(rest > 0.0)) continue;
    const double l =
        (positions.segment<3>(3 * m.spring_b[k]) - positions.segment<3>(3 * m.spring_a[k])).norm();
    if (l > worst * rest) worst = l / rest, culprit = k;
  }
  if (culprit < 0) return std::nullopt;
  char what[200];
  std::snprintf(what, sizeof what,
                "runaway: torn: spring %d (particles %d and %d) is %.6g times its rest length "
                "%.6g m (the limit is %.6g)",
                culprit, m.spring_a[culprit], m.spring_b[culprit], worst, m.rest_length[culprit],
                kTornStretchFactor);
  Divergence d{t, method, what, m.spring_a[culprit]};
  d.other_body = m.spring_b[culprit];
  return d;
}

}  // namespace sim
