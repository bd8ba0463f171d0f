// The ImGui panel without a renderer: an ImGui context, frames driven by a simulated mouse and
// keyboard, widgets found through ui::ItemProbe, and the commands checked.
#include <doctest/doctest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "fp_trap.hpp"
#include "ui/panel.hpp"

namespace {

constexpr int kEnterKey = 257;

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

std::vector<float> series(int n, double (*f)(double)) {
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

ui::ParameterControl slider(int id, const char* label, double lo, double hi, bool live,
                            double value) {
  ui::ParameterControl c;
  c.id = id, c.label = label, c.format = "%.3g", c.tooltip = std::string(label) + ", in units.";
  c.lo = lo, c.hi = c.slider_hi = hi, c.live = live, c.value = value;
  return c;
}

ui::ParameterControl vectorControl(int id, const char* label, ui::ParameterControl::Style style,
                                   double hi, std::array<double, 3> v) {
  ui::ParameterControl c = slider(id, label, 0.0, hi, true, std::hypot(v[0], v[1], v[2]));
  c.style = style, c.vec = v, c.logarithmic = style == ui::ParameterControl::Style::Heading;
  return c;
}

// The controls of a mass-spring system (as the app makes them from the parameter table).
std::vector<ui::ParameterControl> springControls(bool iterated, std::array<double, 3> wind) {
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
std::vector<ui::ParameterControl> pendulumControls() {
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

}  // namespace

TEST_CASE("ui: clampCommand clamps to Limits and drops non-finite values") {
  using L = ui::Limits;
  auto dt = [](double v) -> std::optional<double> {
    const auto c = ui::clampCommand(ui::SetDt{v});
    return c ? std::optional<double>(ui::commandAs<ui::SetDt>(*c)->dt) : std::nullopt;
  };
  CHECK(*dt(10.0) == L::kDtMax);
  CHECK(*dt(1e-12) == L::kDtMin);
  CHECK(*dt(-1.0) == L::kDtMin);
  CHECK(*dt(2e-3) == 2e-3);
  CHECK_FALSE(dt(std::nan("")).has_value());
  CHECK_FALSE(dt(std::numeric_limits<double>::infinity()).has_value());
  auto scale = [](double v) {
    return ui::commandAs<ui::SetTimeScale>(*ui::clampCommand(ui::SetTimeScale{v}))->scale;
  };
  CHECK(scale(100.0) == L::kTimeScaleMax);
  CHECK(scale(0.0) == L::kTimeScaleMin);
  CHECK(ui::commandAs<ui::SetGrabStiffness>(*ui::clampCommand(ui::SetGrabStiffness{0.0}))
            ->stiffness == L::kGrabStiffnessMin);
  CHECK(ui::commandAs<ui::SetStrainScale>(*ui::clampCommand(ui::SetStrainScale{1e3}))->scale ==
        L::kStrainScaleMax);
  // parameters: finite only (their range is their control's)
  CHECK(ui::clampCommand(ui::SetParameter{3, 1e9}).has_value());
  CHECK_FALSE(ui::clampCommand(ui::SetParameter{3, std::nan("")}).has_value());
  CHECK_FALSE(ui::clampCommand(ui::SetVectorParameter{3, {0.0, std::nan(""), 0.0}}).has_value());
  // names must be there
  CHECK_FALSE(ui::clampCommand(ui::SetIntegrator{""}).has_value());
  CHECK_FALSE(ui::clampCommand(ui::AddLane{"", 0.001}).has_value());
  CHECK(ui::commandAs<ui::AddLane>(*ui::clampCommand(ui::AddLane{"rk4", 5.0}))->dt == L::kDtMax);
  CHECK(ui::commandAs<ui::Step>(*ui::clampCommand(ui::Step{0}))->count == 1);
  CHECK(ui::commandAs<ui::Step>(*ui::clampCommand(ui::Step{1 << 30}))->count == L::kStepCountMax);
}

namespace {
// Stand-ins for an owner's applier: ui::kAppliesExactly, which every applier asserts (Session's
// two, the frame driver's routing and display, the window's front end), refuses a missing
// handler, a catch-all and another owner's command. Declared only: nothing calls them.
struct ExactDisplay {
  void operator()(const ui::SetStrainScale&) const;
  void operator()(const ui::SetDisplayFlag&) const;
  void operator()(const ui::SetClipSize&) const;
};
struct MissingOne {
  void operator()(const ui::SetStrainScale&) const;
  void operator()(const ui::SetDisplayFlag&) const;
};
struct CatchAll : ExactDisplay {
  using ExactDisplay::operator();
  template <class C>
  void operator()(const C&) const;
};
struct AnotherOwners : ExactDisplay {
  using ExactDisplay::operator();
  void operator()(const ui::Quit&) const;
};
static_assert(ui::kAppliesExactly<ExactDisplay, ui::DisplayCommand>);
static_assert(!ui::kAppliesExactly<MissingOne, ui::DisplayCommand>);
static_assert(!ui::kAppliesExactly<CatchAll, ui::DisplayCommand>);
static_assert(!ui::kAppliesExactly<AnotherOwners, ui::DisplayCommand>);
}  // namespace

TEST_CASE("ui: a command struct becomes a Command of its owner, and commandAs reads it back") {
  const ui::Command dt = ui::SetDt{0.002, 1};  // the owner picked by std::variant's conversion
  REQUIRE(ui::commandAs<ui::SessionCommand>(dt) != nullptr);
  CHECK(ui::commandAs<ui::SetDt>(dt)->dt == 0.002);
  CHECK(ui::commandAs<ui::SetDt>(dt)->lane == 1);
  CHECK(ui::commandAs<ui::SetTimeScale>(dt) == nullptr);
  CHECK(ui::commandAs<ui::Quit>(dt) == nullptr);
  CHECK(ui::commandAs<ui::EditCommand>(ui::Undo{}) != nullptr);
  CHECK(ui::commandAs<ui::DisplayCommand>(ui::SetDisplayFlag{ui::DisplayFlag::Ruler, true}) !=
        nullptr);
  CHECK(ui::commandAs<ui::FrontEndCommand>(ui::Screenshot{}) != nullptr);
  // a display flag that is none is never emitted
  CHECK_FALSE(ui::clampCommand(ui::SetDisplayFlag{ui::DisplayFlag::Count, true}).has_value());
  CHECK(ui::clampCommand(ui::SetDisplayFlag{ui::DisplayFlag::Wind, false}).has_value());
}

TEST_CASE("ui: every display flag has its row: a name, a label, a tooltip, its model field") {
  const auto rows = ui::displayFlags();
  REQUIRE(rows.size() == static_cast<size_t>(ui::kDisplayFlagCount));
  std::set<std::string> names;
  for (size_t i = 0; i < rows.size(); ++i) {
    const ui::DisplayFlagRow& r = rows[i];
    INFO(r.name);
    CHECK(static_cast<size_t>(r.flag) == i);
    CHECK(&ui::displayFlag(r.flag) == &r);
    CHECK(names.insert(r.name).second);
    CHECK(std::string(r.label).size() > 0);
    CHECK(std::string(r.tooltip).size() > 0);
    ui::PanelModel m;  // each row reads its own field
    m.display.*r.shown = !(m.display.*r.shown);
    for (const ui::DisplayFlagRow& other : rows)
      if (&other != &r) CHECK(m.display.*other.shown == ui::PanelModel{}.display.*other.shown);
  }
}

TEST_CASE("ui: clampToControl clamps to the control's range and rounds whole numbers") {
  ui::ParameterControl c = slider(1, "Substeps", 1.0, 1000.0, false, 1.0);
  c.whole = true;
  CHECK(*ui::clampToControl(c, 7.6) == 8.0);
  CHECK(*ui::clampToControl(c, 0.0) == 1.0);
  CHECK(*ui::clampToControl(c, 1e6) == 1000.0);
  CHECK_FALSE(ui::clampToControl(c, std::nan("")).has_value());
  const ui::ParameterControl k = slider(2, "Stiffness scale", 1e-3, 1e3, false, 1.0);
  CHECK(*ui::clampToControl(k, 1e9) == 1e3);
  CHECK(*ui::clampToControl(k, 0.0) == 1e-3);
  CHECK(*ui::clampToControl(k, 2.5) == 2.5);
}

TEST_CASE("ui: buttons emit Pause, Step, Step 10, Reset, gravity presets, checkboxes") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  h.frame(draw);
  CHECK(h.commands.empty());  // nothing without input

  h.click("Pause", draw);
  auto paused = h.of<ui::SetPaused>();
  REQUIRE(paused.size() == 1);
  CHECK(paused[0].paused);
  CHECK(h.commands.size() == 1);

  // once paused, the same button reads "Run" and emits SetPaused 0
  f.model.clock.paused = true;
  h.commands.clear();
  h.frame(draw);
  CHECK(h.probe.find("Pause") == nullptr);
  h.click("Run", draw);
  REQUIRE(h.of<ui::SetPaused>().size() == 1);
  CHECK_FALSE(h.of<ui::SetPaused>()[0].paused);

  h.commands.clear();
  h.click("Step", draw);
  REQUIRE(h.of<ui::Step>().size() == 1);
  CHECK(h.of<ui::Step>()[0].count == 1);

  h.commands.clear();
  h.click("Step 10", draw);
  REQUIRE(h.of<ui::Step>().size() == 1);
  CHECK(h.of<ui::Step>()[0].count == 10);

  h.commands.clear();
  h.click("Reset", draw);
  CHECK(h.of<ui::Reset>().size() == 1);
  CHECK(h.commands.size() == 1);

  h.commands.clear();
  h.click("Moon", draw);
  REQUIRE(h.vectors(kGravity).size() == 1);
  CHECK(h.vectors(kGravity)[0].value[0] == 0.0);
  CHECK(h.vectors(kGravity)[0].value[1] == doctest::Approx(-1.62));  // direction kept
  CHECK(h.vectors(kGravity)[0].value[2] == 0.0);

  h.commands.clear();
  h.click("Wireframe", draw);
  REQUIRE(h.flags(ui::DisplayFlag::Wireframe).size() == 1);
  CHECK(h.flags(ui::DisplayFlag::Wireframe)[0].on);

  h.commands.clear();
  h.click("Reload", draw);
  CHECK(h.of<ui::Reload>().size() == 1);

  h.commands.clear();
  h.click("Help", draw);
  CHECK(f.state.show_help);
  CHECK(h.commands.empty());
}

TEST_CASE("ui: the integrator combo offers exactly model.clock.integrators and emits the pick") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  // closed: no entries drawn
  auto entries = [&] {
    std::vector<std::string> names;
    for (const ui::ItemRect& r : h.probe.items)
      if (r.name.rfind("integrator/", 0) == 0) names.push_back(r.name.substr(11));
    return names;
  };
  CHECK(entries().empty());

  h.click("Integrator", draw);
  const std::vector<std::string> shown = entries();
  CHECK(shown == std::vector<std::string>{"explicit-euler", "symplectic-euler", "implicit-euler"});
  CHECK(h.commands.empty());  // opening the combo changes nothing

  // each entry's tooltip shows on hover
  h.moveTo("integrator/implicit-euler");
  h.frame(draw);
  h.frame(draw);
  CHECK(h.tooltipShown());

  h.click("integrator/implicit-euler", draw);
  REQUIRE(h.of<ui::SetIntegrator>().size() == 1);
  CHECK(h.of<ui::SetIntegrator>()[0].name == "implicit-euler");
  CHECK(entries().empty());  // closed again

  // a pendulum model offers a different list: only that one
  f.pendulum();
  f.model.clock.integrators = {{"rk4", "order 4"}, {"implicit-midpoint", "order 2, symplectic"}};
  f.model.clock.integrator = "rk4";
  h.commands.clear();
  h.frame(draw);
  h.click("Integrator", draw);
  CHECK(entries() == std::vector<std::string>{"rk4", "implicit-midpoint"});
  h.click("integrator/implicit-midpoint", draw);
  REQUIRE(h.commands.size() == 1);
  REQUIRE(ui::commandAs<ui::SetIntegrator>(h.commands[0]) != nullptr);
  CHECK(ui::commandAs<ui::SetIntegrator>(h.commands[0])->name == "implicit-midpoint");
}

TEST_CASE("ui: Record, its clip size and Auto strain scale emit their commands") {
  Harness h;
  Fixture f;
  f.model.scene.springs = 4;  // the strain controls show only where there are springs
  auto draw = f.panel(h);
  h.frame(draw);
  h.click("Record", draw);
  CHECK(h.of<ui::ToggleRecording>().size() == 1);
  h.commands.clear();
  h.click("clip size", draw);
  h.click("clip/1920x1080", draw);
  REQUIRE(h.of<ui::SetClipSize>().size() == 1);
  CHECK(ui::clipSizes()[static_cast<size_t>(h.of<ui::SetClipSize>()[0].index)].width == 1920);
  // recording: the button stops, and the size cannot change under a clip
  f.model.display.recording = true;
  h.commands.clear();
  h.frame(draw);
  CHECK(h.probe.find("Record") == nullptr);
  h.click("Stop recording", draw);
  CHECK(h.of<ui::ToggleRecording>().size() == 1);
  h.commands.clear();
  h.click("clip size", draw);
  CHECK(h.probe.find("clip/1920x1080") == nullptr);  // disabled: it does not open
  h.commands.clear();
  h.click("Auto strain scale", draw);
  REQUIRE(h.flags(ui::DisplayFlag::StrainAuto).size() == 1);
  CHECK_FALSE(h.flags(ui::DisplayFlag::StrainAuto)[0].on);  // it was on: now fixed
}

TEST_CASE("ui: the scene combo and the file field emit LoadBuiltin and LoadFile") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  h.click("Built-in", draw);
  h.click("scene/double-pendulum", draw);
  REQUIRE(h.of<ui::LoadBuiltin>().size() == 1);
  CHECK(h.of<ui::LoadBuiltin>()[0].name == "double-pendulum");

