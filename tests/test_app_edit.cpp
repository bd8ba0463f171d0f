// Edit mode through the frame driver: Ctrl+S saves the scene for springlab run; particles,
// springs and pins by mouse, undo and redo; what it refuses and why; the tools, box selection,
// the ruler, a pendulum's links.
#include <doctest/doctest.h>

#ifdef SPRINGLAB_VIEWER

#include <GLFW/glfw3.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "app/frame_driver.hpp"
#include "app/key_table.hpp"
#include "app/mouse.hpp"
#include "scene/edit.hpp"
#include "util.hpp"

namespace {
using B = app::MouseControl::Button;

// A driver on a new scene (scene::newScene: one anchor at the origin) in edit mode, its camera
// on the plane around it, in a 1280 x 720 window whose panel takes the left 400 px.
struct EditRig {
  app::FrameDriver d;
  EditRig() {
    d.session().load("pendulum_small_angle");
    std::vector<ui::Command> commands;
    app::onKeyPress(d, GLFW_KEY_N, /*ctrl=*/true, /*shift=*/false, commands);  // File: New
    REQUIRE(commands.size() == 1);
    d.applyCommand(commands[0]);
    d.camera().planar = true;
    d.camera().frame(glm::vec3(-2.0f, -3.0f, 0.0f), glm::vec3(2.0f, 1.0f, 0.0f));
    d.mouse().setViewport(400, 880, 720);
  }
  glm::dvec2 pixel(double x, double y) {
    return d.mouse().project(glm::vec3(float(x), float(y), 0.0f));
  }
  void click(double x, double y, bool shift = false) {
    const glm::dvec2 p = pixel(x, y);
    d.mouse().press(B::Left, false, shift, p.x, p.y, time += 1.0, false);
    d.mouse().release(p.x, p.y);
  }
  void drag(double x0, double y0, double x1, double y1) {
    const glm::dvec2 a = pixel(x0, y0), b = pixel(x1, y1);
    d.mouse().press(B::Left, false, false, a.x, a.y, time += 1.0, false);
    d.mouse().move(0.5 * (a.x + b.x), 0.5 * (a.y + b.y));
    d.mouse().release(b.x, b.y);
  }
  void key(int glfwKey, bool ctrl = false, bool shift = false) {
    std::vector<ui::Command> commands;
    app::onKeyPress(d, glfwKey, ctrl, shift, commands);
    REQUIRE(commands.size() == 1);
    d.applyCommand(commands[0]);
  }
  const sim::MassSpringModel& model() { return *d.session().built().massSpring(); }
  double time = 0.0;  // s, the clicks' (none is a double-click)
};

// Drags a spring from the body at (0, -1) to the one at (0, -2): while it is dragged, a line runs
// from its body to the cursor; released, none.
void dragSecondSpringWithItsGuide(EditRig& r) {
  app::Session& s = r.d.session();
  const glm::dvec2 from = r.pixel(0.0, -1.0), to = r.pixel(0.7, -1.5);
  r.d.mouse().press(B::Left, false, false, from.x, from.y, r.time += 1.0, false);
  r.d.mouse().move(to.x, to.y);
  const auto& guide = r.d.views().build(s, false).grab_line;
  REQUIRE(guide.size() == 6);
  CHECK(guide[1] == doctest::Approx(-1.0).epsilon(1e-4));
  CHECK(guide[3] == doctest::Approx(0.7).epsilon(1e-4));
  const glm::dvec2 end = r.pixel(0.0, -2.0);
  r.d.mouse().move(end.x, end.y);
  r.d.mouse().release(end.x, end.y);
  CHECK(r.d.views().build(s, false).grab_line.empty());
}

// Saves the rig's scene, and springlab run loads it: the rows are the window's own steps, digit
// for digit.
void checkRunStepsTheSavedSceneAsTheWindow(EditRig& r) {
  using namespace testutil;
  app::Session& s = r.d.session();
  const auto dir = tempDir() / "edit_mode";
  std::filesystem::create_directories(dir);
  const std::string saved = (dir / "built.json").string();
  r.d.applyCommand(ui::SaveScene{saved});
  REQUIRE(std::filesystem::exists(saved));
  const RunResult run = springlab({"run", saved, "--duration", "0.5", "--out", "-"});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  r.key(GLFW_KEY_SPACE);  // running again leaves edit mode
  CHECK_FALSE(s.editor().editing());
  for (int k = 0; k < 500; ++k) REQUIRE(s.stepOnce());
  const std::vector<std::vector<double>> rows = csvRows(run.out);
  REQUIRE(rows.size() == 501);
  CHECK(rows.back()[0] == s.time());
  for (int j = 0; j < 12; ++j) CHECK(rows.back()[size_t(j + 1)] == s.state().x[j]);
  // the hanging pair fell and swings; the free particle without a spring fell freely
  CHECK(s.state().x[3 * 3 + 1] == doctest::Approx(-2.5 - 0.5 * 9.81 * 0.25).epsilon(1e-9));
}

}  // namespace

