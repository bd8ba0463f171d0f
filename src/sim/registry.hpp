// The one integrator registry (docs/architecture.md#one-integrator-registry): read by the CLI, the
// scene loader, the UI, the docs and the tests. Names and meanings are docs/integrators.md.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sim {

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
  Projective
};

struct IntegratorInfo {
  Method method;
  std::string_view name;
  bool mass_spring;  // applies to "mass_spring" systems
  bool pendulum;     // applies to "pendulum" systems
  int order;         // global order of accuracy on smooth, conservative problems
  bool symplectic;
  std::string_view description;
};

std::span<const IntegratorInfo> integrators();
const IntegratorInfo& info(Method m);
std::optional<Method> findIntegrator(std::string_view name);
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

}  // namespace sim
