#include "sim/mass_spring_kind.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/forces.hpp"
#include "sim/spectrum.hpp"

namespace sim {

namespace {
// Radii, as fractions of lengths the scene defines, so that particles read as beads on the springs
// whatever the scene's units. A fifth of the median spring's rest length leaves the spring
// visible between beads.
constexpr double kParticleOfSpring = 0.2;
// Without springs: a fraction of the scene's size (at least 1 m: a single particle has none).
constexpr double kParticleOfSceneNoSprings = 0.03;
// A cloth mesh shows its surface: beads small next to its shortest edge, so they do not cover it.
constexpr double kParticleOfMeshEdge = 0.12;
// Never more than this fraction of the scene's size (a few particles on long springs).
constexpr double kParticleOfSceneMax = 0.04;
constexpr double kFallbackRadius = 0.05;  // m, when a scene has no length at all

double medianRestLength(const MassSpringModel& m) {
  std::vector<double> rest(m.rest_length.data(), m.rest_length.data() + m.springs());
  if (rest.empty()) return 0.0;
  std::nth_element(rest.begin(), rest.begin() + rest.size() / 2, rest.end());
  return rest[rest.size() / 2];
}

// m: the largest distance of a particle from particle 0
double extentOf(const Eigen::VectorXd& x, int particles) {
  double extent = 0.0;
  for (int i = 0; i < particles; ++i)
    extent = std::max(extent, (x.segment<3>(3 * i) - x.segment<3>(0)).norm());
  return extent;
}
}  // namespace

MassSpringKind::MassSpringKind(MassSpringModel m)
    : model(std::move(m)), base_stiffness_(model.stiffness) {}

int MassSpringKind::dofs() const {
  int free = 0;
  for (int i = 0; i < model.particles(); ++i) free += !model.fixed(i);
  return free * model.dim;
}

std::string MassSpringKind::coordinateName(int j) const {
  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on chained string concatenation
  return std::string(1, "xyz"[j % 3]).append(std::to_string(j / 3));
}

Counts MassSpringKind::counts() const {
  return {.particles = model.particles(), .springs = model.springs(), .dim = model.dim};
}

std::string MassSpringKind::summary(bool withDofs) const {
  char line[160];
  std::snprintf(line, sizeof line, "mass_spring, %d particles, %d springs, %dD", model.particles(),
                model.springs(), model.dim);
  std::string out(line);
  if (withDofs) out.append(", ").append(std::to_string(dofs())).append(" DOFs");
  return out;
}

int MassSpringKind::defaultPhaseCoordinate(int listed) const {
  for (int i = bodies() - 1; i >= 0; --i)
    if (bodyMoves(i) && 3 * i < listed) return 3 * i;
  return 0;
}

Energy MassSpringKind::energy(const State& s) const {
  return sim::energy(model, s);
}

SceneScales MassSpringKind::scales(const State& s) const {
  return sceneScales(model, s);
}

std::unique_ptr<Stepper> MassSpringKind::stepper(Method m, double h, const State& from) const {
  return std::make_unique<Stepper>(model, from, m, h);
}

double MassSpringKind::omegaMax(const State& s) const {
  return sim::omegaMax(model, s);
}

void MassSpringKind::forcePass(const State& s, Eigen::VectorXd& out) const {
  totalForce(model, s.x, s.v, out);
}

double MassSpringKind::shortestRestLength() const {
  return model.springs() == 0 ? 0.0 : model.rest_length.minCoeff();
}

double MassSpringKind::maxStretch(const State& s, double tolerance) const {
  const MassSpringModel& m = model;
  if (m.springs() == 0) return 1.0;
  const double shortest = m.rest_length.minCoeff();
  double worst = 0.0;
  for (int i = 0; i < m.springs(); ++i) {
    const double r = m.rest_length[i];
    if (r > shortest * (1.0 + tolerance) || r == 0.0) continue;
    const double l = (s.x.segment<3>(3 * m.spring_b[i]) - s.x.segment<3>(3 * m.spring_a[i])).norm();
    worst = std::max(worst, l / r);
  }
  return worst;
}

// the energy and distance rule, then the torn one: positions are the state's x (positions())
std::optional<Divergence> MassSpringKind::runaway(const SceneScales& scales, double e0, double e,
                                                  const Eigen::VectorXd& positions, double t,
                                                  Method m) const {
  if (auto d = checkRunaway(scales, e0, e, positions, t, m, kBodyNoun)) return d;
  return checkTorn(model, positions, t, m);
}

void MassSpringKind::setGrab(int body, const Vec3& target, double stiffness) {
  model.grab = body, model.grab_target = target, model.grab_stiffness = stiffness;
}

double MassSpringKind::parameter(Parameter p) const {
  switch (p) {
    case Parameter::StiffnessScale:
      return stiffness_scale_;
    case Parameter::SpringDamping:
      return model.damping.size() ? model.damping.maxCoeff() : 0.0;
    case Parameter::Drag:
      return model.drag;
    case Parameter::Gravity:
      return model.gravity.norm();
    case Parameter::Substeps:
      return model.substeps;
    case Parameter::Iterations:
      return model.iterations;
    case Parameter::Wind:
      return model.wind.norm();
    case Parameter::JointDamping:
      break;
  }
  return parameterInfo(p).neutral;
}

Vec3 MassSpringKind::vector(Parameter p) const {
  if (p == Parameter::Gravity) return model.gravity;
  if (p == Parameter::Wind) return model.wind;
  return Vec3::Zero();
}

std::optional<std::string> MassSpringKind::setParameter(Parameter p, double value,
                                                        const Vec3& vec) {
  switch (p) {
    case Parameter::StiffnessScale:
      stiffness_scale_ = value;
      model.stiffness = base_stiffness_ * value;
      ++model.revision;  // time_fe refactorises once
      copyRunConstants(model.spring_runs, model.stiffness.data(), model.rest_length.data(),
                       model.revision);
      break;
    case Parameter::SpringDamping:
      model.damping.setConstant(value);
      ++model.damping_revision;
      noteDashpots(model.spring_runs, model.damping.data(), model.damping.size(),
                   model.damping_revision);
      break;
    case Parameter::Drag:
      model.drag = value;
      break;
    case Parameter::Gravity:
      model.gravity = vec;
      break;
    case Parameter::Substeps:
      model.substeps = static_cast<int>(value);
      break;
    case Parameter::Iterations:
      model.iterations = static_cast<int>(value);
      break;
    case Parameter::Wind:
      if (model.dim == 2 && vec.z() != 0.0) return "a planar scene's wind has no z component";
      model.wind = vec;
      break;
    case Parameter::JointDamping:
      return "only pendulums have joints";  // the table says so first
  }
  return std::nullopt;
}

// Each particle a bead of one radius (docs/architecture.md#system-kinds), each spring a line
// strained against its rest length; a trail on the last moving particle, unless the scene is a
// large mesh (`surface`: it draws triangles).
Skeleton MassSpringKind::skeleton(const State& initial, bool surface) const {
  Skeleton k;
  const int n = model.particles();
  const double typical = medianRestLength(model);
  const double extent = extentOf(initial.x, n);
  double r = typical > 0.0 ? kParticleOfSpring * typical
                           : kParticleOfSceneNoSprings * std::max(extent, 1.0);
  if (surface && model.springs() > 0) r = kParticleOfMeshEdge * model.rest_length.minCoeff();
  if (extent > 0.0) r = std::min(r, kParticleOfSceneMax * extent);
  if (!(r > 0.0)) r = kFallbackRadius;
  k.size = std::max(extent, r);
  k.radius.assign(n, r);
  for (int i = 0; i < n; ++i) k.fixed.push_back(model.fixed(i) ? 1 : 0);
  for (int s = 0; s < model.springs(); ++s) {
    k.lines.push_back(model.spring_a[s]), k.lines.push_back(model.spring_b[s]);
    k.rest.push_back(model.rest_length[s]);
    k.rigid.push_back(0);
  }
  k.colliders = model.colliders;
  if (!surface)
    for (int i = n - 1; i >= 0; --i)
      if (!model.fixed(i)) {
        k.trail_bodies.push_back(i);
        break;
      }
  return k;
}

void MassSpringKind::pointPositions(const State& s, std::vector<float>& out,
                                    Eigen::VectorXd& /*scratch*/) const {
  out.resize(s.x.size());
  for (Eigen::Index j = 0; j < s.x.size(); ++j) out[j] = static_cast<float>(s.x[j]);
}

}  // namespace sim
