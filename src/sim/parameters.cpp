#include "sim/parameters.hpp"

#include <cmath>

#include "sim/kinds.hpp"
#include "sim/model.hpp"

namespace sim {

namespace {
// The panel's sliders of substeps and iterations end here; Ctrl+click types up to the maximum.
constexpr double kIterationSliderMax = 100;

constexpr ParameterInfo kTable[] = {
    {.parameter = Parameter::StiffnessScale,
     .key = "stiffness_scale",
     .label = "Stiffness scale",
     .unit = "",
     .rule = Rule::Positive,
     .lo = 1e-3,
     .hi = 1e3,
     .neutral = 1.0,
     .live = false,
     .event = true,
     .conservative = true,
     .tooltip = "Multiplies every spring's stiffness k (logarithmic; Shift while dragging: 10 "
                "times finer). Applied on release: implicit integrators refactorise."},
    {.parameter = Parameter::SpringDamping,
     .key = "damping",
     .label = "Spring damping",
     .unit = "N s/m",
     .rule = Rule::NonNegative,
     .lo = 0.0,
     .hi = 1e3,
     .live = false,
     .event = true,
     .tooltip = "Dashpot coefficient of every spring: damps stretching only. Applied on "
                "release: projective refactorises."},
    {.parameter = Parameter::Substeps,
     .key = "substeps",
     .label = "Substeps",
     .unit = "",
     .rule = Rule::Whole,
     .lo = 0.0,  // kAutomatic
     .hi = kMaxSubsteps,
     .slider_hi = kIterationSliderMax,
     .neutral = 1.0,
     .live = false,
     .event = true,
     .method_setting = true,
     .scene = SceneSlot::Top,
     .tooltip = "xpbd's, projective's and vbd's substeps per step; 0: the method chooses (xpbd "
                "from the system's highest frequency, projective and vbd 1)."},
    {.parameter = Parameter::Iterations,
     .key = "iterations",
     .label = "Iterations",
     .unit = "",
     .rule = Rule::Whole,
     .lo = 0.0,  // kAutomatic
     .hi = kMaxIterations,
     .slider_hi = kIterationSliderMax,
     .neutral = 1.0,
     .live = false,
     .event = true,
     .method_setting = true,
     .scene = SceneSlot::Top,
     .tooltip = "xpbd's and vbd's sweeps or projective's iterations per substep; 0: the method "
                "chooses (xpbd 1, projective until its increment is 1 % of the substep's motion, "
                "vbd until its residual is 1 % of the weights, at most 12)."},
    {.parameter = Parameter::Drag,
     .key = "drag",
     .label = "Drag",
     .unit = "N s/m",
     .rule = Rule::NonNegative,
     .lo = 0.0,
     .hi = 1e3,
     .event = true,
     .scene = SceneSlot::System,
     .tooltip = "Linear air drag on every particle: force = -c (v - wind)."},
    {.parameter = Parameter::Wind,
     .key = "wind",
     .label = "Wind",
     .unit = "m/s",
     .rule = Rule::Velocity,
     .lo = 0.0,
     .hi = kMaxWind,
     .scene = SceneSlot::System,
     .acts_through = Parameter::Drag,
     .tooltip = "Speed of the air, felt through the drag: force = -c (v - wind). Its direction "
                "is kept (+x from calm)."},
    {.parameter = Parameter::Gravity,
     .key = "gravity",
     .label = "Gravity",
     .unit = "m/s^2",
     .rule = Rule::Vector,
     .lo = 0.0,
     .hi = 100.0,
     .logarithmic = false,
     .conservative = true,
     .scene = SceneSlot::Top,
     .scene_default = {0.0, -9.81, 0.0},  // m/s^2, the Earth's, downwards (-y)
     .tooltip = "Magnitude of gravity; its direction is kept."},
    {.parameter = Parameter::JointDamping,
     .key = "joint_damping",
     .label = "Joint damping",
     .unit = "N m s/rad",
     .rule = Rule::NonNegative,
     .lo = 0.0,
     .hi = 1e2,
     .event = true,
     .scene = SceneSlot::System,
     .tooltip = "Viscous damping at every joint: torque = -c (relative angular rate)."},
};

static_assert(std::size(kTable) == kParameterCount, "a row per sim::Parameter");

std::string wholeNumber(double v) {
  return std::to_string(static_cast<long long>(v));
}
}  // namespace

std::span<const ParameterInfo> parameters() {
  return kTable;
}

const ParameterInfo& parameterInfo(Parameter p) {
  return kTable[static_cast<int>(p)];  // the rows are in enum order (a test holds it)
}

const ParameterInfo* findParameter(std::string_view key) {
  for (const auto& p : kTable)
    if (p.key == key) return &p;
  return nullptr;
}

const ParameterOnKind& onKind(Parameter p, SystemKind kind) {
  return withKind(kind, [p](auto unit) -> const ParameterOnKind& {
    return decltype(unit)::type::onParameter(p);
  });
}

std::optional<std::string> notApplicable(Parameter p, SystemKind kind) {
  const std::string_view why = onKind(p, kind).absent;
  if (why.empty()) return std::nullopt;
  return std::string(why);
}

std::optional<std::string> checkValue(const ParameterInfo& p, double v) {
  switch (p.rule) {
    case Rule::Positive:
      if (std::isfinite(v) && v > 0.0) return std::nullopt;
      return "must be a finite number > 0";
    case Rule::NonNegative:
      if (std::isfinite(v) && v >= 0.0) return std::nullopt;
      return "must be a finite number >= 0";
    case Rule::Whole:
      if (std::isfinite(v) && v >= p.lo && v <= p.hi && v == std::floor(v)) return std::nullopt;
      // a method setting's 0 is kAutomatic: the method chooses (docs/integrators.md)
      return "must be a whole number from " + wholeNumber(p.lo) + " to " + wholeNumber(p.hi) +
             (p.method_setting ? " (0: automatic)" : "");
    case Rule::Vector:
    case Rule::Velocity:
      return "must be a vector";
  }
  return "unknown rule";
}

std::optional<std::string> checkVector(const ParameterInfo& p, const double (&v)[3]) {
  if (p.rule != Rule::Vector && p.rule != Rule::Velocity) return "must be a number";
  for (double c : v)
    if (!std::isfinite(c)) return "not a finite vector";
  if (p.rule == Rule::Velocity && std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) > p.hi)
    return "faster than " + wholeNumber(p.hi) + " " + std::string(p.unit);
  return std::nullopt;
}

std::string eventParameterKeys() {
  std::string out;
  for (const auto& p : kTable)
    if (p.event) out.append(out.empty() ? "" : ", ").append(p.key);
  return out;
}

bool isVector(const ParameterInfo& p) {
  return p.rule == Rule::Vector || p.rule == Rule::Velocity;
}

ParameterValues::ParameterValues() {
  for (const ParameterInfo& row : kTable) {
    const auto& d = row.scene_default;
    values_[index(row.parameter)] = Vec3(d[0], d[1], d[2]);
  }
}

bool ParameterValues::isDefault(Parameter p) const {
  const auto& d = parameterInfo(p).scene_default;
  return values_[index(p)] == Vec3(d[0], d[1], d[2]);
}

}  // namespace sim
