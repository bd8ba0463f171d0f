#include "sim/system.hpp"

#include <cmath>

namespace sim {

namespace {
constexpr std::string_view kParameterNames[] = {"stiffness_scale", "damping", "drag",
                                                "joint_damping",   "gravity", "substeps",
                                                "iterations",      "wind"};

std::optional<std::string> needPositive(double v) {
  if (!std::isfinite(v)) return "not a finite number";
  if (!(v > 0.0)) return "must be > 0";
  return std::nullopt;
}
std::optional<std::string> needNonNegative(double v) {
  if (!std::isfinite(v)) return "not a finite number";
  if (!(v >= 0.0)) return "must be >= 0";
  return std::nullopt;
}
std::optional<std::string> needWhole(double v, int hi) {
  if (!(v >= 1.0 && v <= hi && v == std::floor(v)))
    return "must be a whole number from 1 to " + std::to_string(hi);
  return std::nullopt;
}
}  // namespace

std::string_view parameterName(Parameter p) {
  return kParameterNames[static_cast<int>(p)];
}

System::System(MassSpringModel m)
    : kind(SystemKind::MassSpring),
      mass_spring(std::move(m)),
      base_stiffness_(mass_spring.stiffness) {}

System::System(PendulumModel p) : kind(SystemKind::Pendulum), pendulum(std::move(p)) {}

int System::bodies() const {
  return isPendulum() ? pendulum.links() : mass_spring.particles();
}

int System::dofs() const {
  if (isPendulum()) return pendulum.links();
  int free = 0;
  for (int i = 0; i < mass_spring.particles(); ++i) free += !mass_spring.fixed(i);
  return free * mass_spring.dim;
}

bool System::bodyMoves(int body) const {
  return isPendulum() || !mass_spring.fixed(body);
}

std::string System::bodyName(int body) const {
  return (isPendulum() ? "bob " : "particle ") + std::to_string(body);
}

std::string System::coordinateName(int j) const {
  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on chained string concatenation
  if (isPendulum()) return std::string("phi").append(std::to_string(j));
  return std::string(1, "xyz"[j % 3]).append(std::to_string(j / 3));
}

void System::positions(const State& s, Eigen::VectorXd& out) const {
  if (isPendulum())
    pendulumPositions(pendulum, s.x, out);
  else
    out = s.x;
}

Energy System::energy(const State& s) const {
  return isPendulum() ? sim::energy(pendulum, s) : sim::energy(mass_spring, s);
}

SceneScales System::scales(const State& s) const {
  return isPendulum() ? sceneScales(pendulum, s) : sceneScales(mass_spring, s);
}

std::unique_ptr<Stepper> System::stepper(Method m, double h, const State& from) const {
  if (isPendulum()) return std::make_unique<Stepper>(pendulum, from, m, h);
  return std::make_unique<Stepper>(mass_spring, from, m, h);
}

void System::setGrab(int body, const Vec3& target, double stiffness) {
  const int b = body >= 0 && body < bodies() && bodyMoves(body) ? body : -1;
  if (isPendulum())
    pendulum.grab = b, pendulum.grab_target = target, pendulum.grab_stiffness = stiffness;
  else
    mass_spring.grab = b, mass_spring.grab_target = target, mass_spring.grab_stiffness = stiffness;
}

int System::grabbed() const {
  return isPendulum() ? pendulum.grab : mass_spring.grab;
}

Vec3 System::grabTarget() const {
  return isPendulum() ? pendulum.grab_target : mass_spring.grab_target;
}

Vec3 System::gravity() const {
  return isPendulum() ? pendulum.gravity : mass_spring.gravity;
}

double System::parameter(Parameter p) const {
  switch (p) {
    case Parameter::StiffnessScale:
      return stiffness_scale_;
    case Parameter::SpringDamping:
      return mass_spring.damping.size() ? mass_spring.damping.maxCoeff() : 0.0;
    case Parameter::Drag:
      return mass_spring.drag;
    case Parameter::JointDamping:
      return pendulum.joint_damping;
    case Parameter::Gravity:
      return gravity().norm();
    case Parameter::Substeps:
      return mass_spring.substeps;
    case Parameter::Iterations:
      return mass_spring.iterations;
    case Parameter::Wind:
      return mass_spring.wind.norm();
  }
  return 0.0;
}

std::optional<std::string> System::setParameter(Parameter p, double value, const Vec3& vec) {
  const bool springs = !isPendulum();
  switch (p) {
    case Parameter::StiffnessScale:
      if (!springs) return "a pendulum has no springs";
      if (auto bad = needPositive(value)) return bad;
      stiffness_scale_ = value;
      mass_spring.stiffness = base_stiffness_ * value;
      ++mass_spring.revision;  // time_fe refactorises once
      copyRunConstants(mass_spring.spring_runs, mass_spring.stiffness.data(),
                       mass_spring.rest_length.data(), mass_spring.revision);
      return std::nullopt;
    case Parameter::SpringDamping:
      if (!springs) return "a pendulum has no springs";
      if (auto bad = needNonNegative(value)) return bad;
      mass_spring.damping.setConstant(value);
      ++mass_spring.damping_revision;
      noteDashpots(mass_spring.spring_runs, mass_spring.damping.data(), mass_spring.damping.size(),
                   mass_spring.damping_revision);
      return std::nullopt;
    case Parameter::Drag:
      if (!springs) return "not modelled for pendulums (use joint damping)";
      if (auto bad = needNonNegative(value)) return bad;
      mass_spring.drag = value;
      return std::nullopt;
    case Parameter::JointDamping:
      if (springs) return "only pendulums have joints";
      if (auto bad = needNonNegative(value)) return bad;
      pendulum.joint_damping = value;
      return std::nullopt;
    case Parameter::Gravity:
      if (!vec.allFinite()) return "not a finite vector";
      mass_spring.gravity = vec;
      pendulum.gravity = vec;
      return std::nullopt;
    case Parameter::Substeps:
    case Parameter::Iterations: {
      if (!springs) return "a pendulum has no springs";
      const bool sub = p == Parameter::Substeps;
      if (auto bad = needWhole(value, sub ? kMaxSubsteps : kMaxIterations)) return bad;
      (sub ? mass_spring.substeps : mass_spring.iterations) = static_cast<int>(value);
      return std::nullopt;
    }
    case Parameter::Wind:
      if (!springs) return "not modelled for pendulums";
      if (!vec.allFinite()) return "not a finite vector";
      if (vec.norm() > kMaxWind) return "faster than " + std::to_string(int(kMaxWind)) + " m/s";
      if (mass_spring.dim == 2 && vec.z() != 0.0) return "a planar scene's wind has no z component";
      mass_spring.wind = vec;
      return std::nullopt;
  }
  return "unknown parameter";
}

}  // namespace sim
