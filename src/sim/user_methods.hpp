// A user's own methods (docs/integrators.md#your-own-method): Runge-Kutta tableaux and splittings
// read from method files (scene/method_file.hpp) and registered here for the rest of the program.
// The built-in methods are sim::Method's enumerators; a registered method is the value
// kFirstUserMethod + k, so that everything that passes a Method around (lanes, events, sweeps,
// orders, the window) carries a user's method unchanged, and the registry's questions (info,
// onKind, dtLimit) answer for it from its coefficients. Registration is process-wide and
// append-only: a Method value stays valid for the life of the program.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/registry.hpp"
#include "util/expected.hpp"

namespace sim {

// A method file has at most this many stages (a tableau's s, a splitting's drifts and kicks).
inline constexpr int kMaxMethodStages = 16;
// The first registered method's Method value: far past the enumerators, which grow by one a method.
inline constexpr int kFirstUserMethod = 1000;
// How many a run may register (a table of fixed size, read without a lock: user_methods.cpp).
inline constexpr int kMaxUserMethods = 4096;

struct MethodCoefficients {
  enum class Type { RungeKutta, Splitting };
  std::string name;  // labels it in every table, CSV, caption and lane
  std::string path;  // the file it was read from ("" when made in code)
  Type type = Type::RungeKutta;
  // runge_kutta: the Butcher matrix (s x s, by rows), weights and nodes (c = row sums of a)
  std::vector<std::vector<double>> a;
  std::vector<double> b, c;
  // splitting: in order, a drift x += coefficient h v or a kick v += coefficient h a(x, v)
  struct Stage {
    bool drift = true;
    double coefficient = 0.0;
  };
  std::vector<Stage> stages;
  // a non-zero diagonal: a diagonally implicit Runge-Kutta method (solved stage by stage)
  bool diagonallyImplicit() const;
};

// What the coefficients say about the method (sim/method_facts.hpp).
struct MethodFacts {
  std::optional<int> order;  // from the order conditions, up to 5; none for a splitting
  // The stability boundaries (docs/integrators.md#your-own-method): the largest y with
  // |R(i y')| <= 1 for all 0 < y' <= y, and the same along the negative real axis; nothing when
  // the region holds the whole half-axis. A splitting's imaginary_axis is its largest h omega.
  std::optional<double> imaginary_axis, negative_real_axis;
  bool symplectic = false;
};

// Registers a method (the coefficients already checked: scene/method_file.hpp) and returns its
// Method (a problem only past kMaxUserMethods); a method read from the same path before keeps its
// first Method.
util::Expected<Method> registerMethod(MethodCoefficients coefficients);
bool isUserMethod(Method m);
// The registered method's coefficients and facts; nullptr for a built-in (or unknown) Method.
const MethodCoefficients* userCoefficients(Method m);
const MethodFacts* userFacts(Method m);
// The registered method of this name, if any (the first registered of that name).
std::optional<Method> findUserMethod(std::string_view name);
// What names the method again in a file (a saved scene, a recording's provenance): a built-in's
// name, a method file's path (its name is known only where its file is).
std::string methodReference(Method m);
// Its registry entries (registry.cpp asks these for a Method past the enumerators).
const IntegratorInfo& userInfo(Method m);
const OnKind& userOnKind(Method m, SystemKind kind);

}  // namespace sim
