// Colliders and wind (docs/integrators.md#colliders, sim/contacts.hpp): the push-out geometry,
// no tunnelling at any dt for every method, Coulomb friction on an incline against its closed
// form, the energy ledger's account of the contacts, the drag towards the wind's velocity, the
// scene keys' errors, and the built-in cloth_on_sphere kept outside its colliders.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "scene/build.hpp"
#include "scene/load.hpp"
#include "sim/contacts.hpp"
#include "sim/energy.hpp"
#include "sim/system.hpp"
#include "test_sim_helpers.hpp"

namespace {

using sim::Collider;
using sim::Method;
using sim::Vec3;

Collider sphere(const Vec3& centre, double radius, double friction = 0.0) {
  Collider c;
  c.shape = Collider::Shape::Sphere;
  c.point = centre, c.radius = radius, c.friction = friction;
  return c;
}

Collider plane(const Vec3& point, const Vec3& normal, double friction = 0.0) {
  Collider c;
  c.point = point, c.normal = normal.normalized(), c.friction = friction;
  return c;
}

// One free particle of 1 kg, no springs, with the given colliders.
simtest::System particle(const Vec3& x, const Vec3& v, const Vec3& gravity,
                         std::vector<Collider> colliders, double drag = 0.0) {
  simtest::Builder b;
  b.particle(x, v, 1.0);
  simtest::System s = b.build(gravity, drag);
  s.mass_spring.colliders = std::move(colliders);
  return s;
}

}  // namespace

TEST_CASE("contacts: push-out onto a plane, onto the sphere's entry side, radially from inside") {
  const Collider floor = plane(Vec3(0, 1, 0), Vec3(0, 2, 0));
  CHECK(!sim::pushOut(floor, Vec3(0, 2, 0), Vec3(3, 1, 0)));  // on the surface: outside
  const auto p = sim::pushOut(floor, Vec3(0, 2, 0), Vec3(3, 0.25, -1));
  REQUIRE(p);
  CHECK(p->to == Vec3(3, 1, -1));
  CHECK(p->normal == Vec3(0, 1, 0));

  const Collider ball = sphere(Vec3::Zero(), 1.0);
  // a path straight through the ball within one step: stopped where it entered, not thrown out
  // of the far side
  const auto through = sim::pushOut(ball, Vec3(-3, 0, 0), Vec3(3, 0, 0));
  REQUIRE(through);
  CHECK(through->to.isApprox(Vec3(-1, 0, 0), 1e-15));
  CHECK(through->normal.isApprox(Vec3(-1, 0, 0), 1e-15));
  // grazing in: onto the tangent plane at the entry point, the sliding kept, outside the ball
  const auto graze = sim::pushOut(ball, Vec3(-2, 0.8, 0), Vec3(0, 0.8, 0));
  REQUIRE(graze);
  CHECK(graze->to.norm() >= 1.0);
  CHECK(graze->to.x() > -0.6);  // it slid on past the entry point (x = -0.6)
  // a path that passes beside it, or stops short of it
  CHECK(!sim::pushOut(ball, Vec3(-3, 1.5, 0), Vec3(3, 1.5, 0)));
  CHECK(!sim::pushOut(ball, Vec3(-3, 0, 0), Vec3(-1.5, 0, 0)));
  // starting inside: out along the radius
  const auto inside = sim::pushOut(ball, Vec3(0, 0.5, 0), Vec3(0, 0.5, 0.5));
  REQUIRE(inside);
  CHECK(inside->to.isApprox(Vec3(0, 1, 1) / std::sqrt(2.0), 1e-15));
}

TEST_CASE("contacts: no method lets a fast particle through a sphere or a plane at a large dt") {
  for (const auto& info : simtest::massSpringIntegrators()) {
    CAPTURE(std::string(info.name));
    // 40 m/s at a ball of radius 0.1 m, dt = 0.05 s: 2 m a step, twenty diameters
    const auto s =
        particle(Vec3(-2.05, 0, 0), Vec3(40, 0, 0), Vec3::Zero(), {sphere(Vec3::Zero(), 0.1)});
    sim::Stepper st(s.mass_spring, s.state, info.method, 0.05);
    for (int k = 0; k < 20; ++k) {
      REQUIRE(!st.advance());
      const Vec3 x = st.state().x.head<3>();
      CHECK(x.norm() >= 0.1 * (1.0 - 1e-12));
      CHECK(x.x() < 0.0);  // never past the centre: stopped on the side it came from
    }
    CHECK(st.state().x.head<3>().isApprox(Vec3(-0.1, 0, 0), 1e-9));
    CHECK(st.state().v.head<3>().norm() < 1e-9);  // head-on, no bounce: at rest

    // 100 m/s down onto a floor, dt = 0.1 s
    const auto f = particle(Vec3(0, 1, 0), Vec3(0, -100, 0), Vec3(0, -9.81, 0),
                            {plane(Vec3::Zero(), Vec3(0, 1, 0))});
    sim::Stepper fs(f.mass_spring, f.state, info.method, 0.1);
    for (int k = 0; k < 20; ++k) {
      REQUIRE(!fs.advance());
      CHECK(fs.state().x[1] >= 0.0);
    }
  }
}