TEST_CASE("app: Ctrl+S saves the scene as it starts now, and springlab run loads it the same") {
  using namespace testutil;
  const auto dir = tempDir() / "ctrl_s";
  std::filesystem::create_directories(dir);
  app::FrameDriver d;
  d.session().load("seed003_table1_case1");
  std::string msg;
  for (const ui::SessionCommand& c :
       {ui::SessionCommand{ui::SetParameter{int(sim::Parameter::StiffnessScale), 4.0}},
        ui::SessionCommand{ui::SetParameter{int(sim::Parameter::Drag), 0.5}},
        ui::SessionCommand{ui::SetIntegrator{"verlet"}}, ui::SessionCommand{ui::SetDt{0.0005}}})
    REQUIRE_MESSAGE(d.session().apply(c, &msg), msg);
  for (int i = 0; i < 100; ++i) REQUIRE(d.session().stepOnce());  // saved: the initial state
  // Ctrl+S with no path typed: "SCENE-edited.json" in the current folder
  std::vector<ui::Command> commands;
  app::onKeyPress(d, GLFW_KEY_S, /*ctrl=*/true, /*shift=*/false, commands);
  REQUIRE(commands.size() == 1);
  REQUIRE(ui::commandAs<ui::SaveScene>(commands[0]) != nullptr);
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  d.applyCommand(commands[0]);
  std::filesystem::current_path(cwd);
  CHECK(d.status() == "saved seed003_table1_case1-edited.json");
  CHECK_FALSE(d.statusError());
  const auto saved = dir / "seed003_table1_case1-edited.json";
  REQUIRE(std::filesystem::exists(saved));
  // run loads it to the scene with those settings: the same rows, digit for digit, as the
  // built-in scene with the same changes given as options and events at t = 0
  const RunResult fromFile = springlab({"run", saved.string(), "--duration", "0.5", "--out", "-"});
  REQUIRE_MESSAGE(fromFile.status == 0, fromFile.err);
  const RunResult fromOptions =
      springlab({"run", "seed003_table1_case1", "--integrator", "verlet", "--dt", "0.0005", "--at",
                 "0:stiffness_scale=4", "--at", "0:drag=0.5", "--duration", "0.5", "--out", "-"});
  REQUIRE_MESSAGE(fromOptions.status == 0, fromOptions.err);
  CHECK(lines(fromFile.out).size() == 1002);
  CHECK(fromFile.out == fromOptions.out);
  // a place that cannot be written: the status line says why, in one line
  const std::string bad = (dir / "no_such_folder" / "x.json").string();
  d.applyCommand(ui::SaveScene{bad});
  CHECK(d.status() == bad + ": cannot open for writing: No such file or directory");
  CHECK(d.statusError());
}

