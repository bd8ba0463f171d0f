#include "app/physics_view.hpp"

#include <string>

#include "sim/registry.hpp"
#include "ui/panel.hpp"

namespace app {

namespace {
// "%.3g N s/m", "x%.3g" for a factor, "%.0f" for a count
std::string formatOf(const sim::ParameterInfo& row) {
  if (row.rule == sim::Rule::Whole) return "%.0f";
  if (row.unit.empty()) return "x%.3g";
  return "%.3g " + std::string(row.unit);
}

ui::ParameterControl::Style styleOf(const sim::ParameterInfo& row) {
  if (row.rule == sim::Rule::Vector) return ui::ParameterControl::Style::Direction;
  if (row.rule == sim::Rule::Velocity) return ui::ParameterControl::Style::Heading;
  return ui::ParameterControl::Style::Slider;
}

// the largest value a typed entry may reach, as text: "1000"
std::string typedMax(double hi) {
  return std::to_string(static_cast<long long>(hi));
}

// An automatic setting's text on its slider: "auto (12)", what lane 0's last step took.
std::string automaticFormat(const lab::Lane& primary, sim::Parameter p) {
  const sim::Stepper::Settings used = primary.settingsUsed();
  const int n = p == sim::Parameter::Substeps ? used.substeps : used.iterations;
  return n > 0 ? "auto (" + std::to_string(n) + ")" : "auto";
}

// A row of the parameter table as the panel's control: its range, format, commit and tooltip;
// the iterated methods' settings say what they are for the current integrator.
ui::ParameterControl control(const scene::Built& b, const lab::Lane& primary,
                             const sim::ParameterInfo& row) {
  ui::ParameterControl c;
  c.id = static_cast<int>(row.parameter);
  c.style = styleOf(row);
  c.label = std::string(row.label);
  c.format = formatOf(row);
  c.tooltip = std::string(row.tooltip);
  if (!row.unit.empty()) c.tooltip.append(" In ").append(row.unit).append(".");
  const sim::IntegratorInfo& method = sim::info(primary.method());
  const std::string_view meaning =
      row.parameter == sim::Parameter::Substeps     ? method.substeps_meaning
      : row.parameter == sim::Parameter::Iterations ? method.iterations_meaning
                                                    : std::string_view();
  if (!meaning.empty())
    c.tooltip = std::string(method.name) + ": " + std::string(meaning) +
                " Ctrl+click to type up to " + typedMax(row.hi) + ".";
  c.lo = row.lo, c.hi = row.hi;
  c.slider_hi = row.slider_hi > 0.0 ? row.slider_hi : row.hi;
  c.logarithmic = row.logarithmic;
  c.live = row.live;
  c.whole = row.rule == sim::Rule::Whole;
  c.value = b.parameter(row.parameter);
  if (row.method_setting && c.value == sim::kAutomatic)
    c.format = automaticFormat(primary, row.parameter);
  const sim::Vec3 v = b.vectorParameter(row.parameter);
  c.vec = {v.x(), v.y(), v.z()};
  return c;
}

}  // namespace

// The controls of the parameters that apply (substeps and iterations only while the integrator
// has them), gravity for the Heading control's basis, the drag for its note.
void fillPhysics(const scene::Built& b, const lab::Lane& primary, double grabStiffness,
                 ui::PhysicsView& v) {
  const bool iterated = sim::info(primary.method()).iterated;
  v.parameters.clear();
  for (const sim::ParameterInfo& row : sim::parameters()) {
    if (!b.has(row.parameter)) continue;
    if (row.method_setting && !iterated) continue;
    v.parameters.push_back(control(b, primary, row));
  }
  const sim::Vec3 g = b.gravity();
  for (int k = 0; k < 3; ++k) v.gravity[k] = g[k];
  v.drag = b.parameter(sim::Parameter::Drag);
  v.wind_acts = v.drag > 0.0 && !b.vectorParameter(sim::Parameter::Wind).isZero();
  v.grab_stiffness = grabStiffness;
}

}  // namespace app