TEST_CASE(
    "contacts: Coulomb friction on an incline holds below tan(theta) = mu, slides at g "
    "(sin - mu cos) above") {
  constexpr double g = 9.81, mu = 0.5, T = 1.0;
  struct Case {
    Method method;
    double dt;
    int substeps;
  };
  for (const Case c : {Case{Method::SymplecticEuler, 1e-3, 1}, Case{Method::Xpbd, 1.0 / 60, 10},
                       Case{Method::Projective, 1.0 / 60, 10}}) {
    CAPTURE(std::string(sim::info(c.method).name));
    for (const double deg : {20.0, 40.0}) {
      CAPTURE(deg);
      const double th = deg * std::numbers::pi / 180.0;
      const Vec3 normal(-std::sin(th), std::cos(th), 0.0), down(std::cos(th), std::sin(th), 0.0);
      auto s =
          particle(Vec3::Zero(), Vec3::Zero(), Vec3(0, -g, 0), {plane(Vec3::Zero(), normal, mu)});
      s.mass_spring.substeps = c.substeps;
      const auto end = simtest::run(s.mass_spring, s.state, c.method, c.dt, std::lround(T / c.dt));
      const Vec3 x = end.x.head<3>();
      CHECK(std::abs(x.dot(normal)) < 1e-9);  // on the slope
      const double slid = -x.dot(down);       // down the slope is -down
      const double a = std::max(0.0, g * (std::sin(th) - mu * std::cos(th)));
      if (a == 0.0)
        CHECK(std::abs(slid) < 1e-12);
      else
        CHECK(slid == doctest::Approx(0.5 * a * T * T).epsilon(0.02));
    }
  }
}

TEST_CASE("contacts: the ledger counts the energy a landing takes out") {
  for (const Method method : {Method::SymplecticEuler, Method::Xpbd, Method::Projective}) {
    CAPTURE(std::string(sim::info(method).name));
    auto s = particle(Vec3(0, 1, 0), Vec3(0.5, 0, 0), Vec3(0, -9.81, 0),
                      {plane(Vec3::Zero(), Vec3(0, 1, 0), 0.4)});
    const double dt = method == Method::SymplecticEuler ? 1e-3 : 1.0 / 60;
    s.mass_spring.substeps = 10;
    sim::Stepper st(s.mass_spring, s.state, method, dt);
    const double E0 = sim::energy(s.mass_spring, s.state).total();
    REQUIRE(!st.advance(std::lround(2.0 / dt)));
    const double E = sim::energy(s.mass_spring, st.state()).total();
    CHECK(st.state().x[1] == doctest::Approx(0.0).epsilon(1e-9));
    CHECK(E < 0.01 * E0);  // landed and stopped sliding: (almost) all of it went
    CHECK(st.work().contacts == doctest::Approx(E0 - E).epsilon(0.02));
    CHECK(st.work().dissipated == 0.0);  // the contacts' term, not the drag's
  }
}

TEST_CASE("contacts: a particle dropped on the floor: the contacts' term is the (1/2) m v^2 lost") {
  // from 1 m, inelastic, no friction: it lands at v^2 = 2 g h and stops there; the floor took
  // (1/2) m v^2 = m g h = 9.81 J, and nothing after it (it rests). At rest xpbd's term (the
  // impulse over the mean velocity) stays exactly; the post-step methods' (the energy the
  // resolution changed) takes back the (1/2) m g^2 h^2 the step lost each step, 0.005 J a second
  // at h = 1e-4, and projective's contact force over its mean motion 0.05 J a second
  constexpr double kH = 1.0, kGravity = 9.81;
  for (const Method method : {Method::SymplecticEuler, Method::Rk4, Method::ImplicitEuler,
                              Method::Xpbd, Method::Projective}) {
    CAPTURE(std::string(sim::info(method).name));
    auto s = particle(Vec3(0, kH, 0), Vec3::Zero(), Vec3(0, -kGravity, 0),
                      {plane(Vec3::Zero(), Vec3(0, 1, 0))});
    s.mass_spring.substeps = 10;
    const double dt = method == Method::Xpbd || method == Method::Projective ? 1.0 / 60 : 1e-4;
    sim::Stepper st(s.mass_spring, s.state, method, dt);
    REQUIRE(!st.advance(std::lround(1.0 / dt)));  // lands at 0.45 s
    const double landed = st.work().contacts;
    CHECK(landed == doctest::Approx(kGravity * kH).epsilon(0.01));
    REQUIRE(!st.advance(std::lround(1.0 / dt)));
    const double at_rest = method == Method::Xpbd         ? 1e-12
                           : method == Method::Projective ? 1e-2
                                                          : 1e-3;
    CHECK(std::abs(st.work().contacts - landed) <= at_rest * landed);
  }
}

