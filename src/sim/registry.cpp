#include "sim/registry.hpp"

#include "sim/kinds.hpp"
#include "sim/user_methods.hpp"

#include <limits>
#include <numbers>

namespace sim {

namespace {
// Each method's properties on each kind are the kind's (MassSpringKind::onMethod,
// PendulumKind::onMethod: docs/integrators.md#summary).
constexpr IntegratorInfo kTable[] = {
    {.method = Method::Euler,
     .name = "euler",
     .stability = Stability::Never,
     .force_passes = 1,
     .description =
         "explicit (forward) Euler: x' = x + h v, v' = v + h a(x, v) (seed 002); gains energy"},
    {.method = Method::SymplecticEuler,
     .name = "symplectic_euler",
     .stability = Stability::Bounded,
     .bound = 2.0,
     .force_passes = 1,
     .description =
         "semi-implicit Euler: v' = v + h a(x, v), x' = x + h v'; one force pass per step"},
    {.method = Method::Verlet,
     .name = "verlet",
     .stability = Stability::Bounded,
     .bound = 2.0,
     .force_passes = 2,
     .description =
         "velocity Verlet, kick-drift-kick; 2nd order when a does not depend on v, else 1st"},
    {.method = Method::Rk4,
     .name = "rk4",
     .stability = Stability::Bounded,
     .bound = 2.0 * std::numbers::sqrt2,
     .force_passes = 4,
     .description = "classical 4th-order Runge-Kutta (seed 004); four force passes per step"},
    {.method = Method::ImplicitEuler,
     .name = "implicit_euler",
     .factorises = true,
     .description = "linearly-implicit backward Euler, one Newton step, sparse solve (seed 001); "
                    "damps energy"},
    {.method = Method::TimeFe,
     .name = "time_fe",
     .factorises = true,
     .residual = "‖A x − b‖ / ‖b‖",
     .description = "symplectic time finite element, rectangle rule (seed 003); one "
                    "prefactorised solve per step"},
    {.method = Method::ImplicitMidpoint,
     .name = "implicit_midpoint",
     .residual = "Newton ‖G‖ / scale",
     .description = "implicit midpoint on the canonical (phi, p) form, Newton-solved"},
    {.method = Method::Xpbd,
     .name = "xpbd",
     .iterated = true,
     .residual = kGradientResidual,
     .description = "extended position-based dynamics, small steps: springs as compliant "
                    "constraints projected per substep; stable at any k, damps a little",
     .substeps_meaning = "substeps per step (logarithmic). More substeps hold stiff springs "
                         "closer to their rest length and damp less; the cost grows in "
                         "proportion.",
     .iterations_meaning = "constraint sweeps per substep (logarithmic). Substeps usually buy "
                           "more stiffness for the same cost."},
    {.method = Method::Projective,
     .name = "projective",
     .iterated = true,
     .factorises = true,
     .residual = kGradientResidual,
     .description = "projective dynamics (Liu et al. 2013): backward Euler by local-global "
                    "iterations on a prefactorised matrix; stable at any k, damps energy. "
                    "Contacts are in its solve; with 1 substep a cloth folds over a collider "
                    "slowly (4 substeps fold it within a second)",
     .substeps_meaning = "substeps per step (logarithmic). Each is a backward Euler step of dt / "
                         "substeps: more damp less; the cost grows in proportion.",
     .iterations_meaning = "local-global iterations per substep (logarithmic), one solve each. "
                           "More hold stiff springs closer to their rest length, towards "
                           "backward Euler's exact step."},
    {.method = Method::Vbd,
     .name = "vbd",
     .iterated = true,
     .residual = kGradientResidual,
     .description = "vertex block descent (Chen et al. 2024): backward Euler's incremental "
                    "potential lowered by per-particle 3x3 Newton steps in coloured Gauss-Seidel "
                    "sweeps; stable at any k, damps energy",
     .substeps_meaning = "substeps per step (logarithmic). Each is a backward Euler step of dt / "
                         "substeps: more damp less; the cost grows in proportion.",
     .iterations_meaning = "sweeps per substep (logarithmic), each a Newton step of every "
                           "particle. More hold stiff springs closer to their rest length, "
                           "towards backward Euler's exact step; auto: until the residual is 1 %"},
};
}  // namespace

std::span<const IntegratorInfo> integrators() {
  return kTable;
}

const IntegratorInfo& info(Method m) {
  if (userCoefficients(m)) return userInfo(m);  // a method file's (sim/user_methods.hpp)
  for (const auto& i : kTable)
    if (i.method == m) return i;
  return kTable[0];  // unreachable: every Method is in the table
}

std::optional<Method> findIntegrator(std::string_view name) {
  for (const auto& i : kTable)
    if (i.name == name) return i.method;
  return findUserMethod(name);
}

const OnKind& onKind(Method m, SystemKind kind) {
  if (userCoefficients(m)) return userOnKind(m, kind);
  return withKind(kind,
                  [m](auto unit) -> const OnKind& { return decltype(unit)::type::onMethod(m); });
}

bool appliesTo(Method m, SystemKind kind) {
  return onKind(m, kind).applies;
}

std::string_view systemName(SystemKind kind) {
  return withKind(kind, [](auto unit) { return decltype(unit)::type::kSystemName; });
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

std::optional<double> dtLimit(Method m, double omega) {
  const IntegratorInfo& i = info(m);
  switch (i.stability) {
    case Stability::Never:
      return 0.0;
    case Stability::Bounded:
      return omega > 0.0 ? i.bound / omega : std::numeric_limits<double>::infinity();
    case Stability::Unconditional:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace sim
