// The one integrator registry (docs/architecture.md#one-integrator-registry): read by the CLI, the
// scene loader, the UI, the docs and the tests. Names and meanings are docs/integrators.md; each
// property that depends on the kind of system is given per kind.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sim {

// The kinds of system (docs/architecture.md#system-kinds). Outside sim and scene it is only ever
// passed back to sim (a token for the registry's questions), never branched on.
enum class SystemKind { MassSpring, Pendulum };

enum class Method {
  Euler,
  SymplecticEuler,
  Verlet,
  Rk4,
  ImplicitEuler,
  TimeFe,
  ImplicitMidpoint,
  Xpbd,
  Projective,
  Vbd
};

// What an integrator is on one kind of system (docs/integrators.md#summary).
struct OnKind {
  bool applies = false;
  int order = 0;            // global order of accuracy on smooth, conservative problems
  bool symplectic = false;  // on this kind: verlet on a pendulum's (phi, phi') is not (note 1)
};

// The step limit on undamped oscillation (docs/integrators.md#stability-limits).
enum class Stability {
  Never,          // unstable at every step without damping (euler): the limit is 0
  Bounded,        // stable while h < bound / omega_max
  Unconditional,  // stable at every step (the implicit methods, xpbd, projective): no limit
};

struct IntegratorInfo {
  Method method;
  std::string_view name;
  Stability stability = Stability::Unconditional;
  double bound = 0.0;  // h omega_max below which a Bounded method is stable
  // Substeps and iterations apply (docs/integrators.md#xpbd, #projective): the panel shows them.
  bool iterated = false;
  // The force evaluations of one step of an explicit method (what a step costs in force passes:
  // `run`'s check spacing, `info`'s scan budget); 0 for a method with a solver of its own.
  int force_passes = 0;
  // It factorises a sparse matrix of the system (memory grows with the particles: `run` refuses
  // one too large, cli/commands.cpp).
  bool factorises = false;
  // What Stepper::lastResidual measures (docs/integrators.md#residuals), as run's summary and the
  // panel name it; empty: the method solves nothing, and has no residual.
  std::string_view residual = {};
  std::string_view description;  // one paragraph: the panel's tooltip
  // For an iterated method: what one substep and one iteration are (the panel's tooltips).
  std::string_view substeps_meaning = {}, iterations_meaning = {};
};

// The residual of the methods that lower backward Euler's incremental potential G (contract §3)
inline constexpr std::string_view kGradientResidual = "‖∇G‖ / weights";

std::span<const IntegratorInfo> integrators();
const IntegratorInfo& info(Method m);
std::optional<Method> findIntegrator(std::string_view name);
// The method's properties on a kind of system.
const OnKind& onKind(Method m, SystemKind kind);
bool appliesTo(Method m, SystemKind kind);
std::string_view systemName(SystemKind kind);
// "euler, symplectic_euler, ..." in registry order
std::string applicableList(SystemKind kind);
// The integrator named `name` for a `kind` system, or the one-line reason it cannot be used
// ("unknown integrator ...; these apply to ...: ..." or "... does not apply to ... systems; these
// apply: ..."). The one place these messages are written.
struct IntegratorLookup {
  std::optional<Method> method;
  std::string error;  // set when method is empty
};
IntegratorLookup lookupIntegrator(std::string_view name, SystemKind kind);
// The method's step limit at omega_max (rad/s): 0 for Never, bound / omega for Bounded (infinite
// at omega 0), nothing for Unconditional.
std::optional<double> dtLimit(Method m, double omegaMax);

}  // namespace sim