TEST_CASE("wind: the drag pulls a particle to the air's velocity, v = w (1 - exp(-c t / m))") {
  const Vec3 wind(3, -1, 0);  // in the x-y plane: the one-particle system is planar
  constexpr double c = 2.0, T = 1.0;
  const Vec3 expect = wind * (1.0 - std::exp(-c * T));
  for (const Method method :
       {Method::Rk4, Method::ImplicitEuler, Method::Xpbd, Method::Projective}) {
    CAPTURE(std::string(sim::info(method).name));
    auto s = particle(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), {}, c);
    s.mass_spring.wind = wind;
    s.mass_spring.substeps = 10;
    const double dt = method == Method::Rk4 ? 1e-3 : 1e-4;
    const auto end = simtest::run(s.mass_spring, s.state, method, dt, std::lround(T / dt));
    CHECK((end.v.head<3>() - expect).norm() < (method == Method::Rk4 ? 1e-9 : 1e-3));
  }
}

TEST_CASE("wind: a changed wind (the panel's) carries a particle to the new air's velocity") {
  // planar: the wind may turn in the x-y plane only
  auto s = particle(Vec3::Zero(), Vec3::Zero(), Vec3::Zero(), {}, 2.0);
  s.mass_spring.wind = Vec3(1, 0, 0);
  sim::System sys(s.mass_spring);
  REQUIRE(sys.massSpring()->dim == 2);
  CHECK(*sys.setParameter(sim::Parameter::Wind, 0.0, Vec3(0, 0, 1)) ==
        "a planar scene's wind has no z component");
  CHECK(*sys.setParameter(sim::Parameter::Wind, 0.0, Vec3(NAN, 0, 0)) == "not a finite vector");
  CHECK(*sys.setParameter(sim::Parameter::Wind, 0.0, Vec3(sim::kMaxWind + 1, 0, 0)) ==
        "faster than 100 m/s");
  CHECK(sys.massSpring()->wind == Vec3(1, 0, 0));  // refused: unchanged
  const double dt = 1e-3;
  auto stepper = sys.stepper(Method::Rk4, dt, s.state);
  REQUIRE(!stepper->advance(1000));
  const Vec3 v1 = stepper->state().v.head<3>();
  CHECK((v1 - Vec3(1, 0, 0) * (1.0 - std::exp(-2.0))).norm() < 1e-9);
  // from v1 the drag relaxes towards the new wind: v = w + (v1 - w) exp(-c t / m)
  const Vec3 w(-2, 1, 0);
  REQUIRE(!sys.setParameter(sim::Parameter::Wind, 0.0, w));
  CHECK(sys.parameter(sim::Parameter::Wind) == doctest::Approx(std::sqrt(5.0)));
  REQUIRE(!stepper->advance(500));
  CHECK((stepper->state().v.head<3>() - (w + (v1 - w) * std::exp(-1.0))).norm() < 1e-9);
  // a pendulum has no wind
  sim::System pendulum{sim::PendulumModel{}};
  CHECK(*pendulum.setParameter(sim::Parameter::Wind, 0.0, Vec3(1, 0, 0)) ==
        "not modelled for pendulums");
}

namespace {
std::string sceneWithSystemKeys(const std::string& keys) {
  return R"({"system": {"type": "mass_spring", "particles": [{"position": [0, 1, 0], "mass": 1}])" +
         keys + "}}";
}
}  // namespace