TEST_CASE(
    "app: edit mode: three particles and two springs by mouse, a pin, undo twice, redo "
    "once, save, and springlab run steps it the same") {
  EditRig r;
  app::Session& s = r.d.session();
  REQUIRE(s.editor().editing());
  REQUIRE(s.paused());
  REQUIRE(r.model().particles() == 1);
  CHECK(s.sceneName() == "New scene");
  CHECK(s.scene().savePath() == "new_scene-edited.json");
  // E leaves edit mode and enters it again
  r.key(GLFW_KEY_E);
  CHECK_FALSE(s.editor().editing());
  r.key(GLFW_KEY_E);
  REQUIRE(s.editor().editing());
  // a click on empty space: a particle there
  r.click(0.0, -1.0);
  r.click(0.0, -2.0);
  r.click(1.0, -2.5);
  REQUIRE(r.model().particles() == 4);
  CHECK(s.built().state.x[3 * 2 + 1] == doctest::Approx(-2.0).epsilon(1e-4));
  CHECK(s.built().state.x[3 * 3 + 2] == 0.0);  // the plane stays the plane
  // body to body: a spring at rest at their distance, with the new-spring settings
  r.drag(0.0, 0.0, 0.0, -1.0);
  dragSecondSpringWithItsGuide(r);
  REQUIRE(r.model().spring_a.size() == 2);
  CHECK(r.model().rest_length[1] == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(r.model().stiffness[0] == ui::SetNewSpring{}.stiffness);
  // a click on a body selects it, P pins it
  r.click(1.0, -2.5);
  CHECK(s.editor().selection() == std::vector<int>{3});
  r.key(GLFW_KEY_P);
  CHECK(r.model().inv_mass[3] == 0.0);
  CHECK(s.editor().undoDepth() ==
        7);  // New (back to the scene before), 3 particles, 2 springs, 1 pin
  // undo twice (the pin, the second spring), redo once (the spring)
  r.key(GLFW_KEY_Z, true);
  r.key(GLFW_KEY_Z, true);
  CHECK(r.model().spring_a.size() == 1);
  CHECK(r.model().inv_mass[3] > 0.0);
  r.key(GLFW_KEY_Z, true, true);
  CHECK(r.model().spring_a.size() == 2);
  CHECK(r.model().inv_mass[3] > 0.0);
  CHECK(s.editor().redoDepth() == 1);
  checkRunStepsTheSavedSceneAsTheWindow(r);
}

TEST_CASE(
    "app: edit mode refuses a spring to itself, one of no length and a massless particle, "
    "and says why") {
  EditRig r;
  app::Session& s = r.d.session();
  r.click(0.0, -1.0);
  std::string msg;
  CHECK_FALSE(s.apply(ui::EditAddSpring{1, 1}, &msg));
  CHECK(msg == "a spring needs two different particles, not particle 1 to itself");
  CHECK(s.editor().message() == msg);
  REQUIRE(s.apply(ui::EditAddParticle{{0.0, -1.0, 0.0}}, &msg));
  CHECK_FALSE(s.apply(ui::EditAddSpring{1, 2}, &msg));
  CHECK(msg == "particles 1 and 2 are in one place: a spring of no length has no direction");
  CHECK_FALSE(s.apply(ui::SetNewSpring{100.0, 0.0, 0.0}, &msg));
  CHECK(msg == "new spring: stiffness and mass must be > 0, damping >= 0");
  CHECK_FALSE(s.apply(ui::EditSetMass{1, -1.0}, &msg));
  CHECK(msg == "a particle's mass must be a finite number > 0, not -1");
  CHECK_FALSE(s.apply(ui::EditSetMass{1, std::nan("")}, &msg));
  CHECK(msg == "a particle's mass must be a finite number > 0, not nan");
  CHECK(r.model().spring_a.empty());   // nothing refused left a trace
  CHECK(s.editor().undoDepth() == 3);  // New, 2 particles
  // the status line of the window says it too
  r.d.applyCommand(ui::EditAddSpring{1, 1});
  CHECK(r.d.status() == "a spring needs two different particles, not particle 1 to itself");
  CHECK(r.d.statusError());
  // the last particle cannot go: the loader takes no empty system
  r.click(0.0, 0.0);
  r.click(0.0, -1.0, true);
  r.click(0.0, -1.0 + 1e-9, true);  // Shift on a selected body takes it out
  CHECK(s.editor().selection() == std::vector<int>{0});
  REQUIRE(s.apply(ui::EditDelete{}, &msg));
  CHECK(r.model().particles() == 2);
}

TEST_CASE("app: an edit that makes the current dt unstable shows on the limit line before Run") {
  EditRig r;
  app::Session& s = r.d.session();
  r.click(0.0, -1.0);
  std::string msg;
  ui::PanelModel pm;
  s.fillPanel(pm);
  CHECK(pm.measure.dt_limit == 0.0);  // a free particle: nothing oscillates, no limit
  // a spring of 1e7 N/m on 1 kg: omega = 3162 rad/s, rk4's limit 2 sqrt(2) / omega = 0.89 ms,
  // below the scene's 1 ms
  REQUIRE(s.apply(ui::SetNewSpring{1e7, 0.0, 1.0}, &msg));
  r.drag(0.0, 0.0, 0.0, -1.0);
  REQUIRE(r.model().spring_a.size() == 1);
  REQUIRE(s.paused());
  s.fillPanel(pm);
  CHECK(pm.measure.dt_limit ==
        doctest::Approx(2.0 * std::sqrt(2.0) / std::sqrt(1e7)).epsilon(1e-6));
  REQUIRE(pm.lanes.rows.size() == 1);
  CHECK(pm.measure.lanes[0].dt_over_limit > 1.0);
}

TEST_CASE("app: edit mode's tools put a chain, a cloth patch, a jelly box or a mesh at the click") {
  EditRig r;
  app::Session& s = r.d.session();
  std::string msg;
  const auto counts = [&] {
    return std::pair{r.model().particles(), static_cast<int>(r.model().spring_a.size())};
  };
  REQUIRE(s.apply(ui::SetNewSpring{500.0, 0.1, 2.0}, &msg));
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::Chain), ""}, &msg));
  r.click(-1.0, 0.0);  // a fixed pivot and 5 links below it
  CHECK(counts() == std::pair{1 + 6, 5});
  CHECK(r.model().inv_mass[1] == 0.0);
  CHECK(r.model().stiffness[0] == 500.0);
  CHECK(r.model().mass[2] == 2.0);
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::ClothPatch), ""}, &msg));
  r.click(1.0, -1.0);  // 9 x 9 particles
  CHECK(counts().first == 7 + 81);
  CHECK(s.built().planar());  // a hanging sheet in the x-y plane keeps a planar scene planar
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::Mesh), "no_such.obj"}, &msg));
  CHECK_FALSE(s.apply(ui::EditPlaceTool{{0.0, -2.0, 0.0}}, &msg));
  CHECK(msg.rfind("mesh file: ", 0) == 0);
  CHECK(msg.find("no_such.obj") != std::string::npos);
  const std::string flag = std::string(SPRINGLAB_SOURCE_DIR) + "/assets/meshes/tablecloth.obj";
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::Mesh), flag}, &msg));
  const int before = counts().first;
  REQUIRE_MESSAGE(s.apply(ui::EditPlaceTool{{0.0, -2.0, 0.0}}, &msg), msg);
  CHECK(counts().first > before);
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::JellyBox), ""}, &msg));
  REQUIRE(s.apply(ui::EditPlaceTool{{0.0, -2.0, 0.0}}, &msg));
  CHECK_FALSE(s.built().planar());  // a jelly box is a 3-D body
  // each tool is one edit: undo takes the box away whole
  const int withBox = counts().first;
  REQUIRE(s.apply(ui::Undo{}, &msg));
  CHECK(withBox - counts().first == 125);
  CHECK_FALSE(s.apply(ui::SetEditTool{9, ""}, &msg));
  CHECK(msg == "tool 9: no such tool");
}

