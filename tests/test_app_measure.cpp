// The measuring aids through the session and the frame driver (docs/exploring.md#forces,
// #rest-lengths, #protractor, docs/lab.md#period): the forces drawn on the traced body adding up
// to its acceleration, a recorded frame's force arrows, the protractor's angle dragged to a known
// geometry, the rest lengths' marks, and the phase plot's line broken at a frame that took long.
#include <doctest/doctest.h>

#ifdef SPRINGLAB_VIEWER

#include <GLFW/glfw3.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "app/egl_context.hpp"
#include "app/frame_driver.hpp"
#include "app/key_table.hpp"
#include "app/platform.hpp"
#include "app/session.hpp"
#include "app/view_builder.hpp"
#include "fp_trap.hpp"
#include "record_helpers.hpp"
#include "ui/panel.hpp"
#include "util.hpp"

#include "stb_image_reader.hpp"

using namespace testutil;

namespace {

constexpr double kG = 9.81;  // m/s^2

// A bob of 1 kg at the bottom of its swing on a 1 m rod, moving right at 2.5 m/s: the rod pulls
// m g + m v^2 / L = 16.06 N up, gravity 9.81 N down.
const char* kBottom = R"({"gravity": [0, -9.81, 0], "integrator": "rk4", "dt": 0.001,
  "duration": 1, "system": {"type": "pendulum", "lengths": [1], "masses": [1],
  "angles": [0], "angular_velocities": [2.5]}})";

// A frame driver drawing into a headless context with ImGui's overlays (as `record` sets one up),
// its frames read back; each saved under $SPRINGLAB_RENDER_PNG_DIR when set (the docs' pictures).
struct OverlayRig {
  testutil::FpTrapsOff mesa;  // the GL driver raises its own
  app::HeadlessContext context;
  app::FrameDriver d;
  app::LockedSteps steps{60.0};
  explicit OverlayRig(const char* scene) {
    REQUIRE_MESSAGE(context.create(), context.error());
    d.session().load(scene);
    std::string error;
    REQUIRE_MESSAGE(d.initGl(&error), error);
    app::createImGui(1.0f, false);
    app::FrameOptions o;
    o.imgui = app::initImGuiRenderer();
    REQUIRE(o.imgui);
    o.show_ui = false, o.axes = false, o.pacing = app::Pacing::SmoothFrames;
    d.configure(o);
    d.frameScene();
    d.sceneDefaults();
    d.session().setPaused(true);
  }
  ~OverlayRig() {
    app::shutdownImGui(false);
    d.releaseGl();
  }
  Image frame(const std::string& name, int w = 960, int h = 540) {
    d.renderFrame(steps, w, h);
    std::vector<unsigned char> rgba;
    d.target().read(rgba);
    Image im;
    im.w = w, im.h = h;
    for (size_t i = 0; i + 3 < rgba.size(); i += 4)
      im.rgb.insert(im.rgb.end(), &rgba[i], &rgba[i] + 3);
    if (const char* dir = std::getenv("SPRINGLAB_RENDER_PNG_DIR"); dir && *dir && !name.empty())
      CHECK_FALSE(render::writePng(std::string(dir) + "/measure_" + name + ".png", w, h, rgba));
    return im;
  }
  // drags the ruler's or protractor's handle at `from` to the world point `to` (a planar view)
  void drag(const glm::vec3& from, const glm::vec3& to) {
    const glm::dvec2 a = d.mouse().project(from), b = d.mouse().project(to);
    d.mouse().press(app::MouseControl::Button::Left, false, false, a.x, a.y, time += 1.0, false);
    d.mouse().move(b.x, b.y);
    d.mouse().release(b.x, b.y);
  }
  // the first fixed body (moving = false) or the first moving one
  glm::vec3 body(bool moving) {
    const sim::System& sys = d.session().built();
    Eigen::VectorXd x;
    sys.positions(d.session().state(), x);
    int i = 0;
    while (i + 1 < sys.bodies() && sys.bodyMoves(i) != moving) ++i;
    return glm::vec3(float(x[3 * i]), float(x[3 * i + 1]), float(x[3 * i + 2]));
  }
  double time = 0.0;
};

int luma(const Image& im, int x, int y) {
  const unsigned char* p = &im.rgb[3 * (static_cast<size_t>(y) * im.w + x)];
  return (299 * p[0] + 587 * p[1] + 114 * p[2]) / 1000;
}

sim::Vec3 arrowVector(const render::Arrow& a) {
  return sim::Vec3(a.head[0] - a.tail[0], a.head[1] - a.tail[1], a.head[2] - a.tail[2]);
}

}  // namespace

