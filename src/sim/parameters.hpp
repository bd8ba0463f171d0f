// The one parameter table (docs/architecture.md#one-parameter-table): every parameter a user may
// change while a system runs, with its name, unit, rule, range, the kinds it applies to and how
// omega_max follows it. System::setParameter applies its rule; events `--at` take its keys; the
// Session checks its window range; the panel draws its sliders from it; docs/cli.md lists it (a
// test holds the doc to the table).
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "sim/model.hpp"
#include "sim/registry.hpp"

namespace sim {

// In the table's order, which is the panel's.
enum class Parameter {
  StiffnessScale,  // multiplies every spring's k of the scene
  SpringDamping,   // N s/m, every spring's dashpot
  Substeps,        // xpbd's and projective's substeps per step
  Iterations,      // their sweeps or iterations per substep
  Drag,            // N s/m, linear drag on every particle
  Wind,            // m/s, the air's velocity (a vector, felt through the drag)
  Gravity,         // m/s^2, a vector
  JointDamping,    // N m s/rad, every pendulum joint's rotary dashpot
};
inline constexpr int kParameterCount = static_cast<int>(Parameter::JointDamping) + 1;

// What a value must be, wherever it comes from (System::setParameter, `--at`).
enum class Rule {
  Positive,     // a finite number > 0
  NonNegative,  // a finite number >= 0
  Whole,        // a whole number from the range's lo to its hi
  Vector,       // a finite vector
  Velocity,     // a finite vector no faster than the range's hi (m/s)
};

// Where a row sits in a scene file (docs/scenes.md): under its key at the top level, in the
// "system" object, or nowhere (the scene gives it in other terms: each spring's k and damping).
// The loader, the saver and the builder iterate the rows (scene/load_parameters.cpp, save.cpp,
// build.cpp).
enum class SceneSlot { None, Top, System };

// A parameter on one kind of system: each kind's own column (MassSpringKind::onParameter, ...).
struct ParameterOnKind {
  std::string_view absent;    // why it does not apply ("a pendulum has no springs"); empty: it does
  bool scales_omega = false;  // omega_max grows as sqrt(value / value at load)
};

struct ParameterInfo {
  Parameter parameter;
  std::string_view key;    // events `--at` and docs/cli.md: "stiffness_scale"
  std::string_view label;  // the panel's: "Stiffness scale"
  std::string_view unit;   // SI, "" for a dimensionless factor or count
  Rule rule;
  // The window's range (the panel's slider; Session rejects a value outside): a vector's
  // magnitude. slider_hi, when set, ends the slider below hi (Ctrl+click types up to hi).
  double lo, hi, slider_hi = 0.0;
  double neutral = 0.0;  // the value of a parameter that does not apply
  bool logarithmic = true;
  bool live = true;    // applied while dragging; false: on release (factorisations are rebuilt)
  bool event = false;  // a key of `--at` (a scalar)
  bool conservative = false;  // keeps the energy's meaning: the drift re-anchors after a change
  // a setting of the iterated methods (sim::IntegratorInfo::iterated): shown while one is in use
  bool method_setting = false;
  SceneSlot scene = SceneSlot::None;
  // the value where the scene file names none (a scalar in [0]); 0 for a method setting is
  // kAutomatic
  std::array<double, 3> scene_default = {};
  // a row that acts only through another, which must then be > 0 (the wind through the drag)
  std::optional<Parameter> acts_through = std::nullopt;
  std::string_view tooltip;  // the panel's, after the unit
};

std::span<const ParameterInfo> parameters();
const ParameterInfo& parameterInfo(Parameter p);
// The row whose key is `key`, if any.
const ParameterInfo* findParameter(std::string_view key);
const ParameterOnKind& onKind(Parameter p, SystemKind kind);
// Why `p` does not apply to a `kind` system, or nothing when it does.
std::optional<std::string> notApplicable(Parameter p, SystemKind kind);
// What is wrong with a scalar value by the parameter's rule ("must be a finite number > 0"), or
// nothing; the vector rules take checkVector.
std::optional<std::string> checkValue(const ParameterInfo& p, double value);
std::optional<std::string> checkVector(const ParameterInfo& p, const double (&v)[3]);
// The `--at` keys of the table, comma separated, in table order.
std::string eventParameterKeys();

// The values a scene gives the rows with a scene slot (scene::SceneDef::parameters), each row's
// scene default until set: a scalar or a vector per row (a scalar in x).
class ParameterValues {
 public:
  ParameterValues();
  double scalar(Parameter p) const { return values_[index(p)].x(); }
  const Vec3& vector(Parameter p) const { return values_[index(p)]; }
  void set(Parameter p, double value) { values_[index(p)] = Vec3(value, 0.0, 0.0); }
  void set(Parameter p, const Vec3& value) { values_[index(p)] = value; }
  bool isDefault(Parameter p) const;
  bool operator==(const ParameterValues&) const = default;

 private:
  static size_t index(Parameter p) { return static_cast<size_t>(p); }
  std::array<Vec3, kParameterCount> values_;
};

// Whether a row's value is a vector (Rule::Vector, Rule::Velocity).
bool isVector(const ParameterInfo& p);

}  // namespace sim