  h.commands.clear();
  h.click("Open", draw);  // empty path: nothing
  CHECK(h.commands.empty());
  std::snprintf(f.state.file_path, sizeof f.state.file_path, "%s", "/tmp/my scene.json");
  h.click("Open", draw);
  REQUIRE(h.of<ui::LoadFile>().size() == 1);
  CHECK(h.of<ui::LoadFile>()[0].path == "/tmp/my scene.json");
}

TEST_CASE("ui: Save as emits SaveScene with the path typed, or none for the default shown") {
  Harness h;
  Fixture f;
  f.model.scene.save_default = "cloth-edited.json";
  auto draw = f.panel(h);
  h.frame(draw);
  ImGui::GetIO().MousePos = ImVec2(1279, 719);  // no tooltip: it would end the text's log
  CHECK(h.text(draw).find("cloth-edited.json") != std::string::npos);  // the hint
  h.click("Save as", draw);
  REQUIRE(h.of<ui::SaveScene>().size() == 1);
  CHECK(h.of<ui::SaveScene>()[0].path.empty());  // the Session's default place
  h.commands.clear();
  h.click("save path", draw);
  for (char ch : std::string("my cloth.json")) ImGui::GetIO().AddInputCharacter(ch);
  h.frame(draw);
  h.click("Save as", draw);
  REQUIRE(h.of<ui::SaveScene>().size() == 1);
  CHECK(h.of<ui::SaveScene>()[0].path == "my cloth.json");
  CHECK(std::string(f.state.save_path) == "my cloth.json");  // what Ctrl+S saves to
}