TEST_CASE("forces: the traced mass's force arrows add up to its mass times its acceleration") {
  // seed002: 1 kg on a 20 N/m spring under gravity (the traced body is the bob)
  app::Session s;
  s.load("seed002_harmonic_oscillator");
  app::ViewBuilder views;
  views.forces = true;
  for (int k = 0; k < 300; ++k) REQUIRE(s.stepOnce());
  const render::SceneView& v = views.build(s, false);
  sim::Vec3 forces = sim::Vec3::Zero(), acceleration = sim::Vec3::Zero();
  int gravity = 0, springs = 0;
  for (const render::Arrow& a : v.arrows) {
    if (a.kind == render::ArrowKind::Acceleration) acceleration = arrowVector(a);
    if (render::isForce(a.kind)) forces += arrowVector(a);
    gravity += a.kind == render::ArrowKind::Gravity;
    springs += a.kind == render::ArrowKind::Spring;
  }
  CHECK(gravity == 1);
  CHECK(springs == 1);
  REQUIRE(acceleration.norm() > 0.0);
  // in N and m/s^2: the lane's own last move against the law at the state shown (rk4 at dt 1 ms
  // agrees to ~dt)
  const app::Measurements::TracedForces traced = s.measurements().tracedForces(0);
  REQUIRE(traced.scale > 0.0);
  const double mass = s.built().editFacts(s.state(), {s.measurements().tracedBody()}).mass;
  const sim::Vec3 ma = mass * acceleration / s.measurements().arrowScales().acceleration;
  CHECK((forces / traced.scale - ma).norm() <= 2e-3 * ma.norm());
  // the weight is about kWeightOfScene of the scene's size, on a 1-2-5 scale
  const double weight = mass * kG * traced.scale / s.built().scales().length;
  CHECK(weight > app::Measurements::kWeightOfScene / 2.5);
  CHECK(weight < app::Measurements::kWeightOfScene * 2.5);
  views.forces = false;  // not drawn: not evaluated
  for (const render::Arrow& a : views.build(s, false).arrows) CHECK_FALSE(render::isForce(a.kind));
}

TEST_CASE("record: --forces draws gravity down from the bob and the rod's longer pull up") {
  const fs::path dir = recordtest::freshDir("record_forces");
  const fs::path scene = dir / "bottom.json";
  std::ofstream(scene) << kBottom;
  auto record = [&](const std::string& out, bool forces) {
    std::vector<std::string> args{"record", scene.string(), "--seconds", "0.02",
                                  "--size", "960x540",      "--out",     (dir / out).string()};
    if (forces) args.push_back("--forces");
    const RunResult r = springlab(args);
    CAPTURE(r.err);
    REQUIRE(r.status == 0);
    return loadPng(dir / out);
  };
  const Image plain = record("plain.png", false), with = record("forces.png", true);
  REQUIRE(plain.rgb.size() == with.rgb.size());
  // the pixels the arrows changed, left of the key (the top right): violet (gravity) and blue
  // (the rod); both start at the bob, so the violet's top row is the bob's
  int violet = 0, blue = 0, violetLow = 0, bobRow = with.h, blueHigh = 1 << 30;
  for (int y = 0; y < with.h; ++y)
    for (int x = 0; x < with.w * 2 / 3; ++x) {
      const size_t i = 3 * (static_cast<size_t>(y) * with.w + x);
      const int r = with.rgb[i], g = with.rgb[i + 1], b = with.rgb[i + 2];
      const int diff = std::abs(r - plain.rgb[i]) + std::abs(g - plain.rgb[i + 1]) +
                       std::abs(b - plain.rgb[i + 2]);
      if (diff < 90) continue;
      if (b > 200 && r > g + 40 && r < b)
        ++violet, violetLow = std::max(violetLow, y), bobRow = std::min(bobRow, y);
      if (b > 200 && g > r + 50) ++blue, blueHigh = std::min(blueHigh, y);
    }
  CAPTURE(violet);
  CAPTURE(blue);
  REQUIRE(violet > 20);
  REQUIRE(blue > 20);
  // gravity ends below the bob; the rod's pull (16.06 N against 9.81 N) ends further above it
  // than gravity's ends below
  const int down = violetLow - bobRow, up = bobRow - blueHigh;
  CAPTURE(down);
  CAPTURE(up);
  CHECK(down > 10);
  CHECK(static_cast<double>(up) / down == doctest::Approx((kG + 6.25) / kG).epsilon(0.2));
}