TEST_CASE("scene: colliders and wind, their errors name the key") {
  const auto def =
      scene::parse(sceneWithSystemKeys(R"(, "drag": 0.1, "wind": [1, 0, 0], "colliders": [
        {"type": "plane", "normal": [0, 2, 0], "friction": 0.5},
        {"type": "sphere", "center": [0, 3, 0], "radius": 0.5}])"),
                   "w.json");
  REQUIRE(def.mass_spring.colliders.size() == 2);
  CHECK(def.mass_spring.colliders[0].normal == Vec3(0, 1, 0));  // normalised
  CHECK(def.mass_spring.colliders[0].friction == 0.5);
  CHECK(def.mass_spring.colliders[1].radius == 0.5);
  const auto b = scene::build(def);
  CHECK(b.massSpring()->wind == Vec3(1, 0, 0));
  CHECK(b.massSpring()->colliders.size() == 2);

  const std::pair<const char*, const char*> bad[] = {
      {R"(, "colliders": {})",
       "w.json: system.colliders: must be an array of plane or sphere objects"},
      {R"(, "colliders": [{"type": "cube"}])",
       "w.json: system.colliders[0].type: must be \"plane\" or \"sphere\", not \"cube\""},
      {R"(, "colliders": [{"type": "plane", "normal": [0, 0, 0]}])",
       "w.json: system.colliders[0].normal: must not be the zero vector"},
      {R"(, "colliders": [{"type": "plane", "normal": [0, 1, 0], "radius": 1}])",
       "w.json: system.colliders[0].radius: belongs to a sphere, not a plane"},
      {R"(, "colliders": [{"type": "sphere", "center": [0, 0, 0], "radius": -1}])",
       "w.json: system.colliders[0].radius: must be > 0 (got -1)"},
      {R"(, "colliders": [{"type": "sphere", "center": [0, 1.2, 0], "radius": 0.5}])",
       "w.json: system.colliders[0]: particle 0 starts inside it"},
      {R"(, "colliders": [{"type": "plane", "point": [0, 2, 0], "normal": [0, 1, 0]}])",
       "w.json: system.colliders[0]: particle 0 starts inside it"},
      {R"(, "wind": [1, 0, 0])", "w.json: system.wind: acts through the drag: set system.drag > 0"},
  };
  for (const auto& [keys, message] : bad) {
    CAPTURE(keys);
    CHECK_THROWS_WITH_AS(scene::parse(sceneWithSystemKeys(keys), "w.json"), message, scene::Error);
  }
}

TEST_CASE("cloth_on_sphere: outside the sphere and above the ground, by xpbd and projective") {
  // projective's contacts are in its solve: the sphere holds the whole cloth up, so it drapes
  // without stretching (measured at most 1.044 over the scene's 6 s at its 4 x 2, 1.0749 at
  // 1 x 3) and its energy only falls; with the contacts after the step alone it wrapped the
  // sphere tight (at 4 x 2: 245 J from 6.5 J at 0.5 s, stretched 1.80 times over 2 s)
  const auto def = scene::loadSceneArg("cloth_on_sphere");
  REQUIRE(def.integrator == Method::Projective);
  for (const Method method : {Method::Xpbd, Method::Projective}) {
    CAPTURE(std::string(sim::info(method).name));
    auto b = scene::build(def);
    REQUIRE(b.massSpring()->colliders.size() == 2);
    if (method == Method::Xpbd) b.massSpring()->substeps = 10, b.massSpring()->iterations = 2;
    const Collider ball = b.massSpring()->colliders[0];
    REQUIRE(ball.shape == Collider::Shape::Sphere);
    const auto st = b.stepper(method, def.dt);
    const double e0 = sim::energy(*b.massSpring(), b.state).total(), spacing = 1.2 / 63;
    double lowest_over_ball = 1e9, highest = e0, stretch = 1.0;
    for (int k = 0; k < 120; ++k) {  // 2 s: it has landed on the sphere and the ground
      REQUIRE(!st->advance());
      const auto& x = st->state().x;
      for (Eigen::Index i = 0; i < x.size() / 3; ++i) {
        const Vec3 p = x.segment<3>(3 * i);
        lowest_over_ball = std::min(lowest_over_ball, (p - ball.point).norm() - ball.radius);
        REQUIRE(p.y() >= 0.0);
      }
      REQUIRE(lowest_over_ball >= -1e-12);
      highest = std::max(highest, sim::energy(*b.massSpring(), st->state()).total());
      stretch =
          std::max(stretch, simtest::maxStructuralStretch(*b.massSpring(), st->state(), spacing));
    }
    CHECK(lowest_over_ball < 1e-6);  // it did land on the sphere
    if (method != Method::Projective) continue;
    CHECK(highest == e0);
    CHECK(stretch < 1.06);
  }
}