TEST_CASE("ui: dt typed through the slider is clamped, committed on release, never non-finite") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);

  h.typeInto("dt", "10", draw);
  auto dts = h.of<ui::SetDt>();
  REQUIRE(dts.size() == 1);  // one commit, not one per keystroke
  CHECK(dts[0].dt == ui::Limits::kDtMax);

  h.commands.clear();
  h.typeInto("dt", "1e-12", draw);
  dts = h.of<ui::SetDt>();
  REQUIRE(dts.size() == 1);
  CHECK(dts[0].dt == ui::Limits::kDtMin);

  h.commands.clear();
  h.typeInto("dt", "0.004", draw);
  dts = h.of<ui::SetDt>();
  REQUIRE(dts.size() == 1);
  CHECK(dts[0].dt == doctest::Approx(0.004));

  // "1e999" parses to infinity: ignored
  h.commands.clear();
  {
    const testutil::FpTrapsOff overflowIsTheInput;  // strtod itself raises FE_OVERFLOW on it
    h.typeInto("dt", "1e999", draw);
  }
  CHECK(h.of<ui::SetDt>().empty());
  CHECK(h.commands.empty());
  CHECK(f.state.edit_id == 0u);

  // a live slider typed out of range: every emitted value within Limits
  h.commands.clear();
  h.typeInto("Time scale", "1000", draw);
  auto ts = h.of<ui::SetTimeScale>();
  REQUIRE_FALSE(ts.empty());
  CHECK(ts.back().scale == ui::Limits::kTimeScaleMax);
  for (const ui::SetTimeScale& c : ts) CHECK(c.scale <= ui::Limits::kTimeScaleMax);
}

TEST_CASE("ui: dragging dt emits nothing until the release, stiffness scale likewise") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  ImGuiIO& io = ImGui::GetIO();

  h.moveTo("dt", 0.3f);
  h.frame(draw);
  io.MouseDown[0] = true;
  h.frame(draw);
  io.MousePos.x += 60;
  h.frame(draw);
  io.MousePos.x += 60;
  h.frame(draw);
  CHECK(h.of<ui::SetDt>().empty());  // still dragging
  CHECK(f.state.edit_id != 0u);
  io.MouseDown[0] = false;
  h.frame(draw);
  h.frame(draw);
  auto dts = h.of<ui::SetDt>();
  REQUIRE(dts.size() == 1);
  CHECK(dts[0].dt > ui::Limits::kDtMin);
  CHECK(dts[0].dt < ui::Limits::kDtMax);
  CHECK(dts[0].dt != f.model.clock.dt);

  h.commands.clear();
  h.drag("Stiffness scale", 0.5f, 0.9f, draw);
  auto ks = h.params(kStiffness);
  REQUIRE(ks.size() == 1);
  CHECK(ks[0].value > 1.0);  // right of the middle of a log slider 1e-3..1e3
  CHECK(ks[0].value <= 1e3);

  // a live slider emits while dragging
  h.commands.clear();
  h.drag("Drag", 0.1f, 0.9f, draw);
  auto drag = h.params(kDrag);
  CHECK(drag.size() >= 2);
  for (const ui::SetParameter& c : drag) {
    CHECK(c.value >= 0.0);
    CHECK(c.value <= 1e3);
  }
}

TEST_CASE("ui: the wind's speed keeps its direction, its heading turns it at the same speed") {
  Harness h;
  Fixture f;
  f.model.physics.drag = 0.5;
  f.setWind({0.0, 0.0, 2.0});  // along +z
  auto draw = f.panel(h);
  h.frame(draw);
  REQUIRE(h.probe.find("Wind") != nullptr);
  h.drag("Wind", 0.5f, 0.9f, draw);
  auto speed = h.vectors(kWind);
  REQUIRE_FALSE(speed.empty());
  for (const ui::SetVectorParameter& c : speed) {
    CHECK(c.value[0] == 0.0);
    CHECK(c.value[1] == 0.0);
    CHECK(c.value[2] > 0.0);
    CHECK(c.value[2] <= 100.0);
  }
  CHECK(speed.back().value[2] > 2.0);  // towards the right of a log slider up to 100 m/s
  // heading: horizontal (gravity along -y), the speed kept; 90 degrees is +z, 0 is +x
  h.commands.clear();
  h.drag("Wind heading", 0.75f, 0.5f, draw);  // from +90 to 0 degrees
  auto turned = h.vectors(kWind);
  REQUIRE_FALSE(turned.empty());
  for (const ui::SetVectorParameter& c : turned) {
    CHECK(c.value[1] == 0.0);
    CHECK(std::hypot(c.value[0], c.value[2]) == doctest::Approx(2.0));
  }
  CHECK(turned.back().value[0] == doctest::Approx(2.0).epsilon(0.02));
  // a planar scene turns it in the x-y plane: no z
  f.model.display.planar = true;
  f.setWind({2.0, 0.0, 0.0});
  h.commands.clear();
  h.drag("Wind heading", 0.5f, 0.75f, draw);  // from 0 to +90 degrees: +y
  turned = h.vectors(kWind);
  REQUIRE_FALSE(turned.empty());
  CHECK(turned.back().value[2] == 0.0);
  CHECK(turned.back().value[1] == doctest::Approx(2.0).epsilon(0.02));
  // pendulums have no wind
  f.pendulum();
  h.frame(draw);
  CHECK(h.probe.find("Wind") == nullptr);
}

TEST_CASE("ui: the wind's streaks can be hidden where a wind acts, and only there") {
  Harness h;
  Fixture f;  // a cloth without drag or wind
  auto draw = f.panel(h);
  h.frame(draw);
  CHECK(h.probe.find("Wind streaks") == nullptr);
  f.setWind({0.0, 0.0, 3.0});  // a wind without drag acts on nothing: none drawn, none to hide
  h.frame(draw);
  CHECK(h.probe.find("Wind streaks") == nullptr);
  f.model.physics.drag = 0.5;
  f.setWind({0.0, 0.0, 3.0});
  h.frame(draw);
  REQUIRE(h.probe.find("Wind streaks") != nullptr);
  h.click("Wind streaks", draw);
  REQUIRE(h.flags(ui::DisplayFlag::Wind).size() == 1);
  CHECK_FALSE(h.flags(ui::DisplayFlag::Wind)[0].on);  // shown: the click hides them
  f.model.display.show_wind = false;
  h.commands.clear();
  h.click("Wind streaks", draw);
  REQUIRE(h.flags(ui::DisplayFlag::Wind).size() == 1);
  CHECK(h.flags(ui::DisplayFlag::Wind)[0].on);
}

TEST_CASE("ui: pendulums hide the spring controls and show joint damping") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  CHECK(h.probe.find("Stiffness scale") != nullptr);
  CHECK(h.probe.find("Spring damping") != nullptr);
  CHECK(h.probe.find("Joint damping") == nullptr);
  CHECK(h.probe.find("Drag") != nullptr);

  f.pendulum();
  h.frame(draw);
  CHECK(h.probe.find("Stiffness scale") == nullptr);
  CHECK(h.probe.find("Spring damping") == nullptr);
  CHECK(h.probe.find("Joint damping") != nullptr);
  CHECK(h.probe.find("Gravity") != nullptr);

  h.drag("Joint damping", 0.2f, 0.8f, draw);
  auto jd = h.params(kJoint);
  REQUIRE_FALSE(jd.empty());
  for (const ui::SetParameter& c : jd) {
    CHECK(c.value >= 0.0);
    CHECK(c.value <= 1e2);
  }
}

TEST_CASE("ui: Substeps and Iterations show for xpbd and projective only") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  for (const char* name : {"symplectic_euler", "time_fe", "xpbd", "projective"}) {
    CAPTURE(name);
    f.model.clock.integrator = name;
    f.setWind({});
    h.frame(draw);
    const bool iterated =
        f.model.clock.integrator == "xpbd" || f.model.clock.integrator == "projective";
    CHECK((h.probe.find("Substeps") != nullptr) == iterated);
    CHECK((h.probe.find("Iterations") != nullptr) == iterated);
  }
}

TEST_CASE("ui: every tooltip stays inside a narrow window, wrapped") {
  constexpr float kWidth = 420.0f;
  Harness h(kWidth, 1800);
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  const std::vector<ui::ItemRect> items = h.probe.items;
  REQUIRE(items.size() >= 30);
  for (const ui::ItemRect& r : items) {
    h.moveTo(r.name, 0.95f);  // the right end of the item: the tooltip starts far right
    h.frame(draw);
    h.frame(draw);
    const ImGuiWindow* w = ImGui::FindWindowByName("##Tooltip_00");
    INFO("widget: " << r.name);
    REQUIRE((w != nullptr && w->Active));
    CHECK(w->Pos.x >= 0.0f);
    CHECK(w->Pos.x + w->Size.x <= kWidth);
  }
}

