// The Edit section's layout and words (docs/exploring.md#edit-mode): a long refusal wraps inside
// the panel, counts and selections read as English, the Mesh file tool's transform fields; the
// Display section's checkboxes after File: New; a press that arrives with a move onto the panel
// is the panel's.
#include <doctest/doctest.h>

#include <string>

#include "ui_helpers.hpp"

using uitest::Fixture;
using uitest::Harness;

namespace {
// The fixture as the app fills it after File: New in edit mode: one fixed particle, nothing else.
void newScene(Fixture& f) {
  f.model.scene.particles = 1, f.model.scene.springs = 0, f.model.scene.links = 0;
  f.model.display.surface = false;
  f.model.edit.editing = true;
  f.model.edit.tool_names = {"Particle", "Chain", "Cloth patch", "Jelly box", "Mesh file"};
  f.model.edit.particles = 1;
}

// The panel's window, whose right edge the Edit section must keep to.
ImRect panelRect() {
  const ImGuiWindow* w = ImGui::FindWindowByName("springlab");
  REQUIRE(w != nullptr);
  return w->Rect();
}

constexpr const char* kObjError =
    "mesh file: bunny_missingv.obj:3008: face index 3440 out of range (3000 vertices)";
}  // namespace

TEST_CASE("ui: the Edit section wraps a mesh file's refusal inside the panel, every word shown") {
  Harness h(1280, 1400);  // tall: every section in view
  Fixture f;
  newScene(f);
  f.model.edit.message = kObjError;
  auto draw = f.panel(h);
  h.frame(draw);
  h.frame(draw);
  const ui::ItemRect& m = h.item("edit message");
  const ImRect panel = panelRect();
  CHECK(m.x1 <= panel.Max.x);
  CHECK(m.x0 >= panel.Min.x);
  // on two lines at least: one would run past the panel's 420 px
  CHECK(m.y1 - m.y0 > 1.5f * ImGui::GetFontSize());
  const std::string text = h.text(draw);
  CHECK(text.find(kObjError) != std::string::npos);
}

TEST_CASE("ui: after File: New the Display section's checkboxes sit below its header") {
  Harness h(1280, 1400);
  Fixture f;
  newScene(f);
  auto draw = f.panel(h);
  h.frame(draw);
  h.frame(draw);
  const float header = h.item("Display").y1;
  for (const char* box : {"Trails", "Follow", "Equilibrium"}) {
    CAPTURE(box);
    CHECK(h.item(box).y0 >= header);
  }
  // Trails and Follow share a row, Follow to the right
  CHECK(h.item("Follow").y0 == h.item("Trails").y0);
  CHECK(h.item("Follow").x0 > h.item("Trails").x1);
}

TEST_CASE("ui: the Edit section's counts and selection read as English") {
  Harness h(1280, 1400);
  Fixture f;
  newScene(f);
  f.model.edit.springs = 1;
  f.model.edit.body = 1;
  f.model.edit.body_name = "particle 1";
  f.model.edit.selection = {1, 2};
  f.model.edit.selection_name = "particles 1 and 2";
  auto draw = f.panel(h);
  h.frame(draw);
  std::string text = h.text(draw);
  CHECK(text.find("1 particle, 1 spring") != std::string::npos);
  CHECK(text.find("particles 1 and 2") != std::string::npos);
  CHECK(text.find("particle 1 + 1") == std::string::npos);
  // a pendulum of one link
  f.model.edit.layout = ui::BodyEditor::Chain;
  f.model.edit.links = 1;
  text = h.text(draw);
  CHECK(text.find("1 link") != std::string::npos);
  CHECK(text.find("1 links") == std::string::npos);
  f.model.edit.links = 3;
  CHECK(h.text(draw).find("3 links") != std::string::npos);
}

TEST_CASE("ui: the Mesh file tool offers the scene file's scale and rotate, applied with Enter") {
  Harness h(1280, 1400);
  Fixture f;
  newScene(f);
  f.model.edit.tool = 4;
  f.model.edit.tool_takes_file = true;
  f.model.edit.mesh_file = "bunny.obj";
  auto draw = f.panel(h);
  h.frame(draw);
  // 0 is the fit: its longest side becomes 1 m, and the panel says so
  CHECK(h.text(draw).find("(fit: 1 m)") != std::string::npos);
  h.typeInto("Mesh scale", "0.001", draw);
  const auto tools = h.of<ui::SetEditTool>();
  REQUIRE(tools.size() == 1);
  CHECK(tools[0].tool == 4);
  CHECK(tools[0].mesh_file == "bunny.obj");
  CHECK(tools[0].mesh_scale == 0.001);
  CHECK(tools[0].mesh_rotate_deg == std::array<double, 3>{0.0, 0.0, 0.0});
  CHECK(h.probe.find("Mesh rotate") != nullptr);
  // another tool: no mesh fields
  f.model.edit.tool = 1;
  f.model.edit.tool_takes_file = false;
  h.frame(draw);
  CHECK(h.probe.find("Mesh scale") == nullptr);
}

TEST_CASE("ui: a press that arrives with a move onto the panel is the panel's, not the scene's") {
  Harness h(1280, 720);
  Fixture f;
  newScene(f);
  auto draw = f.panel(h);
  // the mouse rests in the scene (bottom right) for a few frames
  for (int i = 0; i < 3; ++i) h.frame(draw);
  const ImGuiIO& io = ImGui::GetIO();
  REQUIRE_FALSE(io.WantCaptureMouse);  // what a press on this frame would have gone by
  const ui::ItemRect& combo = h.item("Click adds");
  const float x = 0.5f * (combo.x0 + combo.x1), y = 0.5f * (combo.y0 + combo.y1);
  CHECK(ui::uiWantsMouseAt(x, y));
  CHECK_FALSE(ui::uiWantsMouseAt(1000.0, 400.0));  // the scene, right of the panel
  // framebuffer pixels on a HiDPI display: two per ImGui point
  ImGui::GetIO().DisplayFramebufferScale = ImVec2(2.0f, 2.0f);
  CHECK(ui::uiWantsMouseAt(2.0 * x, 2.0 * y));
  CHECK_FALSE(ui::uiWantsMouseAt(x + 1000.0, 2.0 * y));
}
