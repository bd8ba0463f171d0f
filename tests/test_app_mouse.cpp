// The mouse in the scene viewport: orbit, pan and zoom toward the cursor, presses the panel wants,
// the orbit centre, Ctrl+drag grabs, paused drags that place a body at rest; and the framing that
// keeps the motion in the viewport right of the panel.
#include <doctest/doctest.h>

#ifdef SPRINGLAB_VIEWER

#include <cmath>
#include <numbers>
#include <string>

#include "app/framing.hpp"
#include "app/mouse.hpp"
#include "app/session.hpp"
#include "app/view_builder.hpp"

namespace {
// A session, its view and a framed camera, as the window has them (1280 x 720, the scene's
// viewport right of a 400 px panel).
struct MouseRig {
  app::Session session;
  app::ViewBuilder views;
  render::Camera camera;
  app::MouseControl mouse{camera, session, views};
  explicit MouseRig(const char* scene) {
    session.load(scene);
    const auto& v = views.build(session, false);
    camera.planar = v.planar;
    const app::Box box = app::boxOf(v.positions);
    camera.frame(box.lo, box.hi);
    mouse.setViewport(400, 880, 720);
  }
  glm::dvec2 pixelOfBody(int body) {
    const auto& v = views.build(session, false);
    const int p = app::ViewBuilder::pointOfBody(session, body);
    return mouse.project(
        glm::vec3(v.positions[3 * p], v.positions[3 * p + 1], v.positions[3 * p + 2]));
  }
};
using B = app::MouseControl::Button;

// true when every body of the view projects inside the scene viewport
bool allInView(const app::MouseControl& mouse, const render::SceneView& v, int x0, int w, int h) {
  for (size_t i = 0; i + 2 < v.positions.size(); i += 3) {
    const glm::dvec2 p =
        mouse.project(glm::vec3(v.positions[i], v.positions[i + 1], v.positions[i + 2]));
    if (p.x < x0 || p.x > x0 + w || p.y < 0 || p.y > h) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("app: left-drag orbits a 3-D scene, right-drag and Shift+left-drag pan") {
  MouseRig r("cloth_32_horizontal");
  REQUIRE_FALSE(r.camera.planar);
  const float yaw0 = r.camera.yaw;
  const glm::vec3 target0 = r.camera.target;
  r.mouse.press(B::Left, false, false, 800, 360, 0.0, false);
  r.mouse.move(900, 360);
  r.mouse.release(900, 360);
  CHECK(r.camera.yaw == doctest::Approx(yaw0 - 100 * app::MouseControl::kOrbitPerPixel));
  CHECK(r.camera.target == target0);  // orbiting keeps the centre
  for (bool right : {true, false}) {
    const glm::vec3 t0 = r.camera.target;
    r.mouse.press(right ? B::Right : B::Left, false, !right, 800, 360, 10.0, false);
    r.mouse.move(850, 400);
    r.mouse.release(850, 400);
    CHECK(glm::length(r.camera.target - t0) > 1e-3f);
  }
}

TEST_CASE("app: in a 2-D scene left-drag pans, and the wheel zooms toward the cursor") {
  MouseRig r("seed004_double_pendulum");
  REQUIRE(r.camera.planar);
  const glm::vec3 t0 = r.camera.target;
  r.mouse.press(B::Left, false, false, 700, 300, 0.0, false);
  r.mouse.move(760, 300);
  r.mouse.release(760, 300);
  CHECK(r.camera.target.x < t0.x);  // dragging right moves the scene right: the centre goes left
  // zoom: the world point under the cursor stays under it
  r.mouse.move(1000, 200);
  const glm::vec3 under = r.mouse.cursorOnPlane(1000, 200, r.camera.target);
  const float d0 = r.camera.distance;
  r.mouse.scroll(2.0, false);
  CHECK(r.camera.distance < d0);
  const glm::dvec2 px = r.mouse.project(under);
  CHECK(px.x == doctest::Approx(1000).epsilon(0.002));
  CHECK(px.y == doctest::Approx(200).epsilon(0.002));
}

TEST_CASE("app: presses the panel wants move nothing") {
  MouseRig r("cloth_32_horizontal");
  const render::Camera before = r.camera;
  r.mouse.press(B::Left, false, false, 100, 100, 0.0, true);
  r.mouse.move(300, 200);
  r.mouse.release(300, 200);
  r.mouse.scroll(3.0, true);
  CHECK(r.camera.yaw == before.yaw);
  CHECK(r.camera.distance == before.distance);
  CHECK(r.camera.target == before.target);
}

TEST_CASE("app: a double-click sets the orbit centre on the body under the cursor") {
  MouseRig r("seed004_double_pendulum");
  const glm::dvec2 p = r.pixelOfBody(1);
  r.mouse.press(B::Left, false, false, p.x, p.y, 5.0, false);
  r.mouse.release(p.x, p.y);
  r.mouse.press(B::Left, false, false, p.x, p.y, 5.2, false);
  r.mouse.release(p.x, p.y);
  // bob 1 at pivot + 2 (sin pi/2, -cos pi/2) + (sin pi/6, -cos pi/6)
  CHECK(r.camera.target.x == doctest::Approx(2.5).epsilon(1e-5));
  CHECK(r.camera.target.y == doctest::Approx(-std::cos(M_PI / 6)).epsilon(1e-5));
}

TEST_CASE(
    "app: Ctrl+left-drag grabs the nearest particle or bob and pulls it, and release lets go") {
  for (const char* scene : {"seed003_table1_case1", "seed004_double_pendulum"}) {
    CAPTURE(scene);
    MouseRig r(scene);
    const int body = 1;  // the spring pendulum's bob; the double pendulum's outer bob
    const glm::dvec2 p = r.pixelOfBody(body);
    r.mouse.press(B::Left, true, false, p.x + 5, p.y - 5, 0.0, false);
    REQUIRE(r.session.grabbed() == body);
    const double before = r.session.built().kind() == sim::SystemKind::Pendulum
                              ? r.session.built().pendulum()->grab_target.x()
                              : r.session.built().massSpring()->grab_target.x();
    r.mouse.move(p.x + 105, p.y - 5);  // drag right: the spring's target moves right
    const double after = r.session.built().kind() == sim::SystemKind::Pendulum
                             ? r.session.built().pendulum()->grab_target.x()
                             : r.session.built().massSpring()->grab_target.x();
    CHECK(after > before);
    r.mouse.release(p.x + 105, p.y - 5);
    CHECK(r.session.grabbed() == -1);
    // far from every body: no grab, and no orbit either
    const float yaw = r.camera.yaw;
    r.mouse.press(B::Left, true, false, 410, 5, 1.0, false);
    CHECK(r.session.grabbed() == -1);
    r.mouse.move(500, 50);
    CHECK(r.camera.yaw == yaw);
    r.mouse.release(500, 50);
  }
}

TEST_CASE(
    "app: paused, a drag on a bob places it at rest: the new initial state, Reset returns "
    "to it") {
  MouseRig r("pendulum_small_angle");  // one 1 m rod from the origin
  r.session.setPaused(true);
  const glm::dvec2 bob = r.pixelOfBody(0);
  // the point at 30 degrees on the rod's circle, and on its line twice as far: the same angle
  const double deg30 = std::numbers::pi / 6;
  const glm::dvec2 at30 =
      r.mouse.project(glm::vec3(float(2 * std::sin(deg30)), float(-2 * std::cos(deg30)), 0.0f));
  r.mouse.press(B::Left, false, false, bob.x + 3, bob.y - 3, 0.0, false);
  r.mouse.move(at30.x, at30.y);
  r.mouse.release(at30.x, at30.y);
  const sim::State& start = r.session.built().state;
  CHECK(start.x[0] == doctest::Approx(deg30).epsilon(1e-5));
  CHECK(start.v[0] == 0.0);
  CHECK(start.t == 0.0);
  CHECK(r.session.time() == 0.0);
  CHECK(r.session.state().x == start.x);
  // it runs from there, and Reset comes back to it
  r.session.setPaused(false);
  for (int k = 0; k < 200; ++k) REQUIRE(r.session.stepOnce());
  CHECK(r.session.state().x[0] < start.x[0]);  // released, it swings down
  std::string msg;
  REQUIRE(r.session.apply(ui::Reset{}, &msg));
  CHECK(r.session.state().x == start.x);
  CHECK(r.session.state().v == start.v);
  // running, the same drag orbits (pans a planar view) and places nothing
  const glm::vec3 target = r.camera.target;
  const glm::dvec2 now = r.pixelOfBody(0);
  r.mouse.press(B::Left, false, false, now.x, now.y, 5.0, false);
  r.mouse.move(now.x + 80, now.y);
  r.mouse.release(now.x + 80, now.y);
  CHECK(r.camera.target != target);
  CHECK(r.session.built().state.x == start.x);
}

TEST_CASE(
    "app: paused, a drag on a particle moves it in its plane, and off the body the drag pans") {
  MouseRig r("seed002_harmonic_oscillator");  // planar: the fixture at (0, 10), the bob at (0, 3)
  r.session.setPaused(true);
  // 30 px off the bob: not on it, the view pans and the state stays
  const glm::dvec2 bob = r.pixelOfBody(1);
  const sim::State before = r.session.built().state;
  r.mouse.press(B::Left, false, false, bob.x + 30, bob.y, 0.0, false);
  r.mouse.move(bob.x + 60, bob.y);
  r.mouse.release(bob.x + 60, bob.y);
  CHECK(r.session.built().state.x == before.x);
  // on it: the bob goes to (1, 4), z stays exactly 0, at rest
  const glm::dvec2 p = r.pixelOfBody(1);
  const glm::dvec2 to = r.mouse.project(glm::vec3(1.0f, 4.0f, 0.0f));
  r.mouse.press(B::Left, false, false, p.x, p.y, 1.0, false);
  r.mouse.move(to.x, to.y);
  r.mouse.release(to.x, to.y);
  const sim::State& start = r.session.built().state;
  CHECK(start.x[3] == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(start.x[4] == doctest::Approx(4.0).epsilon(1e-4));
  CHECK(start.x[5] == 0.0);
  CHECK(start.x.head(3) == before.x.head(3));  // the fixture stays
  CHECK(start.v.isZero());
}

TEST_CASE("app: framing keeps the motion in the viewport right of the panel") {
  // a viewport narrower than high: the panel takes 400 of 1000 px
  constexpr int kX0 = 400, kW = 600, kH = 720;
  for (const char* scene : {"seed003_table4_wide_angle", "seed002_elastic_pendulum",
                            "seed004_fig6b", "seed000_closed_loop"}) {
    CAPTURE(scene);
    app::Session s;
    s.load(scene);
    app::ViewBuilder views;
    render::Camera camera;
    app::MouseControl mouse(camera, s, views);
    mouse.setViewport(kX0, kW, kH);
    app::SceneFraming framing;
    const scene::Built& b = s.built();
    framing.reset(app::reachBox(b.skeleton(b.state, false)));
    bool inView = true;
    const double end = std::min(15.0, s.def().duration);
    for (int f = 1; f <= 60 * end; ++f) {
      while (s.state().t + 0.5 * s.dt() <= f / 60.0) REQUIRE(s.stepOnce());
      const auto& v = views.build(s, false);
      camera.planar = v.planar;
      framing.update(camera, v.positions, float(kW) / kH, false);
      inView = inView && allInView(mouse, v, kX0, kW, kH);
    }
    CHECK(inView);
    if (b.kind() == sim::SystemKind::Pendulum) {  // the whole reach from the first frame on
      const app::Box reach = app::reachBox(b.skeleton(b.state, false));
      for (const glm::vec3& corner : {reach.lo, reach.hi}) {
        const glm::dvec2 p = mouse.project(corner);
        CHECK(p.x >= kX0);
        CHECK(p.x <= kX0 + kW);
      }
    }
  }
}

TEST_CASE("app: framing leaves a camera the user moved alone, and follow re-centres") {
  app::Session s;
  s.load("cloth_32_horizontal");
  app::ViewBuilder views;
  render::Camera camera;
  app::SceneFraming framing;
  framing.reset(app::Box{});
  const auto& v0 = views.build(s, false);
  framing.update(camera, v0.positions, 1.5f, false);
  const float d0 = camera.distance;
  camera.orbit(0.3f, 0.0f);  // the user orbits
  const render::Camera moved = camera;
  for (int i = 0; i < 4000; ++i) REQUIRE(s.stepOnce());  // 1 s: the cloth falls
  const auto& v1 = views.build(s, false);
  framing.update(camera, v1.positions, 1.5f, false);
  CHECK(camera.distance == moved.distance);
  CHECK(camera.target == moved.target);
  // follow: the target is the bodies' centre, the zoom stays
  framing.update(camera, v1.positions, 1.5f, true);
  CHECK(camera.target == app::boxOf(v1.positions).centre());
  CHECK(camera.distance == moved.distance);
  // a reset frames afresh
  framing.reset(app::Box{});
  framing.update(camera, v1.positions, 1.5f, false);
  CHECK(camera.distance != moved.distance);
  CHECK(d0 > 0.0f);
}

#endif  // SPRINGLAB_VIEWER
