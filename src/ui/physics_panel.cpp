// The panel's Physics section: a control for each physics parameter that applies, and the mouse
// spring's stiffness; each change a Command (docs/architecture.md#the-session-and-commands).
#include <imgui.h>

#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <utility>

#include "ui/widgets.hpp"

namespace ui::detail {

namespace {

constexpr double kDegreesPerRadian = 180.0 / std::numbers::pi;

double norm(const std::array<double, 3>& v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

// v's direction (unit), or `fallback` when v is zero or not finite
std::array<double, 3> directionOf(const std::array<double, 3>& v, std::array<double, 3> fallback) {
  const double n = norm(v);
  if (!(n > 0.0) || !std::isfinite(n)) return fallback;
  return {v[0] / n, v[1] / n, v[2] / n};
}

// gravity's direction (unit), -y when the model's gravity is zero
std::array<double, 3> gravityDirection(const PanelModel& m) {
  return directionOf({m.physics.gravity[0], m.physics.gravity[1], m.physics.gravity[2]},
                     {0.0, -1.0, 0.0});
}

// The vector of magnitude `magnitude` (clamped to the control's range) along `dir`; nothing when
// the magnitude is not finite.
std::optional<Command> vectorCommand(const ParameterControl& c, const std::array<double, 3>& dir,
                                     double magnitude) {
  const auto v = clampToControl(c, magnitude);
  if (!v) return std::nullopt;
  return SetVectorParameter{c.id, {dir[0] * *v, dir[1] * *v, dir[2] * *v}};
}

void emitIf(std::vector<Command>& out, std::optional<Command> c) {
  if (c) emit(out, std::move(*c));
}

// The horizontal directions of a Heading control: e1 along +x and e2 = e1 x up, up against
// gravity (+y without gravity), so that a heading of 0 degrees blows along +x and 90 along +z in
// the usual scene. In a planar scene the heading turns in the x-y plane instead (a planar scene's
// wind has no z).
void headingBasis(const PanelModel& m, double e1[3], double e2[3]) {
  if (m.display.planar) {
    e1[0] = 1.0, e1[1] = 0.0, e1[2] = 0.0;
    e2[0] = 0.0, e2[1] = 1.0, e2[2] = 0.0;
    return;
  }
  const std::array<double, 3> down = gravityDirection(m);
  const double up[3] = {-down[0], -down[1], -down[2]};
  const double ax[2][3] = {{1.0, 0.0, 0.0}, {0.0, 0.0, 1.0}};
  for (const auto& a : ax) {  // +x off the vertical, or +z where x is vertical
    const double along = a[0] * up[0] + a[1] * up[1] + a[2] * up[2];
    double n = 0.0;
    for (int k = 0; k < 3; ++k) e1[k] = a[k] - along * up[k], n += e1[k] * e1[k];
    n = std::sqrt(n);
    if (n < 0.5) continue;
    for (int k = 0; k < 3; ++k) e1[k] /= n;
    break;
  }
  e2[0] = e1[1] * up[2] - e1[2] * up[1];
  e2[1] = e1[2] * up[0] - e1[0] * up[2];
  e2[2] = e1[0] * up[1] - e1[1] * up[0];
}

// degrees from e1 towards e2 (headingBasis) of the vector's horizontal part; 0 without one
double headingOf(const PanelModel& m, const std::array<double, 3>& v) {
  double e1[3], e2[3];
  headingBasis(m, e1, e2);
  double a = 0.0, b = 0.0;
  for (int k = 0; k < 3; ++k) a += v[k] * e1[k], b += v[k] * e2[k];
  return a == 0.0 && b == 0.0 ? 0.0 : std::atan2(b, a) * kDegreesPerRadian;
}

// A horizontal vector of `speed` towards `heading` degrees (headingBasis).
std::optional<Command> headingCommand(const PanelModel& m, const ParameterControl& c, double speed,
                                      double heading) {
  double e1[3], e2[3];
  headingBasis(m, e1, e2);
  const double a = heading / kDegreesPerRadian;
  std::array<double, 3> dir;
  for (int k = 0; k < 3; ++k) dir[k] = std::cos(a) * e1[k] + std::sin(a) * e2[k];
  return vectorCommand(c, dir, speed);
}

constexpr double kHeadingMax = 180.0;  // degrees either way from +x

detail::SliderSpec sliderOf(const ParameterControl& c) {
  return {c.label.c_str(),  c.lo,          c.slider_hi,
          c.format.c_str(), c.logarithmic, c.live ? Commit::Live : Commit::OnRelease,
          c.tooltip.c_str()};
}

// A number (Style::Slider): the typed value clamped to the control's range.
void parameterSlider(const ParameterControl& c, PanelState& st, std::vector<Command>& out) {
  double v = 0.0;
  if (!detail::slider(sliderOf(c), c.value, st, &v)) return;
  if (const auto x = clampToControl(c, v)) emit(out, SetParameter{c.id, *x});
}

// A vector's speed (its direction kept; +x from calm) and heading (horizontal at the same speed):
// Style::Heading, the wind's.
void headingControl(const PanelModel& m, const ParameterControl& c, PanelState& st,
                    std::vector<Command>& out) {
  const double speed = norm(c.vec);
  double v = 0.0;
  if (detail::slider(sliderOf(c), speed, st, &v))
    emitIf(out, speed > 0.0 ? vectorCommand(c, directionOf(c.vec, {1.0, 0.0, 0.0}), v)
                            : headingCommand(m, c, v, headingOf(m, c.vec)));
  const std::string label = c.label + " heading";
  if (detail::slider(
          {label.c_str(), -kHeadingMax, kHeadingMax, "%.0f deg", false, Commit::Live,
           m.display.planar ? "Direction in the scene's plane, in degrees from +x towards +y, "
                              "at the same speed."
                            : "Direction in the horizontal plane, in degrees from +x towards "
                              "+z, at the same speed (a vertical part is dropped)."},
          headingOf(m, c.vec), st, &v))
    emitIf(out, headingCommand(m, c, speed, v));
  if (m.physics.drag == 0.0 && speed > 0.0)
    ImGui::TextDisabled("Drag is 0: the wind has no effect.");
}

// A vector's magnitude, its direction kept, with presets (Style::Direction): gravity's.
void directionControl(const PanelModel& m, const ParameterControl& c, PanelState& st,
                      std::vector<Command>& out) {
  const std::array<double, 3> dir = directionOf(c.vec, gravityDirection(m));
  double v = 0.0;
  if (detail::slider(sliderOf(c), c.value, st, &v)) emitIf(out, vectorCommand(c, dir, v));
  struct Preset {
    const char* label;
    double magnitude;
    const char* tooltip;
  };
  static constexpr Preset kPresets[] = {
      {"Earth", 9.81, "Gravity 9.81 m/s^2 (Earth), same direction."},
      {"Moon", 1.62, "Gravity 1.62 m/s^2 (Moon), same direction."},
      {"Zero", 0.0, "No gravity."},
  };
  for (int i = 0; i < 3; ++i) {
    if (i > 0) ImGui::SameLine();
    ImGui::PushID(i);
    if (button(kPresets[i].label, kPresets[i].tooltip, st.probe))
      emitIf(out, vectorCommand(c, dir, kPresets[i].magnitude));
    ImGui::PopID();
  }
}

}  // namespace

// The physics parameters that apply, as the app listed them (the parameter table's order), and
// the mouse spring's stiffness.
void physicsSection(const PanelModel& m, PanelState& st, std::vector<Command>& out) {
  for (const ParameterControl& c : m.physics.parameters) {
    ImGui::PushID(c.id);
    switch (c.style) {
      case ParameterControl::Style::Slider:
        parameterSlider(c, st, out);
        break;
      case ParameterControl::Style::Heading:
        headingControl(m, c, st, out);
        break;
      case ParameterControl::Style::Direction:
        directionControl(m, c, st, out);
        break;
    }
    ImGui::PopID();
  }
  double v = 0.0;
  if (detail::slider({"Grab stiffness", Limits::kGrabStiffnessMin, Limits::kGrabStiffnessMax,
                      "%.3g N/m", true, Commit::Live,
                      "Stiffness of the mouse spring used by Ctrl+left-drag, in N/m "
                      "(logarithmic)."},
                     m.physics.grab_stiffness, st, &v))
    emit(out, SetGrabStiffness{v});
}

}  // namespace ui::detail
