// Command clamping, the key bindings and the strain colour map: the parts of the UI that need no
// ImGui context.
#include <algorithm>
#include <array>
#include <cmath>

#include "ui/panel.hpp"

namespace ui {

namespace {

double clampTo(double v, double lo, double hi) {
  return std::min(std::max(v, lo), hi);
}

}  // namespace

std::optional<Command> clampCommand(Command c) {
  using K = Command::Kind;
  if (!std::isfinite(c.value)) return std::nullopt;
  switch (c.kind) {
    case K::SetDt:
      c.value = clampTo(c.value, Limits::kDtMin, Limits::kDtMax);
      break;
    case K::SetTimeScale:
      c.value = clampTo(c.value, Limits::kTimeScaleMin, Limits::kTimeScaleMax);
      break;
    case K::SetStiffnessScale:
      c.value = clampTo(c.value, Limits::kStiffnessScaleMin, Limits::kStiffnessScaleMax);
      break;
    case K::SetSpringDamping:
      c.value = clampTo(c.value, 0.0, Limits::kDampingMax);
      break;
    case K::SetDrag:
      c.value = clampTo(c.value, 0.0, Limits::kDragMax);
      break;
    case K::SetJointDamping:
      c.value = clampTo(c.value, 0.0, Limits::kJointDampingMax);
      break;
    case K::SetGrabStiffness:
      c.value = clampTo(c.value, Limits::kGrabStiffnessMin, Limits::kGrabStiffnessMax);
      break;
    case K::SetStrainScale:
      c.value = clampTo(c.value, Limits::kStrainScaleMin, Limits::kStrainScaleMax);
      break;
    case K::SetPaused:
    case K::SetWireframe:
    case K::SetShowTrails:
    case K::SetShowSprings:
      c.value = c.value != 0.0 ? 1.0 : 0.0;
      break;
    case K::Step:
      c.count = std::clamp(c.count, 1, Limits::kStepCountMax);
      break;
    case K::SetPhaseCoordinate:
      c.count = std::max(c.count, 0);
      break;
    case K::SetGravity: {
      // keep the direction, clamp the magnitude
      for (double v : c.vec)
        if (!std::isfinite(v)) return std::nullopt;
      const double g = std::sqrt(c.vec[0] * c.vec[0] + c.vec[1] * c.vec[1] + c.vec[2] * c.vec[2]);
      if (!std::isfinite(g)) return std::nullopt;
      if (g > Limits::kGravityMax)
        for (double& v : c.vec) v *= Limits::kGravityMax / g;
      break;
    }
    case K::SetIntegrator:
    case K::LoadBuiltin:
    case K::LoadFile:
      if (c.text.empty()) return std::nullopt;
      break;
    case K::Reset:
    case K::Rewind:
    case K::Reload:
    case K::Screenshot:
    case K::Quit:
      break;
  }
  return c;
}

std::span<const Binding> bindings() {
  static constexpr std::array<Binding, 16> kBindings = {{
      {"Left-drag", "orbit"},
      {"Right-drag or Shift+left-drag", "pan"},
      {"Wheel", "zoom toward the cursor"},
      {"Double-click", "set the orbit centre"},
      {"F", "frame the scene"},
      {"T", "trail on the particle or bob under the cursor (again: off)"},
      {"Ctrl+left-drag", "grab the nearest particle or bob"},
      {"Space", "pause / run"},
      {"Right arrow", "step (Shift: 10 steps)"},
      {"R or Backspace", "reset"},
      {"Ctrl+L", "reload the scene file"},
      {"+ / -", "time scale x2 / /2"},
      {"Ctrl+P", "screenshot"},
      {"Tab", "hide / show the UI"},
      {"F1", "this help"},
      {"Ctrl+Q", "quit"},
  }};
  return kBindings;
}

Rgb strainColour(double x) {
  // the renderer's map (render::strainColor), restated because ui may not include render; a test
  // holds the two equal
  constexpr Rgb kBlue{0.12f, 0.36f, 0.98f}, kGrey{0.74f, 0.75f, 0.77f}, kRed{0.93f, 0.13f, 0.10f};
  if (std::isnan(x)) x = 0.0;  // neutral; +-inf are caught by the clamp below
  x = clampTo(x, -1.0, 1.0);
  const Rgb& a = kGrey;
  const Rgb& b = x < 0.0 ? kBlue : kRed;
  const float u = static_cast<float>(std::abs(x));
  const float t = u * (2.0f - u);  // ease-out, as the renderer
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

}  // namespace ui