TEST_CASE("ui: every panel control shows a tooltip on hover, plots are drawn") {
  Harness h(1280, 1800);  // tall enough that nothing is scrolled away
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  for (const char* name : {"energy plot", "drift plot", "phase plot", "legend/K", "legend/V",
                           "legend/E", "Phase coordinate"})
    CHECK(h.probe.find(name) != nullptr);
  const std::vector<ui::ItemRect> items = h.probe.items;
  CHECK(items.size() >= 30);
  for (const ui::ItemRect& r : items) {
    h.moveTo(r.name);
    h.frame(draw);
    h.frame(draw);
    INFO("widget: " << r.name);
    CHECK(h.tooltipShown());
  }
  CHECK(h.commands.empty());  // hovering changes nothing

  // the phase coordinate combo emits its index
  h.click("Phase coordinate", draw);
  h.click("phase/z0", draw);
  REQUIRE(h.of<ui::SetPhaseCoordinate>().size() == 1);
  CHECK(h.of<ui::SetPhaseCoordinate>()[0].coordinate == 2);
}

TEST_CASE("ui: the divergence banner emits Reset and Rewind") {
  Harness h;
  Fixture f;
  auto banner = [&] { return ui::drawDivergenceBanner(f.model, &h.probe); };
  h.frame(banner);
  CHECK(h.probe.items.empty());  // nothing while finite
  CHECK(ImGui::FindWindowByName("##divergence") == nullptr);

  f.model.clock.diverged = true;
  f.model.clock.can_rewind = true;
  f.model.display.scene_viewport_x = 440.0f;
  f.model.clock.divergence = "t = 0.52 s, explicit-euler: velocity of particle 17 is not finite";
  for (int i = 0; i < 3; ++i) h.frame(banner);  // an auto-sized window settles in two frames
  REQUIRE(h.probe.find("report") != nullptr);
  const ImGuiWindow* w = ImGui::FindWindowByName("##divergence");
  REQUIRE(w != nullptr);
  // top centre of the scene viewport (x from 440 to 1280), clear of the panel
  CHECK(std::abs(w->Pos.x + w->Size.x * 0.5f - 860.0f) < 1.0f);
  CHECK(w->Pos.x >= 440.0f);
  CHECK(w->Pos.y < 40.0f);

  h.click("Reset", banner);
  REQUIRE(h.commands.size() == 1);
  CHECK(ui::commandAs<ui::Reset>(h.commands[0]) != nullptr);
  h.commands.clear();
  h.click("Back 1 s", banner);
  REQUIRE(h.commands.size() == 1);
  CHECK(ui::commandAs<ui::Rewind>(h.commands[0]) != nullptr);
  // the replay: back, an eighth of real time, and run
  h.commands.clear();
  h.click("Replay slowly", banner);
  REQUIRE(h.commands.size() == 3);
  CHECK(ui::commandAs<ui::Rewind>(h.commands[0]) != nullptr);
  REQUIRE(ui::commandAs<ui::SetTimeScale>(h.commands[1]) != nullptr);
  CHECK(ui::commandAs<ui::SetTimeScale>(h.commands[1])->scale == 0.125);
  REQUIRE(ui::commandAs<ui::SetPaused>(h.commands[2]) != nullptr);
  CHECK_FALSE(ui::commandAs<ui::SetPaused>(h.commands[2])->paused);

  // nothing kept to rewind to: the buttons are disabled, with a tooltip saying why
  f.model.clock.can_rewind = false;
  h.commands.clear();
  h.click("Back 1 s", banner);
  h.click("Replay slowly", banner);
  CHECK(h.commands.empty());
  h.moveTo("Back 1 s");
  h.frame(banner);
  h.frame(banner);
  CHECK(h.tooltipShown());

  // in a recorded clip the banner is the report alone: no one can press a button there
  f.model.frame.clip = true;
  h.probe.items.clear();
  h.frame(banner);
  CHECK(h.probe.find("report") != nullptr);
  CHECK(h.probe.find("Reset") == nullptr);
  CHECK(h.probe.find("Replay slowly") == nullptr);
}

TEST_CASE("ui: the banner keeps its buttons on screen in small windows, right of the panel") {
  // a long report in windows of several sizes, the panel 430 px wide
  std::string report = "t = 3.1166000000021525 s, explicit-euler: runaway:";
  for (int i = 0; i < 40; ++i) report += " particle " + std::to_string(i) + " moved 12.5 m;";
  for (auto [width, height] :
       {std::pair{1280.f, 720.f}, {800.f, 300.f}, {640.f, 200.f}, {520.f, 160.f}, {300.f, 120.f}}) {
    CAPTURE(width);
    CAPTURE(height);
    Harness h(width, height);
    Fixture f;
    f.model.clock.diverged = true;
    f.model.clock.can_rewind = true;
    f.model.display.scene_viewport_x = 430.0f;
    f.model.clock.divergence = report;
    auto banner = [&] { return ui::drawDivergenceBanner(f.model, &h.probe); };
    for (int i = 0; i < 4; ++i) h.frame(banner);
    const ImGuiWindow* w = ImGui::FindWindowByName("##divergence");
    REQUIRE(w != nullptr);
    for (const char* name : {"Reset", "Back 1 s", "Replay slowly"}) {
      const ui::ItemRect& r = h.item(name);
      CHECK(r.x0 >= 0.0f);
      CHECK(r.y0 >= 0.0f);
      CHECK(r.x1 <= width);
      CHECK(r.y1 <= height);
    }
    CHECK(w->Pos.y + w->Size.y <= height);
    // right of the panel whenever the viewport is wide enough for the three buttons
    if (width - 430.0f > 300.0f) CHECK(w->Pos.x >= 430.0f);
    CHECK(w->Pos.x + w->Size.x <= width);
    h.click("Back 1 s", banner);
    CHECK(h.of<ui::Rewind>().size() == 1);
  }
}

TEST_CASE("ui: numbers in the divergence report have at most 6 significant digits") {
  CHECK(ui::compactNumbers("t = 3.1166000000021525 s") == "t = 3.1166 s");
  CHECK(ui::compactNumbers("t = 0.52 s") == "t = 0.52 s");
  CHECK(ui::compactNumbers("|x| = 1.2345678901e+23 m at 0.000012345678 s") ==
        "|x| = 1.23457e+23 m at 1.23457e-05 s");
  // integers (indices, counts) and numbers inside names are kept
  CHECK(ui::compactNumbers("particle 123456789, x3 of seed004, v1.2.3") ==
        "particle 123456789, x3 of seed004, v1.2.3");
  CHECK(ui::compactNumbers("-2.7182818284590451 and 1.500000000 and 100000.0") ==
        "-2.71828 and 1.500000000 and 100000.0");
  CHECK(ui::compactNumbers("inf, nan, 1e999999") == "inf, nan, 1e999999");
  CHECK(ui::compactNumbers("") == "");
  CHECK(ui::compactNumbers("t=3.1166000000021525s,") == "t=3.1166s,");
  CHECK(ui::compactNumbers("3.14159265 s", 3) == "3.14 s");

  Harness h;
  Fixture f;
  f.model.clock.diverged = true;
  f.model.clock.divergence = "t = 3.1166000000021525 s, leapfrog: kinetic energy 1e+12 x E0";
  auto banner = [&] { return ui::drawDivergenceBanner(f.model, &h.probe); };
  for (int i = 0; i < 3; ++i) h.frame(banner);
  const std::string text = h.text(banner);
  INFO(text);
  CHECK(text.find("t = 3.1166 s, leapfrog: kinetic energy 1e+12 x E0") != std::string::npos);
  CHECK(text.find("3.11660000") == std::string::npos);
}

