// Shared helpers for the panel's tests (tests/test_ui*.cpp): an ImGui context driven by a simulated
// mouse and keyboard (Harness), a mass-spring panel model with histories (Fixture), the controls
// the app makes from the parameter table, and a lane's row. Not a test file itself (the glob only
// picks up test_*.cpp).
#pragma once

#include <doctest/doctest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ui/panel.hpp"

namespace uitest {

inline constexpr int kEnterKey = 257;

// An ImGui context with a built font atlas and no backend; every frame's commands are collected.
struct Harness {
  ImGuiContext* ctx;
  ui::ItemProbe probe;
  std::vector<ui::Command> commands;  // everything emitted since the last clear

  explicit Harness(float width = 1280, float height = 720) {
    ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = 1.0f / 60.0f;
    io.KeyMap[ImGuiKey_Enter] = kEnterKey;
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    io.MousePos = ImVec2(width - 1, height - 1);  // away from every window
  }
  ~Harness() { ImGui::DestroyContext(ctx); }

  // one frame; draw returns that frame's commands
  void frame(const std::function<std::vector<ui::Command>()>& draw) {
    ImGui::NewFrame();
    probe.items.clear();
    const std::vector<ui::Command> c = draw();
    commands.insert(commands.end(), c.begin(), c.end());
    ImGui::Render();
  }

  const ui::ItemRect& item(const std::string& name) const {
    const ui::ItemRect* r = probe.find(name);
    INFO("widget: " << name);
    REQUIRE(r != nullptr);
    return *r;
  }
  void moveTo(const std::string& name, float fx = 0.5f) {
    const ui::ItemRect& r = item(name);
    ImGui::GetIO().MousePos = ImVec2(r.x0 + (r.x1 - r.x0) * fx, 0.5f * (r.y0 + r.y1));
  }
  // hover, press, release, then an idle frame
  void click(const std::string& name, const std::function<std::vector<ui::Command>()>& draw,
             bool ctrl = false) {
    ImGuiIO& io = ImGui::GetIO();
    moveTo(name);
    frame(draw);
    io.KeyCtrl = ctrl;
    io.MouseDown[0] = true;
    frame(draw);
    io.MouseDown[0] = false;
    io.KeyCtrl = false;
    frame(draw);
    frame(draw);
  }
  // Ctrl+click a slider, type the text, press Enter
  void typeInto(const std::string& name, const std::string& text,
                const std::function<std::vector<ui::Command>()>& draw) {
    ImGuiIO& io = ImGui::GetIO();
    click(name, draw, /*ctrl=*/true);
    for (char ch : text) io.AddInputCharacter(static_cast<unsigned>(ch));
    frame(draw);
    io.KeysDown[kEnterKey] = true;
    frame(draw);
    io.KeysDown[kEnterKey] = false;
    frame(draw);
    frame(draw);
  }
  // drag a slider's grab from one end to the other (fractions of its width)
  void drag(const std::string& name, float from, float to,
            const std::function<std::vector<ui::Command>()>& draw) {
    ImGuiIO& io = ImGui::GetIO();
    moveTo(name, from);
    frame(draw);
    io.MouseDown[0] = true;
    frame(draw);
    const ui::ItemRect r = item(name);
    for (int i = 1; i <= 4; ++i) {
      const float f = from + (to - from) * float(i) / 4.0f;
      io.MousePos.x = r.x0 + (r.x1 - r.x0) * f;
      frame(draw);
    }
    io.MouseDown[0] = false;
    frame(draw);
    frame(draw);
  }
  // the text that one frame draws in the first window `draw` opens: ImGui's log of rendered text,
  // which ends with that window and goes to the (internal) clipboard
  std::string text(const std::function<std::vector<ui::Command>()>& draw) {
    ImGui::SetClipboardText("");
    ImGui::NewFrame();
    probe.items.clear();
    ImGui::LogToClipboard();
    const std::vector<ui::Command> c = draw();
    ImGui::LogFinish();
    commands.insert(commands.end(), c.begin(), c.end());
    ImGui::Render();
    return ImGui::GetClipboardText();
  }
  bool tooltipShown() const {
    ImGuiWindow* w = ImGui::FindWindowByName("##Tooltip_00");
    return w != nullptr && w->Active;
  }
  // the parameter commands for control `id` emitted so far
  std::vector<ui::SetParameter> params(int id) const {
    std::vector<ui::SetParameter> r;
    for (const auto& c : of<ui::SetParameter>())
      if (c.id == id) r.push_back(c);
    return r;
  }
  std::vector<ui::SetVectorParameter> vectors(int id) const {
    std::vector<ui::SetVectorParameter> r;
    for (const auto& c : of<ui::SetVectorParameter>())
      if (c.id == id) r.push_back(c);
    return r;
  }
  // the display flag commands for `flag` emitted so far
  std::vector<ui::SetDisplayFlag> flags(ui::DisplayFlag flag) const {
    std::vector<ui::SetDisplayFlag> r;
    for (const auto& c : of<ui::SetDisplayFlag>())
      if (c.flag == flag) r.push_back(c);
    return r;
  }
  // the commands of type C emitted so far
  template <class C>
  std::vector<C> of() const {
    std::vector<C> r;
    for (const ui::Command& c : commands)
      if (const C* x = ui::commandAs<C>(c)) r.push_back(*x);
    return r;
  }
};

inline std::vector<float> series(int n, double (*f)(double)) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(f(i * 0.05));
  return v;
}

