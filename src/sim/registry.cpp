#include "sim/registry.hpp"

namespace sim {

namespace {
constexpr IntegratorInfo kTable[] = {
    {Method::Euler, "euler", true, true, 1, false,
     "explicit (forward) Euler: x' = x + h v, v' = v + h a(x, v) (seed 002); gains energy"},
    {Method::SymplecticEuler, "symplectic_euler", true, true, 1, true,
     "semi-implicit Euler: v' = v + h a(x, v), x' = x + h v'; one force pass per step"},
    {Method::Verlet, "verlet", true, true, 2, true,
     "velocity Verlet, kick-drift-kick; 2nd order when a does not depend on v, else 1st"},
    {Method::Rk4, "rk4", true, true, 4, false,
     "classical 4th-order Runge-Kutta (seed 004); four force passes per step"},
    {Method::ImplicitEuler, "implicit_euler", true, false, 1, false,
     "linearly-implicit backward Euler, one Newton step, sparse solve (seed 001); damps energy"},
    {Method::TimeFe, "time_fe", true, false, 1, true,
     "symplectic time finite element, rectangle rule (seed 003); one prefactorised solve per step"},
    {Method::ImplicitMidpoint, "implicit_midpoint", false, true, 2, true,
     "implicit midpoint on the canonical (phi, p) form, Newton-solved"},
    {Method::Xpbd, "xpbd", true, false, 1, false,
     "extended position-based dynamics, small steps: springs as compliant constraints projected "
     "per substep; stable at any k, damps a little"},
    {Method::Projective, "projective", true, false, 1, false,
     "projective dynamics (Liu et al. 2013): backward Euler by local-global iterations on a "
     "prefactorised matrix; stable at any k, damps energy. Contacts are in its solve; with 1 "
     "substep a cloth folds over a collider slowly (4 substeps fold it within a second)"},
};
}  // namespace

std::span<const IntegratorInfo> integrators() {
  return kTable;
}

const IntegratorInfo& info(Method m) {
  for (const auto& i : kTable)
    if (i.method == m) return i;
  return kTable[0];  // unreachable: every Method is in the table
}

std::optional<Method> findIntegrator(std::string_view name) {
  for (const auto& i : kTable)
    if (i.name == name) return i.method;
  return std::nullopt;
}

bool appliesTo(Method m, SystemKind kind) {
  const auto& i = info(m);
  return kind == SystemKind::MassSpring ? i.mass_spring : i.pendulum;
}

std::string_view systemName(SystemKind kind) {
  return kind == SystemKind::MassSpring ? "mass_spring" : "pendulum";
}

std::string applicableList(SystemKind kind) {
  std::string out;
  for (const auto& i : kTable) {
    if (!appliesTo(i.method, kind)) continue;
    if (!out.empty()) out += ", ";
    out += i.name;
  }
  return out;
}

IntegratorLookup lookupIntegrator(std::string_view name, SystemKind kind) {
  const std::string system(systemName(kind));
  const auto m = findIntegrator(name);
  if (!m)
    return {std::nullopt, "unknown integrator \"" + std::string(name) + "\"; these apply to " +
                              system + ": " + applicableList(kind)};
  if (!appliesTo(*m, kind))
    return {std::nullopt, std::string(name) + " does not apply to " + system +
                              " systems; these apply: " + applicableList(kind)};
  return {m, {}};
}

}  // namespace sim