TEST_CASE("ui: the help overlay lists every binding") {
  const auto b = ui::bindings();
  auto has = [&](const char* keys, const char* word) {
    return std::any_of(b.begin(), b.end(), [&](const ui::Binding& x) {
      return std::string(x.keys) == keys && std::string(x.action).find(word) != std::string::npos;
    });
  };
  CHECK(has("Left-drag", "orbit"));
  CHECK(has("Right-drag or Shift+left-drag", "pan"));
  CHECK(has("Wheel", "zoom"));
  CHECK(has("Double-click", "orbit centre"));
  CHECK(has("F", "frame"));
  CHECK(has("Ctrl+left-drag", "grab"));
  CHECK(has("Paused: left-drag on a body", "place"));
  CHECK(has("E", "edit mode"));
  CHECK(has("Ctrl+Z / Ctrl+Shift+Z", "undo"));
  CHECK(has("Ctrl+N", "new scene"));
  CHECK(has("Space", "pause"));
  CHECK(has("Right arrow", "10 steps"));
  CHECK(has("R or Backspace", "reset"));
  CHECK(has("Ctrl+L", "reload"));
  CHECK(has("+ / -", "time scale"));
  CHECK(has("Ctrl+P", "screenshot"));
  CHECK(has("Tab", "UI"));
  CHECK(has("F1", "help"));
  CHECK(has("Ctrl+Q", "quit"));
  CHECK(has("Ctrl+R", "record"));
  CHECK(has("T", "trail"));
  CHECK(has("Ctrl+S", "save the scene"));
  CHECK(has("P", "pin"));
  CHECK(has("Delete", "delete"));
  CHECK(b.size() == 24);

  Harness h;
  bool open = true;
  auto help = [&] {
    ui::drawHelpOverlay(&open, &h.probe);
    return std::vector<ui::Command>{};
  };
  h.frame(help);
  for (const ui::Binding& x : b) {
    INFO(x.keys);
    CHECK(h.probe.find(std::string("binding/") + x.keys) != nullptr);
    CHECK(h.probe.find(std::string("action/") + x.action) != nullptr);
  }
  // closed: nothing drawn
  open = false;
  h.frame(help);
  CHECK(h.probe.items.empty());
}

TEST_CASE("ui: strain colours match the renderer's map, the legend draws") {
  auto near = [](ui::Rgb c, float r, float g, float b) {
    return std::abs(c.r - r) < 1e-5f && std::abs(c.g - g) < 1e-5f && std::abs(c.b - b) < 1e-5f;
  };
  // the renderer's map (render::strainColor; test_app.cpp holds the two equal): ends and rest
  // colour, clamping, and the ease-out t (2 - t) in between
  CHECK(near(ui::strainColour(-1.0), 0.12f, 0.36f, 0.98f));
  CHECK(near(ui::strainColour(0.0), 0.74f, 0.75f, 0.77f));
  CHECK(near(ui::strainColour(1.0), 0.93f, 0.13f, 0.10f));
  CHECK(near(ui::strainColour(5.0), 0.93f, 0.13f, 0.10f));  // clamped
  CHECK(near(ui::strainColour(-5.0), 0.12f, 0.36f, 0.98f));
  CHECK(near(ui::strainColour(0.5), 0.8825f, 0.285f, 0.2675f));  // 3/4 of the way grey -> red
  CHECK(near(ui::strainColour(-0.5), 0.275f, 0.4575f, 0.9275f));

  Harness h;
  for (int i = 0; i < 3; ++i)
    h.frame([] {
      ui::drawStrainLegend(0.05);
      return std::vector<ui::Command>{};
    });
  const ImGuiWindow* w = ImGui::FindWindowByName("##strain legend");
  REQUIRE(w != nullptr);
  CHECK(w->Pos.x + w->Size.x > 1280.0f - 40.0f);  // right
  CHECK(w->Pos.y + w->Size.y > 720.0f - 40.0f);   // bottom
  // the bar samples the map (ease-out), not two linear ramps: the colours at -1/2 and +3/4 of
  // the scale are among its vertices'
  auto packed = [](double x) {
    const ui::Rgb c = ui::strainColour(x);
    return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f));
  };
  auto hasColour = [&](ImU32 col) {
    for (const ImDrawVert& v : w->DrawList->VtxBuffer)
      if (v.col == col) return true;
    return false;
  };
  CHECK(hasColour(packed(-0.5)));
  CHECK(hasColour(packed(0.75)));
  CHECK(hasColour(packed(-1.0)));
  CHECK(hasColour(packed(1.0)));
}

TEST_CASE("ui: pacing choice emits SmoothFrames, Follow emits Follow") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  h.click("Real-time motion", draw);  // already chosen: nothing
  CHECK(h.commands.empty());
  h.click("Smooth frames", draw);
  REQUIRE(h.flags(ui::DisplayFlag::SmoothFrames).size() == 1);
  CHECK(h.flags(ui::DisplayFlag::SmoothFrames)[0].on);

  f.model.display.smooth_frames = true;
  h.commands.clear();
  h.click("Smooth frames", draw);
  CHECK(h.commands.empty());
  h.click("Real-time motion", draw);
  REQUIRE(h.flags(ui::DisplayFlag::SmoothFrames).size() == 1);
  CHECK_FALSE(h.flags(ui::DisplayFlag::SmoothFrames)[0].on);

  for (const char* name : {"Real-time motion", "Smooth frames"}) {
    h.moveTo(name);
    h.frame(draw);
    h.frame(draw);
    INFO(name);
    CHECK(h.tooltipShown());
  }

  h.commands.clear();
  h.click("Follow", draw);
  REQUIRE(h.flags(ui::DisplayFlag::Follow).size() == 1);
  CHECK(h.flags(ui::DisplayFlag::Follow)[0].on);
  f.model.display.follow = true;
  h.commands.clear();
  h.click("Follow", draw);
  REQUIRE(h.flags(ui::DisplayFlag::Follow).size() == 1);
  CHECK_FALSE(h.flags(ui::DisplayFlag::Follow)[0].on);
}

TEST_CASE("ui: the frame time split and the bottleneck when the clock falls behind") {
  ui::PanelModel m;
  m.frame.ms_sim = 38.0, m.frame.ms_render = 9.0, m.frame.ms_present = 3.0;
  m.frame.realtime_percent = 100.0;
  CHECK(ui::costSummary(m).empty());  // keeping up: nothing to say
  m.frame.realtime_percent = 96.0;
  CHECK(ui::costSummary(m).empty());
  m.frame.realtime_percent = 60.0;
  CHECK(ui::costSummary(m) == "simulation is the bottleneck: 38 ms of 50 ms");
  m.frame.ms_sim = 2.0, m.frame.ms_render = 30.5;
  CHECK(ui::costSummary(m) == "rendering is the bottleneck: 30.5 ms of 35.5 ms");
  m.frame.ms_present = 40.0;
  CHECK(ui::costSummary(m) == "presenting is the bottleneck: 40 ms of 72.5 ms");
  m.clock.paused = true;  // a paused clock is not behind
  CHECK(ui::costSummary(m).empty());
  m.clock.paused = false;
  m.frame.ms_sim = std::nan("");
  CHECK(ui::costSummary(m).empty());

  Harness h(1280, 800);  // the Diagnostics section's line on screen below the others
  Fixture f;
  f.model.frame.ms_sim = 38.0, f.model.frame.ms_render = 9.0, f.model.frame.ms_present = 3.0;
  f.model.frame.realtime_percent = 100.0;
  auto draw = f.panel(h);
  h.frame(draw);
  std::string text = h.text(draw);
  INFO(text);
  CHECK(text.find("sim 38 ms + render 9 ms + present 3 ms") != std::string::npos);
  CHECK(text.find("bottleneck") == std::string::npos);
  CHECK(h.probe.find("bottleneck") == nullptr);
  f.model.frame.realtime_percent = 62.0;
  text = h.text(draw);
  CHECK(text.find("simulation is the bottleneck: 38 ms of 50 ms") != std::string::npos);
  h.moveTo("bottleneck");
  h.frame(draw);
  h.frame(draw);
  CHECK(h.tooltipShown());
}

