#include "sim/system.hpp"

#include <cmath>

namespace sim {

SystemKind System::kind() const {
  return visit([](const auto& k) { return k.kKind; });
}

int System::bodies() const {
  return visit([](const auto& k) { return k.bodies(); });
}

int System::dofs() const {
  return visit([](const auto& k) { return k.dofs(); });
}

bool System::bodyMoves(int body) const {
  return visit([body](const auto& k) { return k.bodyMoves(body); });
}

std::string System::bodyName(int body) const {
  return visit([body](const auto& k) {
    return std::string(k.kBodyNoun).append(" ").append(std::to_string(body));
  });
}

std::string_view System::bodyNoun() const {
  return visit([](const auto& k) { return std::string_view(k.kBodyNoun); });
}

std::string System::coordinateName(int j) const {
  return visit([j](const auto& k) { return k.coordinateName(j); });
}

Counts System::counts() const {
  return visit([](const auto& k) { return k.counts(); });
}

std::string System::summary(bool withDofs) const {
  return visit([withDofs](const auto& k) { return k.summary(withDofs); });
}

int System::defaultPhaseCoordinate(int listed) const {
  return visit([listed](const auto& k) { return k.defaultPhaseCoordinate(listed); });
}

IntegratorLookup System::lookupIntegrator(std::string_view name) const {
  return sim::lookupIntegrator(name, kind());
}

std::vector<Method> System::integrators() const {
  std::vector<Method> out;
  for (const auto& i : sim::integrators())
    if (accepts(i.method)) out.push_back(i.method);
  return out;
}

std::string System::integratorTooltip(Method m) const {
  const OnKind& p = properties(m);
  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on chained string concatenation
  std::string tip(info(m).description);
  tip.append("\norder ").append(std::to_string(p.order)).append(", ");
  return tip.append(p.symplectic ? "symplectic" : "not symplectic");
}

void System::positions(const State& s, Eigen::VectorXd& out) const {
  visit([&](const auto& k) { k.positions(s, out); });
}

Energy System::energy(const State& s) const {
  return visit([&](const auto& k) { return k.energy(s); });
}

double System::movingMass() const {
  if (const PendulumModel* p = pendulum()) return p->mass.sum();
  const MassSpringModel& m = *massSpring();
  double sum = 0.0;
  for (int i = 0; i < m.particles(); ++i)
    if (!m.fixed(i)) sum += m.mass[i];
  return sum;
}

SceneScales System::scales(const State& s) const {
  return visit([&](const auto& k) { return k.scales(s); });
}

std::unique_ptr<Stepper> System::stepper(Method m, double h, const State& from) const {
  return visit([&](const auto& k) { return k.stepper(m, h, from); });
}

double System::omegaMax(const State& s) const {
  return visit([&](const auto& k) { return k.omegaMax(s); });
}

void System::forcePass(const State& s, Eigen::VectorXd& out) const {
  visit([&](const auto& k) { k.forcePass(s, out); });
}

double System::shortestRestLength() const {
  return visit([](const auto& k) { return k.shortestRestLength(); });
}

double System::maxStretch(const State& s, double tolerance) const {
  return visit([&](const auto& k) { return k.maxStretch(s, tolerance); });
}

std::optional<Divergence> System::runaway(const SceneScales& scales, double e0, double e,
                                          const Eigen::VectorXd& positions, double t,
                                          Method method) const {
  return visit([&](const auto& k) { return k.runaway(scales, e0, e, positions, t, method); });
}

void System::setGrab(int body, const Vec3& target, double stiffness) {
  const int b = body >= 0 && body < bodies() && bodyMoves(body) ? body : -1;
  visit([&](auto& k) { k.setGrab(b, target, stiffness); });
}

int System::grabbed() const {
  return visit([](const auto& k) { return k.grabbed(); });
}

Vec3 System::grabTarget() const {
  return visit([](const auto& k) { return k.grabTarget(); });
}

double System::parameter(Parameter p) const {
  if (!has(p)) return parameterInfo(p).neutral;
  return visit([p](const auto& k) { return k.parameter(p); });
}

Vec3 System::vectorParameter(Parameter p) const {
  if (!has(p)) return Vec3::Zero();
  return visit([p](const auto& k) { return k.vector(p); });
}

std::optional<std::string> System::setParameter(Parameter p, double value, const Vec3& vec) {
  if (auto why = notApplicable(p, kind())) return why;
  const ParameterInfo& row = parameterInfo(p);
  const bool vector = isVector(row);
  const double v[3] = {vec.x(), vec.y(), vec.z()};
  if (auto bad = vector ? checkVector(row, v) : checkValue(row, value)) return bad;
  return visit([&](auto& k) { return k.setParameter(p, value, vec); });
}

double System::omegaRatio(const System& atLoad) const {
  double ratio = 1.0;
  for (const ParameterInfo& row : parameters()) {
    if (!onKind(row.parameter, kind()).scales_omega) continue;
    const double before = atLoad.parameter(row.parameter);
    if (!(before > 0.0)) return 0.0;
    ratio *= std::sqrt(parameter(row.parameter) / before);
  }
  return ratio;
}

void System::restore(const System& saved) {
  // in place: the steppers reference this system's model
  unit_ = saved.unit_;
  visit([](auto& k) { k.invalidateCaches(); });
}

Skeleton System::skeleton(const State& initial, bool surface) const {
  return visit([&](const auto& k) { return k.skeleton(initial, surface); });
}

void System::pointPositions(const State& s, std::vector<float>& out,
                            Eigen::VectorXd& scratch) const {
  visit([&](const auto& k) { k.pointPositions(s, out, scratch); });
}

int System::firstBodyPoint() const {
  return visit([](const auto& k) { return k.kFirstBodyPoint; });
}

bool System::planar() const {
  return visit([](const auto& k) { return k.planar(); });
}

const MassSpringModel* System::massSpring() const {
  const auto* k = std::get_if<MassSpringKind>(&unit_);
  return k ? &k->model : nullptr;
}

MassSpringModel* System::massSpring() {
  auto* k = std::get_if<MassSpringKind>(&unit_);
  return k ? &k->model : nullptr;
}

const PendulumModel* System::pendulum() const {
  const auto* k = std::get_if<PendulumKind>(&unit_);
  return k ? &k->model : nullptr;
}

PendulumModel* System::pendulum() {
  auto* k = std::get_if<PendulumKind>(&unit_);
  return k ? &k->model : nullptr;
}

}  // namespace sim
