// Every kind of system in one place (docs/architecture.md#system-kinds): the variant System holds
// and the one switch on sim::SystemKind. A new kind is its own files (its model, its unit, its
// facets), one more alternative here and one more case in withKind; the build (-Werror=switch)
// and sim::KindUnit say what else it still lacks.
#pragma once

#include <type_traits>
#include <variant>

#include "sim/mass_spring_kind.hpp"
#include "sim/pendulum_kind.hpp"

namespace sim {

using KindUnits = std::variant<MassSpringKind, PendulumKind>;
// Every kind, in SystemKind's order (a scene file's "type" is looked up among them).
inline constexpr SystemKind kSystemKinds[] = {SystemKind::MassSpring, SystemKind::Pendulum};

// f(std::type_identity<K>{}) for the unit class K of `kind`: how the tables ask a kind for its
// column (its integrators, its parameters, its scales, its name) before any system is built.
template <class F>
decltype(auto) withKind(SystemKind kind, F&& f) {
  switch (kind) {
    case SystemKind::MassSpring:
      return f(std::type_identity<MassSpringKind>{});
    case SystemKind::Pendulum:
      return f(std::type_identity<PendulumKind>{});
  }
  return f(std::type_identity<MassSpringKind>{});  // not reached: the switch is exhaustive
}

}  // namespace sim