TEST_CASE("ui: plots mark parameter changes at their times, legends fit the panel") {
  Harness h(1280, 1800);
  Fixture f;                                                        // history from t = 0 to 9.95 s
  f.model.plots.marks = {-1.0f, 2.5f, 7.5f, 12.0f, std::nanf("")};  // two inside the plotted window
  auto draw = f.panel(h);
  h.frame(draw);
  h.frame(draw);
  std::vector<ui::ItemRect> marks;
  for (const ui::ItemRect& r : h.probe.items)
    if (r.name.rfind("mark/", 0) == 0) marks.push_back(r);
  REQUIRE(marks.size() == 4);  // 2.5 and 7.5, on the energy plot and on the drift plot
  for (const char* plot : {"energy plot", "drift plot"}) {
    INFO(plot);
    const ui::ItemRect& p = h.item(plot);
    const ui::ItemRect* m25 = nullptr;
    const ui::ItemRect* m75 = nullptr;
    for (const ui::ItemRect& r : marks)
      if (r.y0 >= p.y0 && r.y1 <= p.y1) (r.name == "mark/2.5" ? m25 : m75) = &r;
    REQUIRE(m25 != nullptr);
    REQUIRE(m75 != nullptr);
    CHECK(m75->name == "mark/7.5");
    // at their times: 7.5 s is 3 times as far from t = 0 as 2.5 s (the frame starts at x0)
    const float x0 = 0.5f * (m25->x0 + m25->x1) - (m75->x0 - m25->x0) * 0.5f;
    CHECK(x0 > p.x0);  // right of the value labels
    CHECK(0.5f * (m75->x0 + m75->x1) == doctest::Approx(p.x1 - (p.x1 - x0) * (2.45f / 9.95f)));
  }
  // hovering a mark tells what it is
  h.moveTo("mark/7.5");
  h.frame(draw);
  h.frame(draw);
  CHECK(h.tooltipShown());
  const std::string text = h.text(draw);
  CHECK(text.find("A parameter was changed at t = 7.5 s.") != std::string::npos);

  // large energies: the legend's values are compact and stay inside the panel
  std::vector<float> big(200, -1.23456789e9f), bigger(200, 4.5e10f);
  f.model.plots.kinetic = bigger, f.model.plots.potential = big;
  h.frame(draw);
  h.frame(draw);
  const ImGuiWindow* w = ImGui::FindWindowByName("springlab");
  REQUIRE(w != nullptr);
  for (const char* name : {"legend/K", "legend/V", "legend/E"}) {
    INFO(name);
    CHECK(h.item(name).x1 <= w->Pos.x + w->Size.x - w->WindowPadding.x + 1.0f);
  }
  const std::string legend = h.text(draw);
  CHECK(legend.find("K 4.5e10 J") != std::string::npos);
  CHECK(legend.find("V -1.235e9 J") != std::string::npos);
}

TEST_CASE("ui: the drift plot says what the drift is relative to") {
  Harness h(1280, 1800);
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  std::string text = h.text(draw);
  CHECK(text.find("drift |E - E0| / |E0| = 2.095e-5") != std::string::npos);  // 1e-9 exp(9.95)
  f.model.plots.drift_label = "|E - E0| / S";
  text = h.text(draw);
  CHECK(text.find("drift |E - E0| / S = 2.095e-5") != std::string::npos);
}

TEST_CASE("ui: Shift makes a dt drag 10 times finer, without a jump") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  ImGuiIO& io = ImGui::GetIO();
  // press at x, move by dx (Shift held as given), release; returns the committed dt
  auto dragBy = [&](float x, float dx, bool shift) {
    h.commands.clear();
    io.MousePos = ImVec2(x, 0.5f * (h.item("dt").y0 + h.item("dt").y1));
    h.frame(draw);
    io.KeyShift = shift;
    io.MouseDown[0] = true;
    h.frame(draw);
    for (int i = 1; i <= 4; ++i) {
      io.MousePos.x = x + dx * float(i) / 4.0f;
      h.frame(draw);
    }
    io.MouseDown[0] = false;
    h.frame(draw);
    io.KeyShift = false;
    h.frame(draw);
    const auto dts = h.of<ui::SetDt>();
    return dts.empty() ? f.model.clock.dt : dts.back().dt;
  };
  const ui::ItemRect r = h.item("dt");
  const float x = r.x0 + 0.3f * (r.x1 - r.x0);
  // without Shift the slider puts dt under the mouse: the value at x, then 56 px further right
  const double at_x = dragBy(x, 0.0f, false);
  f.model.clock.dt = at_x;
  const double coarse = dragBy(x, 56.0f, false);
  // with Shift the same 56 px from the same dt: a 10 times smaller factor (in decades)
  f.model.clock.dt = at_x;
  const double fine = dragBy(x + 100.0f, 56.0f, true);  // where the drag starts does not matter
  CHECK(coarse > at_x);
  CHECK(fine > at_x);
  CHECK(std::log10(coarse / at_x) > 1.0);  // more than a factor of 10 in 56 px
  // (values are rounded to the 3 digits shown: 0.002 decades)
  CHECK(std::abs(std::log10(fine / at_x) - 0.1 * std::log10(coarse / at_x)) < 0.005);
  // leftwards too, and a Shift+click without a move commits nothing
  f.model.clock.dt = at_x;
  CHECK(dragBy(x + 50.0f, -56.0f, true) ==
        doctest::Approx(at_x * at_x / fine).epsilon(0.01));  // the inverse factor
  f.model.clock.dt = at_x;
  h.commands.clear();
  dragBy(x + 50.0f, 0.0f, true);
  CHECK(h.of<ui::SetDt>().empty());

  // Shift pressed in the middle of a drag: no jump, then the slower rate
  f.model.clock.dt = at_x;
  h.commands.clear();
  io.MousePos = ImVec2(x, 0.5f * (r.y0 + r.y1));
  h.frame(draw);
  io.MouseDown[0] = true;
  h.frame(draw);
  io.MousePos.x += 56.0f;
  h.frame(draw);
  const double before = f.state.edit_value;
  CHECK(before == coarse);
  io.KeyShift = true;
  h.frame(draw);
  CHECK(f.state.edit_value == before);
  io.MousePos.x += 56.0f;
  h.frame(draw);
  CHECK(f.state.edit_value == doctest::Approx(before * fine / at_x).epsilon(0.01));
  io.MouseDown[0] = false;
  io.KeyShift = false;
  h.frame(draw);
  h.frame(draw);
  REQUIRE(h.of<ui::SetDt>().size() == 1);
  CHECK(h.of<ui::SetDt>()[0].dt == f.state.edit_value);
}

TEST_CASE("ui: the dt slider is logarithmic over its whole range, down to 1e-7 s") {
  // ImGui 1.86 clamps a logarithmic slider to 10^-(format's digits): with "%.3g" every dt below
  // 1e-3 sat at the left end
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  for (int i = 0; i < 3; ++i) h.frame(draw);  // settled: the scrollbar has appeared
  const ui::ItemRect r = h.item("dt");        // the slider's frame
  const float grab = ImGui::GetStyle().GrabMinSize, usable = (r.x1 - r.x0) - 4.0f - grab;
  for (double want : {1e-7, 1e-6, 1e-5, 1e-4, 1e-2}) {
    CAPTURE(want);
    const double p = (std::log10(want) + 7.0) / 6.0;
    h.commands.clear();
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos =
        ImVec2(r.x0 + 2.0f + 0.5f * grab + static_cast<float>(p) * usable, 0.5f * (r.y0 + r.y1));
    h.frame(draw);
    io.MouseDown[0] = true;
    h.frame(draw);
    io.MouseDown[0] = false;
    h.frame(draw);
    REQUIRE(h.of<ui::SetDt>().size() == 1);
    CAPTURE(h.of<ui::SetDt>()[0].dt);
    CHECK(std::abs(std::log10(h.of<ui::SetDt>()[0].dt / want)) < 0.03);  // within a pixel
  }
}

