// The windows the UI draws over the scene, without a renderer: the divergence banner (its
// buttons, its place in small windows, its numbers' digits), the help overlay, the strain legend
// and its colours, the status line, the arrows' key, the joints' angles.
#include <doctest/doctest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "ui/panel.hpp"
#include "ui_helpers.hpp"

using namespace uitest;

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
  // the replay: the blow-up in slow motion, 2 s at most at 30 frames a second
  h.commands.clear();
  h.click("Replay slowly", banner);
  REQUIRE(h.commands.size() == 1);
  REQUIRE(ui::commandAs<ui::ReplayBlowUp>(h.commands[0]) != nullptr);
  CHECK(ui::commandAs<ui::ReplayBlowUp>(h.commands[0])->max_frames == 60);

  // nothing kept to rewind to: Back 1 s is disabled, with a tooltip saying why; the replay of
  // the blow-up's own steps needs no kept state
  f.model.clock.can_rewind = false;
  h.commands.clear();
  h.click("Back 1 s", banner);
  CHECK(h.commands.empty());
  h.click("Replay slowly", banner);
  CHECK(h.commands.size() == 1);
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
  // the renderer's map (render::strainColor; test_app_view.cpp holds the two equal): ends and rest
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
