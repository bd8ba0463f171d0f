// The view builder's pictures of a Session: a pendulum's pivot, bobs and rods, the grab's line,
// trails, the strain legend against the renderer's colour map, the first window's scene, wind
// streaks and the traced body's arrows (docs/exploring.md#arrows).
#include <doctest/doctest.h>

#ifdef SPRINGLAB_VIEWER

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/session.hpp"
#include "app/traced_motion.hpp"
#include "app/view_builder.hpp"
#include "app/viewer.hpp"
#include "app/wind_streaks.hpp"
#include "app_helpers.hpp"
#include "render/renderer.hpp"
#include "util.hpp"

using apptest::controlOf;
namespace {

ui::SessionCommand wind(double x, double y, double z) {
  return ui::SetVectorParameter{int(sim::Parameter::Wind), {x, y, z}};
}

// One rod of L = 2 m, its bob at the bottom moving at omega = 1.5 rad/s: v = omega L across,
// a = omega² L = 4.5 m/s² up (toward the pivot), gravity's pull along the rod cancelled by it.
constexpr double kArrowL = 2.0, kArrowOmega = 1.5;
const char* kBottomOfSwing = R"({"gravity": [0, -9.81, 0], "integrator": "rk4", "dt": 0.0001,
  "duration": 1, "system": {"type": "pendulum", "lengths": [2], "masses": [1], "angles": [0],
  "angular_velocities": [1.5]}})";

sim::Vec3 arrowVector(const render::Arrow& a, double scale) {
  return sim::Vec3(a.head[0] - a.tail[0], a.head[1] - a.tail[1], a.head[2] - a.tail[2]) / scale;
}
}  // namespace

TEST_CASE("app: a grab's view holds the line from the cursor's target to the grabbed body") {
  app::Session s;
  s.load("pendulum_small_angle");
  app::ViewBuilder views;
  CHECK(views.build(s, false).grab_line.empty());
  s.setGrab(0, sim::Vec3(1.0, 0.5, 0.0));
  const render::SceneView& v = views.build(s, false);
  REQUIRE(v.grab_line.size() == 6u);
  CHECK(v.grab_line[0] == 1.0f);
  CHECK(v.grab_line[1] == 0.5f);
  CHECK(v.grab_line[2] == 0.0f);
  const int p = app::ViewBuilder::pointOfBody(s, 0);  // the bob, after the pivot
  for (int c = 0; c < 3; ++c) CHECK(v.grab_line[3 + c] == v.positions[3 * p + c]);
  s.setGrab(-1, sim::Vec3::Zero());
  CHECK(views.build(s, false).grab_line.empty());
}

TEST_CASE("app: the view of a pendulum has the pivot, the bobs and rigid rods") {
  app::Session s;
  s.load("seed004_triple_pendulum");
  app::ViewBuilder vb;
  const auto& v = vb.build(s, true);
  REQUIRE(v.positions.size() == 3 * 4);
  CHECK((v.flags[0] & render::kPointFixed) != 0);
  CHECK(v.lines.size() == 6);
  for (auto f : v.line_flags) CHECK((f & render::kLineRigid) != 0);
  CHECK(v.planar);
  // bob 0 at pivot + 2 (sin pi/2, -cos pi/2) = (2, 0)
  CHECK(v.positions[3] == doctest::Approx(2.0));
  CHECK(v.positions[4] == doctest::Approx(0.0).epsilon(1e-6));
  // the heaviest bob is the largest
  CHECK(v.radii[1] > v.radii[3]);
}

TEST_CASE("app: the panel's strain legend uses the renderer's colour map") {
  for (double x : {-2.0, -1.0, -0.6, -0.25, -0.01, 0.0, 0.01, 0.3, 0.75, 1.0, 3.0}) {
    CAPTURE(x);
    const auto u = ui::strainColour(x);
    const glm::vec3 r = render::strainColor(static_cast<float>(0.05 * x), 0.05f);
    CHECK(u.r == doctest::Approx(r.r).epsilon(1e-5));
    CHECK(u.g == doctest::Approx(r.g).epsilon(1e-5));
    CHECK(u.b == doctest::Approx(r.b).epsilon(1e-5));
  }
}

TEST_CASE("app: trails follow the chosen bodies, oldest sample first") {
  app::Session s;
  s.load("seed004_double_pendulum");
  app::ViewBuilder vb;
  vb.build(s, true);
  CHECK(vb.trailBodies() == std::vector<int>{1});  // default: the last bob
  vb.toggleTrail(0);
  for (int f = 0; f < 5; ++f) {
    for (int i = 0; i < 10; ++i) REQUIRE(s.stepOnce());
    vb.build(s, true);
  }
  const auto& v = vb.build(s, false);
  REQUIRE(v.trail_lengths.size() == 2);
  CHECK(v.trail_lengths[0] == 6);  // 6 samples of bob 1
  CHECK(v.trail_lengths[1] == 5);  // 5 of bob 0 (added one frame later)
  // the newest sample of bob 0's trail is bob 0's current position (point 1)
  const size_t last = 3 * (6 + 5 - 1);
  for (int c = 0; c < 3; ++c) CHECK(v.trails[last + c] == v.positions[3 + c]);
  vb.toggleTrail(0);
  CHECK(vb.trailBodies() == std::vector<int>{1});
}

