// The ImGui panel without a renderer: an ImGui context, frames driven by a simulated mouse and
// keyboard, widgets found through ui::ItemProbe, and the commands checked: clamping, the command
// owners, buttons, combos, Record, loading and saving, the wind and the physics controls, tooltips,
// pacing, what applies to each kind. The helpers are in ui_helpers.hpp; the panel's other suites:
// test_ui_dt.cpp, test_ui_windows.cpp and test_ui_lab.cpp.
#include <doctest/doctest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ui/panel.hpp"
#include "ui_helpers.hpp"

using namespace uitest;

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