TEST_CASE("app: edit mode: Shift+drag on empty space draws a box that selects what it holds") {
  EditRig r;
  app::Session& s = r.d.session();
  r.click(0.0, -1.0);
  r.click(0.0, -2.0);
  r.click(1.5, -2.5);
  REQUIRE(r.model().particles() == 4);
  r.click(1.5, -2.5);  // a selection the box replaces
  const glm::dvec2 a = r.pixel(-0.5, -0.5), b = r.pixel(0.5, -2.2);
  r.d.mouse().press(B::Left, false, true, a.x, a.y, r.time += 1.0, false);
  r.d.mouse().move(b.x, b.y);
  const auto box = r.d.mouse().selectionBox();
  REQUIRE(box);
  CHECK((*box)[2] == b.x);
  r.d.mouse().release(b.x, b.y);
  CHECK_FALSE(r.d.mouse().selectionBox());
  CHECK(s.editor().selection() == std::vector<int>{1, 2});
  CHECK(r.model().particles() == 4);  // the Shift+press added nothing
  // P pins both
  r.key(GLFW_KEY_P);
  CHECK(r.model().inv_mass[1] == 0.0);
  CHECK(r.model().inv_mass[2] == 0.0);
}

TEST_CASE(
    "app: the ruler: its ends dragged, it reads their distance and its angle from the "
    "vertical") {
  EditRig r;  // a planar view, 1 m = 133 px or so
  r.d.applyCommand(ui::SetEditMode{false});
  r.d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::Ruler, true});
  const auto& ruler = r.d.mouse().ruler();
  REQUIRE(ruler.shown);
  // drag each end by its ring to a known point: (0, 0) and (1, -1)
  const glm::dvec2 a = r.d.mouse().project(ruler.a), b = r.d.mouse().project(ruler.b);
  const glm::dvec2 to_a = r.pixel(0.0, 0.0), to_b = r.pixel(1.0, -1.0);
  r.d.mouse().press(B::Left, false, false, a.x + 3, a.y, r.time += 1.0, false);
  r.d.mouse().move(to_a.x + 3, to_a.y);
  r.d.mouse().release(to_a.x + 3, to_a.y);
  r.d.mouse().press(B::Left, false, false, b.x, b.y - 3, r.time += 1.0, false);
  r.d.mouse().move(to_b.x, to_b.y - 3);
  r.d.mouse().release(to_b.x, to_b.y - 3);
  const ui::RulerView v = r.d.rulerView();
  const double px = glm::length(r.pixel(1.0, 0.0) - r.pixel(0.0, 0.0));  // a metre in pixels
  CHECK(v.length == doctest::Approx(std::sqrt(2.0)).epsilon(6.0 / px));  // within the 3 px nudges
  CHECK(v.from_vertical_deg == doctest::Approx(45.0).epsilon(0.02));
  CHECK(r.model().particles() == 1);  // the drags took nothing else: no particle, no spring
  r.d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::Ruler, false});
  CHECK_FALSE(ruler.shown);
}