TEST_CASE("app: the first window opens on a scene that moves in 3-D") {
  app::Session s;
  s.load(app::ViewerOptions{}.scene);
  app::ViewBuilder views;
  CHECK_FALSE(views.build(s, false).planar);
  const Eigen::VectorXd x0 = s.state().x;
  for (int i = 0; i < 400; ++i) REQUIRE(s.stepOnce());  // 0.1 s
  double moved = 0.0;
  for (Eigen::Index i = 1; i < x0.size(); i += 3) moved = std::max(moved, x0[i] - s.state().x[i]);
  CHECK(moved > 0.01);  // m: it sags out of its initial plane
}

TEST_CASE("app: wind streaks lie along the wind, move with it, fade in and out, stay in the box") {
  app::StreakBox box;
  for (int k = 0; k < 3; ++k) box.lo[k] = -1.0, box.hi[k] = 1.0 + k;
  const double wind[3] = {3.0, 0.0, 4.0}, calm[3] = {0.0, 0.0, 0.0};
  std::vector<float> now, later;
  app::windStreaks(box, calm, 1.0, now);
  CHECK(now.empty());
  const double diagonal = std::sqrt(4.0 + 9.0 + 16.0), speed = 5.0;
  const double length = std::min(speed * app::kStreakSeconds, app::kStreakMaxOfBox * diagonal);
  const double t = 0.37, later_t = t + 0.01;
  app::windStreaks(box, wind, t, now);
  app::windStreaks(box, wind, later_t, later);
  REQUIRE(now.size() == 8u * app::kWindStreaks);
  REQUIRE(later.size() == now.size());
  int moved = 0;
  for (int i = 0; i < app::kWindStreaks; ++i) {
    const float* tail = &now[8 * i];
    const float* head = tail + 4;
    const float* head2 = &later[8 * i + 4];
    CAPTURE(i);
    CHECK(tail[3] == 0.0f);
    // alpha sin(pi s) at the fraction s of the way across: never above kStreakAlpha
    CHECK(head[3] >= 0.0f);
    CHECK(head[3] <= app::kStreakAlpha);
    for (int k = 0; k < 3; ++k)
      CHECK(head[k] - tail[k] == doctest::Approx(wind[k] / speed * length).epsilon(1e-5));
    // the head's place along the wind, from the box's centre: within half the diagonal
    double along = 0.0;
    for (int k = 0; k < 3; ++k)
      along += (head[k] - 0.5 * (box.lo[k] + box.hi[k])) * wind[k] / speed;
    CHECK(std::abs(along) <= 0.5 * diagonal + 1e-5);
    // 0.01 s later the air moved 0.05 m along the wind (unless the streak started again)
    const double dx = head2[0] - head[0], dz = head2[2] - head[2];
    if (std::abs(dx - 0.03) < 1e-5 && std::abs(dz - 0.04) < 1e-5) ++moved;
  }
  // a streak restarts once per diagonal / speed = 1.08 s: in 0.01 s, about 1 in 108 of them
  CHECK(moved >= app::kWindStreaks - 3);
  app::windStreaks(box, wind, NAN, now);
  CHECK(now.empty());
}

TEST_CASE("app: the panel's wind reaches the system, and the view draws it where the drag acts") {
  app::Session s;
  s.load("cloth_in_wind");
  CHECK(s.built().massSpring()->wind == sim::Vec3(3, 0, 3));
  std::string msg;
  REQUIRE(s.apply(wind(-5.0, 0.0, 1.0), &msg));
  CHECK(s.built().massSpring()->wind == sim::Vec3(-5, 0, 1));
  CHECK(s.currentDef().parameters.vector(sim::Parameter::Wind) ==
        sim::Vec3(-5, 0, 1));  // the lab's jobs see it
  ui::PanelModel pm;
  s.fillPanel(pm);
  REQUIRE(controlOf(pm, sim::Parameter::Wind));
  CHECK(controlOf(pm, sim::Parameter::Wind)->vec[0] == -5.0);
  CHECK(controlOf(pm, sim::Parameter::Wind)->vec[2] == 1.0);
  app::ViewBuilder vb;
  const render::SceneView& v = vb.build(s, false);
  REQUIRE(v.wind_streaks.size() == 8u * app::kWindStreaks);
  // streaks along the new wind
  const float* e = v.wind_streaks.data();
  const float dx = e[4] - e[0], dz = e[6] - e[2];
  CHECK(e[5] - e[1] == doctest::Approx(0.0f).epsilon(1e-6));
  CHECK(dx / dz == doctest::Approx(-5.0f).epsilon(1e-4));
  CHECK_FALSE(s.apply(wind(NAN, 0.0, 1.0), &msg));
  CHECK(msg == "wind: not a finite vector");
  // no drag, no wind felt: nothing drawn
  REQUIRE(s.apply(ui::SetParameter{int(sim::Parameter::Drag), 0.0}, &msg));
  CHECK(vb.build(s, false).wind_streaks.empty());
  // a pendulum has no wind
  s.load("seed004_fig5a");
  CHECK_FALSE(s.apply(wind(1.0, 0.0, 1.0), &msg));
  CHECK(msg == "wind: not modelled for pendulums");
}