TEST_CASE("app: the protractor reads 45 and 90 degrees between rays dragged to known points") {
  app::FrameDriver d;
  d.session().load("pendulum_small_angle");
  d.camera().planar = true;
  d.camera().frame(glm::vec3(-2.0f, -3.0f, 0.0f), glm::vec3(2.0f, 1.0f, 0.0f));
  d.mouse().setViewport(400, 880, 720);
  d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::Protractor, true});
  const auto& p = d.mouse().protractor();
  REQUIRE(p.shown);
  CHECK(app::MouseControl::angleBetween(p.vertex, p.a, p.b) ==
        doctest::Approx(app::MouseControl::kProtractorFirstDeg).epsilon(1e-5));
  double time = 0.0;
  auto drag = [&](const glm::vec3& from, double x, double y) {
    const glm::dvec2 a = d.mouse().project(from);
    const glm::dvec2 b = d.mouse().project(glm::vec3(float(x), float(y), 0.0f));
    d.mouse().press(app::MouseControl::Button::Left, false, false, a.x + 2, a.y, time += 1.0,
                    false);
    d.mouse().move(b.x + 2, b.y);
    d.mouse().release(b.x + 2, b.y);
  };
  drag(p.vertex, 0.0, -1.0);
  drag(p.a, 1.5, -1.0);
  drag(p.b, 1.0, 0.0);
  const double metrePx =
      glm::length(d.mouse().project(glm::vec3(1, 0, 0)) - d.mouse().project(glm::vec3(0, 0, 0)));
  CHECK(d.protractorView().degrees == doctest::Approx(45.0).epsilon(2.0 / metrePx));
  drag(p.b, 0.0, 1.0);
  CHECK(d.protractorView().degrees == doctest::Approx(90.0).epsilon(2.0 / metrePx));
  // the rays' ends on screen where they were dragged (the 2 px nudge kept)
  const glm::dvec2 up = d.mouse().project(glm::vec3(0.0f, 1.0f, 0.0f));
  CHECK(d.protractorView().bx == doctest::Approx(up.x + 2).epsilon(1e-3));
  CHECK(d.session().built().bodies() == 1);  // the drags moved no body
  // exact on known geometry, whatever the plane: 3-4-5 and 180 degrees
  CHECK(app::MouseControl::angleBetween({0, 0, 0}, {4, 0, 0}, {4, 3, 0}) ==
        doctest::Approx(std::atan2(3.0, 4.0) * 180.0 / M_PI).epsilon(1e-6));
  CHECK(app::MouseControl::angleBetween({1, 1, 1}, {2, 1, 1}, {0, 1, 1}) == 180.0);
}

TEST_CASE(
    "app: rest-length marks: from a fixed end they end where the bob would rest unstretched") {
  app::FrameDriver d;
  d.session().load("seed002_harmonic_oscillator");  // a fixed point, one spring, one bob
  const sim::MassSpringModel& m = *d.session().built().massSpring();
  REQUIRE(m.springs() == 1);
  d.camera().planar = true;
  d.camera().frame(glm::vec3(-2.0f, -3.0f, 0.0f), glm::vec3(2.0f, 1.0f, 0.0f));
  d.mouse().setViewport(0, 1280, 720);
  const render::SceneView& view = d.views().build(d.session(), false);
  const std::vector<ui::RestMark> marks = d.restMarks(view);
  REQUIRE(marks.size() == 1);
  const int fixedEnd = m.fixed(m.spring_a[0]) ? m.spring_a[0] : m.spring_b[0];
  const sim::Vec3 anchor = d.session().state().x.segment<3>(3 * fixedEnd);
  const glm::dvec2 a = d.mouse().project(glm::vec3(anchor.x(), anchor.y(), anchor.z()));
  CHECK(marks[0].x0 == doctest::Approx(a.x).epsilon(1e-4));
  CHECK(marks[0].y0 == doctest::Approx(a.y).epsilon(1e-4));
  const double metrePx =
      glm::length(d.mouse().project(glm::vec3(1, 0, 0)) - d.mouse().project(glm::vec3(0, 0, 0)));
  CHECK(std::hypot(marks[0].x1 - marks[0].x0, marks[0].y1 - marks[0].y0) ==
        doctest::Approx(m.rest_length[0] * metrePx).epsilon(1e-3));
}