TEST_CASE("ui: only what applies: springs, rods, strain, wireframe") {
  Harness h;
  Fixture f;  // a cloth: particles and springs, a surface
  auto draw = f.panel(h);
  h.frame(draw);
  CHECK(h.probe.find("Springs") != nullptr);
  CHECK(h.probe.find("Strain scale") != nullptr);
  CHECK(h.probe.find("Wireframe") != nullptr);
  CHECK(h.probe.find("Rods") == nullptr);

  // a pendulum: rods, no springs, no strain, no surface
  f.pendulum();
  f.model.scene.dofs = 2;
  f.model.display.surface = false;
  h.frame(draw);
  CHECK(h.probe.find("Springs") == nullptr);
  CHECK(h.probe.find("Strain scale") == nullptr);
  CHECK(h.probe.find("Wireframe") == nullptr);
  h.click("Rods", draw);
  REQUIRE(h.flags(ui::DisplayFlag::Springs).size() == 1);
  CHECK_FALSE(h.flags(ui::DisplayFlag::Springs)[0].on);  // shown: the click hides them
  const std::string text = h.text(draw);
  CHECK(text.find("links 2  DOFs 2") != std::string::npos);
  CHECK(text.find("particles 0") == std::string::npos);
  CHECK(text.find("springs 0") == std::string::npos);

  // the strain legend: only with springs
  Harness g;
  auto legend = [&] {
    ui::drawStrainLegend(f.model, &g.probe);
    return std::vector<ui::Command>{};
  };
  for (int i = 0; i < 3; ++i) g.frame(legend);
  CHECK(g.probe.find("strain legend") == nullptr);
  const ImGuiWindow* w = ImGui::FindWindowByName("##strain legend");
  CHECK((w == nullptr || !w->Active));
  f.model.scene.springs = 12;
  for (int i = 0; i < 3; ++i) g.frame(legend);
  CHECK(g.probe.find("strain legend") != nullptr);
  w = ImGui::FindWindowByName("##strain legend");
  REQUIRE(w != nullptr);
  CHECK(w->Active);
  // a cloth with its springs hidden: the surface is not strain-coloured, no legend
  f.model.display.show_springs = false;
  g.probe.items.clear();
  for (int i = 0; i < 3; ++i) g.frame(legend);
  CHECK(g.probe.find("strain legend") == nullptr);
}

TEST_CASE("ui: the status line shows model.display.status in the scene viewport, and only then") {
  Harness h;
  Fixture f;
  f.model.display.scene_viewport_x = 440.0f;
  auto status = [&] {
    ui::drawStatus(f.model, &h.probe);
    return std::vector<ui::Command>{};
  };
  h.frame(status);
  CHECK(h.probe.find("status") == nullptr);
  f.model.display.status = "nosuch.json: no such file and no built-in scene of that name";
  f.model.display.status_error = true;
  for (int i = 0; i < 3; ++i) h.frame(status);
  REQUIRE(h.probe.find("status") != nullptr);
  const ImGuiWindow* w = ImGui::FindWindowByName("##status");
  REQUIRE(w != nullptr);
  CHECK(w->Pos.x >= 440.0f);
  CHECK(std::abs(w->Pos.x + 0.5f * w->Size.x - 860.0f) < 1.0f);
  CHECK(w->Pos.y + w->Size.y <= 720.0f);
  CHECK(h.text(status).find("nosuch.json: no such file") != std::string::npos);
  // the app clears it after a successful load: the line goes
  f.model.display.status.clear();
  h.frame(status);
  h.frame(status);
  CHECK(h.probe.find("status") == nullptr);
  CHECK_FALSE(w->Active);
}

TEST_CASE("ui: the help says what left-drag does in this scene") {
  Harness h;
  ui::PanelModel m;
  bool open = true;
  auto help = [&] {
    ui::drawHelpOverlay(&open, m, &h.probe);
    return std::vector<ui::Command>{};
  };
  m.display.planar = true;
  std::string text = h.text(help);
  CHECK(text.find("This scene is 2-D: left-drag pans the view.") != std::string::npos);
  CHECK(text.find("pan (2-D scenes)") != std::string::npos);
  m.display.planar = false;
  text = h.text(help);
  CHECK(text.find("This scene is 3-D: left-drag orbits the camera") != std::string::npos);
}

TEST_CASE("ui: the status line stays clear of the strain legend") {
  Harness h(800, 450);
  Fixture f;
  f.model.display.scene_viewport_x = 430.0f;
  f.model.display.status =
      "nosuch.json: no such file and no built-in scene of that name (see list)";
  auto both = [&] {
    ui::drawStrainLegend(f.model, &h.probe);
    ui::drawStatus(f.model, &h.probe);
    return std::vector<ui::Command>{};
  };
  for (int i = 0; i < 4; ++i) h.frame(both);
  const ImGuiWindow* legend = ImGui::FindWindowByName("##strain legend");
  const ImGuiWindow* status = ImGui::FindWindowByName("##status");
  REQUIRE(legend != nullptr);
  REQUIRE(status != nullptr);
  const bool apart_x = status->Pos.x + status->Size.x <= legend->Pos.x;
  const bool apart_y = status->Pos.y + status->Size.y <= legend->Pos.y;
  CHECK((apart_x || apart_y));
  CHECK(status->Pos.x >= 430.0f);
  CHECK(status->Pos.x + status->Size.x <= 800.0f);
}

TEST_CASE("ui: every x-limit line is red above 1, the dt slider's and each lane's") {
  Harness h(1280, 1600);
  Fixture f;
  f.model.clock.dt = 0.001;
  f.model.measure.dt_limit = 0.0005;  // dt = 2 x limit
  for (int i = 0; i < 2; ++i) {
    ui::LaneRow row;
    row.integrator = "rk4";
    row.dt = 0.001;
    row.time = f.t, row.drift = f.drift, row.distance = f.drift;
    f.model.lanes.rows.push_back(row);
    ui::LaneMeasure measure;
    measure.dt_over_limit = i == 0 ? 2.0 : 0.5;
    f.model.measure.lanes.push_back(measure);
  }
  auto draw = f.panel(h);
  h.frame(draw);  // opened on first use: the model has two lanes
  h.frame(draw);
  CHECK(h.probe.find("dt limit/above 1") != nullptr);
  CHECK(h.probe.find("lane/0/limit above 1") != nullptr);
  CHECK(h.probe.find("lane/1/limit") != nullptr);
  CHECK(h.probe.find("lane/1/limit above 1") == nullptr);
  f.model.measure.dt_limit = 0.002;  // dt = 0.5 x limit: grey
  h.frame(draw);
  CHECK(h.probe.find("dt limit") != nullptr);
  CHECK(h.probe.find("dt limit/above 1") == nullptr);
}

TEST_CASE("ui: the Lab section adds, branches and removes lanes and seeks the timeline") {
  Harness h(1280, 1600);
  Fixture f;
  f.model.clock.dt = 0.001;
  std::vector<float> zeros(200, 0.0f), dist = series(200, [](double x) { return 1e-6 * x; });
  for (int i = 0; i < 2; ++i) {
    ui::LaneRow row;
    row.integrator = i == 0 ? "symplectic-euler" : "explicit-euler";
    row.dt = 0.001 * (i + 1);
    row.time = f.t, row.drift = f.drift, row.distance = i == 0 ? zeros : dist;
    f.model.lanes.rows.push_back(row);
  }
  f.model.lanes.history_size = 10, f.model.lanes.history_t0 = 0.0, f.model.lanes.history_t1 = 9.0;
  f.model.lanes.history_index = 9;  // the newest kept state is the one shown
  f.model.clock.sim_time = 9.0;
  auto draw = f.panel(h);
  h.frame(draw);  // opened on first use: the model has two lanes
  h.frame(draw);
  CHECK(h.probe.find("lane/1") != nullptr);
  CHECK(h.probe.find("lane drift") != nullptr);
  CHECK(h.probe.find("lane distance") != nullptr);
  // the picker's integrator, then Add lane: a lane from lane 0 with it and lane 0's dt
  h.click("New lane", draw);
  h.click("lane integrator/implicit-euler", draw);
  h.click("Add lane", draw);
  auto added = h.of<ui::AddLane>();
  REQUIRE(added.size() == 1);
  CHECK(added[0].integrator == "implicit-euler");
  CHECK(added[0].dt == 0.001);
  h.click("Branch/1", draw);

  auto branched = h.of<ui::BranchLane>();
  REQUIRE(branched.size() == 1);
  CHECK(branched[0].lane == 1);
  CHECK(branched[0].integrator == "implicit-euler");
  CHECK(h.probe.find("Remove/0") == nullptr);  // lane 0 stays
  h.click("Remove/1", draw);

  auto removed = h.of<ui::RemoveLane>();
  REQUIRE(removed.size() == 1);
  CHECK(removed[0].lane == 1);
  h.click("Side by side", draw);

  REQUIRE(h.flags(ui::DisplayFlag::SplitLanes).size() == 1);
  CHECK(h.flags(ui::DisplayFlag::SplitLanes)[0].on);
  // the timeline moves only while paused (a click: dragging a disabled item drags the window)
  h.moveTo("Timeline", 0.05f);
  h.click("Timeline", draw);

  CHECK(h.of<ui::SeekHistory>().empty());
  f.model.clock.paused = true;
  h.drag("Timeline", 0.6f, 0.02f, draw);  // the rectangle holds the label on the right
  const auto seeks = h.of<ui::SeekHistory>();
  REQUIRE_FALSE(seeks.empty());
  CHECK(seeks.back().entry == 0);
  // full: no more lanes
  f.model.lanes.max_lanes = 2;
  h.commands.clear();
  h.click("Add lane", draw);
  CHECK(h.of<ui::AddLane>().empty());
}