// The ids the fixture's controls carry (any distinct numbers: the panel passes them through).
enum ControlId {
  kStiffness = 10,
  kDamping,
  kSubsteps,
  kIterations,
  kDrag,
  kWind,
  kGravity,
  kJoint
};

inline ui::ParameterControl slider(int id, const char* label, double lo, double hi, bool live,
                                   double value) {
  ui::ParameterControl c;
  c.id = id, c.label = label, c.format = "%.3g", c.tooltip = std::string(label) + ", in units.";
  c.lo = lo, c.hi = c.slider_hi = hi, c.live = live, c.value = value;
  return c;
}

inline ui::ParameterControl vectorControl(int id, const char* label,
                                          ui::ParameterControl::Style style, double hi,
                                          std::array<double, 3> v) {
  ui::ParameterControl c = slider(id, label, 0.0, hi, true, std::hypot(v[0], v[1], v[2]));
  c.style = style, c.vec = v, c.logarithmic = style == ui::ParameterControl::Style::Heading;
  return c;
}

// The controls of a mass-spring system (as the app makes them from the parameter table).
inline std::vector<ui::ParameterControl> springControls(bool iterated, std::array<double, 3> wind) {
  using S = ui::ParameterControl::Style;
  std::vector<ui::ParameterControl> out = {
      slider(kStiffness, "Stiffness scale", 1e-3, 1e3, false, 1.0),
      slider(kDamping, "Spring damping", 0.0, 1e3, false, 0.0)};
  if (iterated) {
    for (auto [id, label] : {std::pair{kSubsteps, "Substeps"}, {kIterations, "Iterations"}}) {
      ui::ParameterControl c = slider(id, label, 1.0, 1000.0, false, 1.0);
      c.slider_hi = 100.0, c.whole = true;
      out.push_back(c);
    }
  }
  out.push_back(slider(kDrag, "Drag", 0.0, 1e3, true, 0.0));
  out.push_back(vectorControl(kWind, "Wind", S::Heading, 100.0, wind));
  out.push_back(vectorControl(kGravity, "Gravity", S::Direction, 100.0, {0.0, -9.81, 0.0}));
  return out;
}

// The controls of a pendulum: gravity and joint damping.
inline std::vector<ui::ParameterControl> pendulumControls() {
  return {vectorControl(kGravity, "Gravity", ui::ParameterControl::Style::Direction, 100.0,
                        {0.0, -9.81, 0.0}),
          slider(kJoint, "Joint damping", 0.0, 1e2, true, 0.0)};
}

// A mass-spring model with histories.
struct Fixture {
  std::vector<float> t = series(200, [](double x) { return x; });
  std::vector<float> ke = series(200, [](double x) { return 1.0 + std::sin(x); });
  std::vector<float> pe = series(200, [](double x) { return 1.0 - std::sin(x); });
  std::vector<float> te = series(200, [](double) { return 2.0; });
  std::vector<float> drift = series(200, [](double x) { return 1e-9 * std::exp(x); });
  std::vector<float> q = series(200, [](double x) { return std::cos(x); });
  std::vector<float> v = series(200, [](double x) { return -std::sin(x); });
  ui::PanelModel model;
  ui::PanelState state;

  Fixture() {
    model.scene.builtin_scenes = {"chain", "cloth", "double-pendulum"};
    model.scene.name = "cloth";
    model.scene.particles = 400, model.scene.springs = 1482, model.scene.dofs = 1200;
    model.clock.integrators = {
        {"explicit-euler", "order 1, not symplectic, cheap"},
        {"symplectic-euler", "order 1, symplectic, cheap"},
        {"implicit-euler", "order 1, unconditionally stable, a sparse solve"}};
    model.clock.integrator = "symplectic-euler";
    model.plots.energy_time = t, model.plots.kinetic = ke, model.plots.potential = pe,
    model.plots.total = te;
    model.plots.drift = drift, model.plots.phase_q = q, model.plots.phase_v = v;
    model.plots.phase_coordinates = {"x0", "y0", "z0"};
    model.physics.parameters = springControls(false, wind);
  }
  std::array<double, 3> wind{};
  // as the app fills a pendulum's panel: its integrators and parameters
  void pendulum() {
    model.physics.parameters = pendulumControls();
    model.scene.links = 2, model.scene.springs = model.scene.particles = 0;
  }
  // a wind (m/s) on the mass-spring controls
  void setWind(std::array<double, 3> w) {
    wind = w;
    model.physics.parameters = springControls(
        model.clock.integrator == "xpbd" || model.clock.integrator == "projective", w);
    model.physics.wind_acts =
        model.physics.drag > 0.0 && (w[0] != 0.0 || w[1] != 0.0 || w[2] != 0.0);
  }
  std::function<std::vector<ui::Command>()> panel(Harness& h) {
    state.probe = &h.probe;
    return [this] { return ui::drawPanel(model, state); };
  }
};

// A lane's row as the app fills it: its integrator and dt, and its plots over the fixture's times
// (the row's spans view `distance`: it must outlive the frames).
inline ui::LaneRow laneRow(const Fixture& f, const char* integrator, double dt,
                           const std::vector<float>& distance) {
  ui::LaneRow row;
  row.integrator = integrator;
  row.dt = dt;
  row.time = f.t, row.drift = f.drift, row.distance = distance;
  return row;
}

}  // namespace uitest