TEST_CASE(
    "app: the ruler's reading leaves the bob it ends on in view, and the protractor and rest marks "
    "show") {
  OverlayRig r("seed002_elastic_pendulum");
  const Image plain = r.frame("plain");
  // a short level ruler ending on the bob: its reading is longer than the ruler
  const glm::vec3 bob = r.body(true), left = bob - glm::vec3(0.6f, 0.0f, 0.0f);
  r.d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::Ruler, true});
  r.drag(r.d.mouse().ruler().a, left);
  r.drag(r.d.mouse().ruler().b, bob);
  const Image ruler = r.frame("ruler");
  // the bob's disc below the line and inside the ring: as it was without the ruler (the reading's
  // dark band would darken it)
  const glm::dvec2 c = r.d.mouse().project(bob);
  const float radius = r.d.bodyRadiusPx(r.d.views().build(r.d.session(), false), bob, bob) - 6.0f;
  REQUIRE(radius > 12.0f);
  int looked = 0, darkened = 0;
  for (int y = int(c.y) + 4; y < int(c.y + radius) - 1; ++y)
    for (int x = int(c.x - radius); x <= int(c.x + radius); ++x) {
      const double rr = std::hypot(x - c.x, y - c.y);
      if (rr < 10.0 || rr > radius - 2.0) continue;  // the ruler's ring, the disc's rim
      ++looked;
      darkened += luma(ruler, x, y) < luma(plain, x, y) - 40;
    }
  CHECK(looked > 20);
  CHECK(darkened == 0);
  // the protractor's vertex on the pivot, its rays along the spring and the vertical: cyan lines
  r.d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::Ruler, false});
  r.d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::Protractor, true});
  const glm::vec3 pivot = r.body(false);
  r.drag(r.d.mouse().protractor().vertex, pivot);
  r.drag(r.d.mouse().protractor().a, pivot + glm::vec3(0.0f, -4.0f, 0.0f));
  r.drag(r.d.mouse().protractor().b, bob);
  const Image angle = r.frame("protractor");
  int cyan = 0;
  for (size_t i = 0; i + 2 < angle.rgb.size(); i += 3)
    cyan += angle.rgb[i + 2] > 200 && angle.rgb[i + 1] > 180 && angle.rgb[i] < 160;
  CHECK(cyan > 100);
  const glm::vec3 ray = bob - pivot;
  CHECK(r.d.protractorView().degrees ==
        doctest::Approx(std::atan2(std::abs(ray.x), -ray.y) * 180.0 / M_PI).epsilon(0.02));
  // the mass falls and swings: its spring stretches past the white mark of its rest length
  r.d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::Protractor, false});
  r.d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::RestLengths, true});
  r.d.session().setPaused(false);
  for (int k = 0; k < 30; ++k) r.frame("");
  const Image marks = r.frame("rest_lengths");
  r.d.applyCommand(ui::SetDisplayFlag{ui::DisplayFlag::RestLengths, false});
  r.d.session().setPaused(true);
  const Image none = r.frame("");
  int white = 0;  // bright pixels the marks added
  for (size_t i = 0; i + 2 < marks.rgb.size(); i += 3)
    white += marks.rgb[i] > 200 && marks.rgb[i + 1] > 200 && marks.rgb[i + 2] > 200 &&
             none.rgb[i] + none.rgb[i + 1] + none.rgb[i + 2] < 3 * 150;
  CHECK(white > 10);
}

TEST_CASE("phase plot: a frame that took long breaks the line the plot draws instead of a chord") {
  app::Session s;
  s.load("pendulum_small_angle");
  for (int k = 0; k < 400; ++k) {  // frames of 16 steps
    REQUIRE(s.stepOnce());
    if (k % 16 == 0) s.sample();
  }
  const std::size_t before = [&] {
    ui::PanelModel pm;
    s.fillPanel(pm);
    return pm.plots.phase_q.size();
  }();
  for (int k = 0; k < 700; ++k) REQUIRE(s.stepOnce());  // a hitch: 700 steps in one frame
  for (int k = 0; k < 400; ++k) {
    REQUIRE(s.stepOnce());
    if (k % 16 == 0) s.sample();
  }
  ui::PanelModel pm;
  s.fillPanel(pm);
  REQUIRE(pm.plots.phase_t.size() == pm.plots.phase_q.size());
  const std::vector<ui::PhaseRun> runs =
      ui::phaseRuns(pm.plots.phase_t, pm.plots.phase_q, pm.plots.phase_v);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].first == 0);
  CHECK(runs[0].last == before - 1);
  CHECK(runs[1].first == before);
  CHECK(runs[1].last == pm.plots.phase_q.size() - 1);
  // the chord it no longer draws: far longer than any step of the line it draws
  auto step = [&](std::size_t i) {
    return std::hypot(pm.plots.phase_q[i] - pm.plots.phase_q[i - 1],
                      pm.plots.phase_v[i] - pm.plots.phase_v[i - 1]);
  };
  float longest = 0.0f;
  for (const ui::PhaseRun& r : runs)
    for (std::size_t i = r.first + 1; i <= r.last; ++i) longest = std::max(longest, step(i));
  CHECK(step(before) > 3.0f * longest);
}

#endif  // SPRINGLAB_VIEWER