TEST_CASE("app: undo keeps at most kUndoDepth edits, the oldest going first") {
  EditRig r;
  app::Session& s = r.d.session();
  r.click(0.0, -1.0);
  std::string msg;
  for (int i = 0; i < app::Editor::kUndoDepth + 10; ++i)
    REQUIRE(s.apply(ui::EditSetMass{1, 1.0 + i}, &msg));
  CHECK(s.editor().undoDepth() == app::Editor::kUndoDepth);
  while (s.editor().undoDepth() > 0) REQUIRE(s.apply(ui::Undo{}, &msg));
  // back as far as the stack reaches: the mass of the 11th edit, not the particle's first
  CHECK(r.model().mass[1] == doctest::Approx(1.0 + 10 - 1));
  CHECK_FALSE(s.apply(ui::Undo{}, &msg));
  CHECK(msg == "undo: nothing to undo");
}

TEST_CASE(
    "app: a pendulum in edit mode: links added and removed, a link's length, mass and "
    "start angle") {
  app::FrameDriver d;
  d.session().load("pendulum_small_angle");
  app::Session& s = d.session();
  std::string msg;
  REQUIRE(s.apply(ui::SetEditMode{true}, &msg));
  REQUIRE(s.apply(ui::EditAddLink{}, &msg));
  REQUIRE(s.apply(ui::EditAddLink{}, &msg));
  CHECK(s.built().pendulum()->links() == 3);
  REQUIRE(s.apply(ui::EditSetLink{1, 0.5, 2.0, 30.0}, &msg));
  CHECK(s.built().pendulum()->length[1] == 0.5);
  CHECK(s.built().pendulum()->mass[1] == 2.0);
  CHECK(s.built().state.x[1] == doctest::Approx(std::numbers::pi / 6));
  REQUIRE(s.apply(ui::EditRemoveLink{}, &msg));
  REQUIRE(s.apply(ui::EditRemoveLink{}, &msg));
  CHECK_FALSE(s.apply(ui::EditRemoveLink{}, &msg));
  CHECK(msg == "remove a link: a pendulum keeps one link at least");
  CHECK_FALSE(s.apply(ui::EditAddParticle{{0.0, 0.0, 0.0}}, &msg));
  CHECK(msg == "add a particle: a pendulum has links, not particles and springs");
  // the panel's Bodies part shows the selected link
  REQUIRE(s.apply(ui::EditSelect{0, false}, &msg));
  ui::PanelModel pm;
  s.fillPanel(pm);
  CHECK(pm.edit.layout == ui::BodyEditor::Chain);
  CHECK(pm.edit.links == 1);
  CHECK(pm.edit.body == 0);
  CHECK(pm.edit.length == 1.0);
}

namespace {
// The bounding box of the particles from `first` on, as the session starts them (m).
std::array<sim::Vec3, 2> boxFrom(const app::Session& s, int first) {
  const auto& x = s.state().x;
  sim::Vec3 lo = sim::Vec3::Constant(1e300), hi = -lo;
  for (Eigen::Index i = 3 * first; i + 2 < x.size(); i += 3) {
    const sim::Vec3 p(x[i], x[i + 1], x[i + 2]);
    lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
  }
  return {lo, hi};
}
}  // namespace