TEST_CASE("ui: Save map PNG under the stability map emits SaveMapPng and shows where it went") {
  Harness h(1280, 1600);
  Fixture f;
  f.model.clock.dt = 0.001;
  // the rows' spans view it: it must outlive the frames
  const std::vector<float> distance = series(200, [](double) { return 0.0; });
  for (int i = 0; i < 2; ++i) {  // two lanes: the Lab section opens on first use
    ui::LaneRow row;
    row.integrator = "verlet";
    row.dt = 0.001;
    row.time = f.t, row.drift = f.drift, row.distance = distance;
    f.model.lanes.rows.push_back(row);
  }
  ui::StabilityMapView& map = f.model.jobs.stability;
  map.integrator = "verlet";
  map.dts = {0.001, 0.002, 0.004}, map.scales = {1.0};
  map.cells = {ui::StabilityMapView::Stable, ui::StabilityMapView::Drifting,
               ui::StabilityMapView::Diverged};
  map.done = 3;
  auto draw = f.panel(h);
  h.frame(draw);
  h.frame(draw);
  h.click("Save map PNG", draw);
  const auto saves = h.of<ui::SaveMapPng>();
  REQUIRE(saves.size() == 1);
  CHECK(saves[0].path.empty());  // the Session's default place
  map.saved = "saved the map to /somewhere/cloth_16-map-verlet.png";
  ImGui::GetIO().MousePos = ImVec2(1279, 1599);  // no tooltip: it would end the text's log
  h.frame(draw);
  const std::string shown = h.text(draw);
  CHECK(shown.find("saved the map to /somewhere/cloth_16-map-verlet.png") != std::string::npos);
  map.saved = "cannot write PNG 'x/map.png': x/map.png: cannot open for writing: Not a directory";
  map.save_failed = true;
  CHECK(h.text(draw).find("cannot write PNG 'x/map.png'") != std::string::npos);
}

TEST_CASE(
    "ui: the period readout shows each lane's period, theory and error under the phase plot") {
  ui::LaneMeasure row;
  CHECK(ui::periodLine(row) == "period: no oscillation yet");
  row.period = 2.00711, row.crossings = 12;
  CHECK(ui::periodLine(row) == "period 2.0071 s (12 crossings)");  // no theory
  row.theory_period = 2.00641, row.period_error = 3.49e-4;
  CHECK(ui::periodLine(row) == "period 2.0071 s (12 crossings)  theory 2.0064 s  error +3.5e-4");
  CHECK(ui::periodMeasured(row) == "period 2.0071 s (12 crossings)");
  CHECK(ui::periodTheory(row) == "theory 2.0064 s  error +3.5e-4");
  row.period = 2.006;  // the trailing zero kept, as beside a theory of 2.0061
  CHECK(ui::periodMeasured(row) == "period 2.0060 s (12 crossings)");
  row.period_error = -1.2e-7;
  CHECK(ui::periodLine(row).ends_with("error -1.2e-7"));

  Harness h(1280, 1600);
  Fixture f;
  for (int i = 0; i < 2; ++i) {
    ui::LaneRow lane;
    lane.integrator = i == 0 ? "rk4" : "symplectic_euler";
    lane.dt = 0.001;
    lane.time = f.t, lane.drift = f.drift, lane.distance = f.drift;
    f.model.lanes.rows.push_back(lane);
    ui::LaneMeasure measure;
    if (i == 0) measure.period = 2.00711, measure.crossings = 12, measure.theory_period = 2.00641;
    f.model.measure.lanes.push_back(measure);
  }
  auto draw = f.panel(h);
  h.frame(draw);
  h.frame(draw);
  REQUIRE(h.probe.find("period/0") != nullptr);
  REQUIRE(h.probe.find("period/1") != nullptr);
  CHECK(h.probe.find("period/0")->y0 > h.probe.find("phase plot")->y1);  // under the phase plot
  ImGui::GetIO().MousePos = ImVec2(1279, 1599);  // no tooltip: it would end the text's log
  h.frame(draw);
  const std::string shown = h.text(draw);
  // the panel is narrower than the line: the theory on a line of its own
  CHECK(shown.find("period 2.0071 s (12 crossings)") != std::string::npos);
  CHECK(shown.find("theory 2.0064 s  error +0.0e0") != std::string::npos);
  CHECK(shown.find("period: no oscillation yet") != std::string::npos);
}

TEST_CASE(
    "ui: Arrows toggles the traced body's arrows, whose key stands at the scene's top right") {
  Harness h;
  Fixture f;
  f.pendulum();
  f.model.display.surface = false;
  auto draw = f.panel(h);
  for (int i = 0; i < 3; ++i) h.frame(draw);
  h.click("Arrows", draw);
  REQUIRE(h.flags(ui::DisplayFlag::Arrows).size() == 1);
  CHECK(h.flags(ui::DisplayFlag::Arrows)[0].on);  // off by default: the click shows them

  // the key: only with the arrows shown, inside the scene viewport, at its top right
  Harness g;
  f.model.display.scene_viewport_x = 440.0f;
  f.model.display.grid_spacing = 0.5;
  auto legend = [&] {
    ui::drawMeasureLegend(f.model, &g.probe);
    return std::vector<ui::Command>{};
  };
  g.frame(legend);
  CHECK(g.probe.find("measure legend") == nullptr);
  f.model.display.show_arrows = true;
  g.frame(legend);
  const ui::ItemRect& r = g.item("measure legend");
  CHECK(r.x0 >= 440.0f);
  CHECK(r.x1 <= 1280.0f);
  CHECK(r.x1 > 1200.0f);
  CHECK(r.y0 >= 0.0f);
  CHECK(r.y1 < 200.0f);
  // three lines: the grid, the velocity and the acceleration
  CHECK(r.y1 - r.y0 >= 3.0f * ImGui::GetTextLineHeight());
}

TEST_CASE("ui: a joint's angle is drawn beside it, in degrees") {
  Harness g;
  const std::vector<ui::JointLabel> joints = {{600.0f, 200.0f, 30.0}, {700.0f, 400.0f, -12.5}};
  auto draw = [&] {
    ui::drawJointAngles(joints, &g.probe);
    return std::vector<ui::Command>{};
  };
  g.frame(draw);
  for (size_t i = 0; i < joints.size(); ++i) {
    const ui::ItemRect& r = g.item("joint angle/" + std::to_string(i));
    // below and right of the joint, within a label's size of it
    CHECK(r.x0 > joints[i].x);
    CHECK(r.y0 > joints[i].y);
    CHECK(r.x0 < joints[i].x + 20.0f);
    CHECK(r.y0 < joints[i].y + 20.0f);
    // "30.0°" / "-12.5°": five or six characters of the default font
    CHECK(r.x1 - r.x0 > 5.0f * 6.0f);
  }
  // a joint behind the camera (not finite) is skipped, not drawn at a wild place
  const std::vector<ui::JointLabel> bad = {{NAN, 0.0f, 10.0}};
  g.frame([&] {
    ui::drawJointAngles(bad, &g.probe);
    return std::vector<ui::Command>{};
  });
  CHECK(g.probe.find("joint angle/0") == nullptr);
}