TEST_CASE("app: arrow scales are 1, 2 or 5 times a power of ten, from the scene's size") {
  CHECK(app::nice125(0.0123) == doctest::Approx(0.01));
  CHECK(app::nice125(0.016) == doctest::Approx(0.02));
  CHECK(app::nice125(0.04) == doctest::Approx(0.05));
  CHECK(app::nice125(8.0) == doctest::Approx(10.0));
  // L = 2 m: tau = sqrt(2 / 9.81) = 0.4515 s; 0.2258 -> 0.2 m per m/s, 0.1019 -> 0.1 m per m/s²
  const app::ArrowScales s = app::arrowScalesFor(2.0);
  CHECK(s.velocity == doctest::Approx(0.2));
  CHECK(s.acceleration == doctest::Approx(0.1));
  CHECK(app::arrowScalesFor(0.0).velocity == app::ArrowScales{}.velocity);  // a fallback, no NaN
}

TEST_CASE("app: a bob at the bottom of its swing: velocity across, acceleration up omega^2 L") {
  const auto path = testutil::writeFile("arrows_bottom.json", kBottomOfSwing);
  app::Session s;
  s.load(path.string());
  REQUIRE(s.measurements().tracedBody() == 0);
  const app::ArrowScales scales = s.measurements().arrowScales();
  app::ViewBuilder views;
  {  // before any step: the velocity only; the acceleration is the lane's own move
    const render::SceneView& v = views.build(s, false);
    REQUIRE(v.arrows.size() == 1u);
    CHECK(v.arrows[0].kind == render::ArrowKind::Velocity);
    const int p = app::ViewBuilder::pointOfBody(s, 0);
    for (int c = 0; c < 3; ++c) CHECK(v.arrows[0].tail[c] == v.positions[3 * p + c]);
    const sim::Vec3 vel = arrowVector(v.arrows[0], scales.velocity);
    CHECK(vel.x() == doctest::Approx(kArrowOmega * kArrowL).epsilon(1e-5));
    CHECK(std::abs(vel.y()) < 1e-5);
  }
  REQUIRE(s.stepOnce());
  CHECK(views.build(s, false).arrows.size() == 1u);  // one velocity recorded: no difference yet
  REQUIRE(s.stepOnce());
  const render::SceneView& v = views.build(s, false);
  REQUIRE(v.arrows.size() == 2u);
  CHECK(v.arrows[1].kind == render::ArrowKind::Acceleration);
  const sim::Vec3 acc = arrowVector(v.arrows[1], scales.acceleration);
  // over the step from 1 to 2 dt: the bob 1.5 omega dt from the bottom, so a_x ~ -(g + omega² L)
  // times that = -3e-3 m/s²
  CHECK(acc.y() == doctest::Approx(kArrowOmega * kArrowOmega * kArrowL).epsilon(1e-4));
  CHECK(std::abs(acc.x()) < 1e-2);
  // a Reset starts the lane's track afresh: no acceleration until it has moved twice again
  std::string why;
  REQUIRE(s.apply(ui::Reset{}, &why));
  CHECK(views.build(s, false).arrows.size() == 1u);
}

TEST_CASE("app: every lane has the traced body's arrows, each of its own motion") {
  const auto path = testutil::writeFile("arrows_lanes.json", kBottomOfSwing);
  app::Session s;
  s.load(path.string());
  std::string why;
  REQUIRE(s.apply(ui::AddLane{"euler", 0.01}, &why));
  for (int i = 0; i < 200; ++i) REQUIRE(s.stepOnce());
  app::ViewBuilder primary, ghost;
  ghost.lane = 1;
  const render::SceneView& a = primary.build(s, false);
  const render::SceneView& b = ghost.build(s, false);
  REQUIRE(a.arrows.size() == 2u);
  REQUIRE(b.arrows.size() == 2u);
  // each from its own lane's bob, at its own lane's velocity (euler at dt 0.01 is elsewhere)
  const int p = app::ViewBuilder::pointOfBody(s, 0);
  for (int lane = 0; lane < 2; ++lane) {
    const render::SceneView& v = lane == 0 ? a : b;
    for (int c = 0; c < 3; ++c) CHECK(v.arrows[0].tail[c] == v.positions[3 * p + c]);
    const sim::Vec3 own = app::bodyVelocity(s.lane(lane).system(), s.lane(lane).state(), 0);
    CHECK((arrowVector(v.arrows[0], s.measurements().arrowScales().velocity) - own).norm() < 1e-5);
  }
  CHECK(a.arrows[0].tail[0] != b.arrows[0].tail[0]);
  // each lane's acceleration points up, at the pivot (the rod's pull dominates at 0.02 s)
  CHECK(arrowVector(b.arrows[1], 1.0).y() > 0.0);
}

#endif  // SPRINGLAB_VIEWER