TEST_CASE("app: the Mesh tool fits a scan to 1 m, or takes the scene file's scale and rotate") {
  EditRig r;
  app::Session& s = r.d.session();
  std::string msg;
  // a 0.15 m x 0.1 m plate, as a scan arrives in metres
  const std::string plate =
      testutil::writeFile("plate.obj", "v 0 0 0\nv 0.15 0 0\nv 0.15 0.1 0\nv 0 0.1 0\nf 1 2 3 4\n")
          .string();
  const int mesh = r.model().particles();
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::Mesh), plate}, &msg));
  REQUIRE_MESSAGE(s.apply(ui::EditPlaceTool{{1.0, -2.0, 0.0}}, &msg), msg);
  std::array<sim::Vec3, 2> box = boxFrom(s, mesh);
  sim::Vec3 lo = box[0], hi = box[1];
  // the default, 0, fits it: its longest side is the other tools' 1 m, centred on the click
  CHECK(hi.x() - lo.x() == doctest::Approx(scene::kToolSize).epsilon(1e-12));
  CHECK(hi.y() - lo.y() == doctest::Approx(scene::kToolSize * 0.1 / 0.15).epsilon(1e-12));
  CHECK(0.5 * (lo + hi).x() == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(0.5 * (lo + hi).y() == doctest::Approx(-2.0).epsilon(1e-12));
  REQUIRE(s.apply(ui::Undo{}, &msg));
  // scale 2, then a quarter turn about z: 0.2 m tall, 0.3 m wide
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::Mesh), plate, 2.0, {0.0, 0.0, 90.0}}, &msg));
  REQUIRE_MESSAGE(s.apply(ui::EditPlaceTool{{1.0, -2.0, 0.0}}, &msg), msg);
  box = boxFrom(s, mesh);
  lo = box[0], hi = box[1];
  CHECK(hi.x() - lo.x() == doctest::Approx(0.2).epsilon(1e-12));
  CHECK(hi.y() - lo.y() == doctest::Approx(0.3).epsilon(1e-12));
  ui::PanelModel pm;
  s.fillPanel(pm);
  CHECK(pm.edit.mesh_scale == 2.0);
  CHECK(pm.edit.mesh_rotate_deg[2] == 90.0);
  // a bad transform is refused when it is typed, as the scene file refuses it
  CHECK_FALSE(s.apply(ui::SetEditTool{int(scene::EditTool::Mesh), plate, -1.0}, &msg));
  CHECK(msg == "mesh scale must be a finite number > 0 (or 0: fit to 1 m), not -1");
}

TEST_CASE("app: the Mesh tool's file errors say \"mesh file:\", with the file's line") {
  EditRig r;
  app::Session& s = r.d.session();
  std::string msg;
  const std::string bad =
      testutil::writeFile("missing_v.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n").string();
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::Mesh), bad}, &msg));
  CHECK_FALSE(s.apply(ui::EditPlaceTool{{0.0, -2.0, 0.0}}, &msg));
  CHECK(msg == "mesh file: " + bad + ":4: face index 4 out of range (3 vertices)");
  const std::string binary =
      testutil::writeFile("binary.obj", std::string("glTF\x02\x00\x00\x00", 8)).string();
  REQUIRE(s.apply(ui::SetEditTool{int(scene::EditTool::Mesh), binary}, &msg));
  CHECK_FALSE(s.apply(ui::EditPlaceTool{{0.0, -2.0, 0.0}}, &msg));
  CHECK(msg == "mesh file: " + binary +
                   ": not a text OBJ file (byte 0x02 at offset 4): springlab reads Wavefront OBJ "
                   "text (v and f lines)");
  CHECK(r.model().particles() == 1);  // nothing added
}

TEST_CASE("app: the Edit section names what is selected in words") {
  EditRig r;
  app::Session& s = r.d.session();
  std::string msg;
  for (int i = 1; i <= 7; ++i) r.click(0.3 * i, -1.0);
  REQUIRE(r.model().particles() == 8);
  const auto named = [&](std::vector<int> bodies) {
    REQUIRE(s.apply(ui::EditSelectMany{std::move(bodies), false}, &msg));
    ui::PanelModel pm;
    s.fillPanel(pm);
    return pm.edit.selection_name;
  };
  CHECK(named({2}) == "particle 2");
  CHECK(named({3, 2}) == "particles 2 and 3");
  CHECK(named({5, 1, 4}) == "particles 1, 4 and 5");
  CHECK(named({0, 1, 2, 3, 4, 5, 6}) == "7 particles: 0, 1, 2, 3, 4 and 2 more");
  CHECK(named({}).empty());
}

#endif  // SPRINGLAB_VIEWER
