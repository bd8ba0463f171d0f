// Self-collision (docs/integrators.md#self-collision, sim/self_collision.hpp): the spatial hash
// against a brute-force search, a head-on approach stopped at the thickness without a bounce,
// joined and close-starting pairs left alone, a small cloth dropped on a pinned one resting on it
// with self-collision and falling through without, for every mass-spring method, no unjoined
// pair closer than the thickness after any step, and the scene key's errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "scene/build.hpp"
#include "scene/load.hpp"
#include "sim/energy.hpp"
#include "sim/self_collision.hpp"
#include "sim/system.hpp"
#include "test_sim_helpers.hpp"

namespace {

using sim::Method;
using sim::Vec3;

// The closest unjoined pair (fixed pairs apart) by brute force, over the thickness: 1 when none
// is closer.
double closestUnjoined(const sim::MassSpringModel& m, const Eigen::VectorXd& x) {
  const auto pairs = sim::nearPairsBruteForce(m, x.data(), m.self_thickness);
  double worst = 1.0;
  for (const auto& [i, j] : pairs) {
    const double rest = (m.self_rest.segment<3>(3 * i) - m.self_rest.segment<3>(3 * j)).norm();
    const double lo = std::min(m.self_thickness, rest);
    worst = std::min(worst, (x.segment<3>(3 * i) - x.segment<3>(3 * j)).norm() / lo);
  }
  return worst;
}

// Two cloths: a 12 x 12 one pinned at its four corners, level at y = 0, and a free 6 x 6 one
// level at y = 0.08 above its middle; both of 4 cm cells. Thickness 3 cm (more than the half
// diagonal of a cell, 2.83 cm, so that a particle cannot slip through the middle of one).
std::string twoCloths(bool self) {
  return std::string(R"({"gravity": [0, -9.81, 0], "system": {"type": "mass_spring",
    "drag": 0.002,
    "generators": [
      {"kind": "cloth", "nx": 12, "ny": 12, "width": 0.44, "height": 0.44, "mass": 0.1,
       "stiffness": 200, "bending_stiffness": 2, "damping": 0.02, "orientation": "horizontal",
       "pins": "all_corners"},
      {"kind": "cloth", "nx": 6, "ny": 6, "width": 0.2, "height": 0.2, "mass": 0.03,
       "stiffness": 200, "bending_stiffness": 2, "damping": 0.02, "orientation": "horizontal",
       "center": [0.01, 0.08, 0.01], "pins": "none"}]
    )") + (self ? R"(, "self_collision": {"thickness": 0.03})" : "") +
         "}}";
}

constexpr int kBottom = 144;  // the bottom cloth's particles come first

// The mean height of the top cloth less the bottom cloth's middle four particles'.
double heightAbove(const Eigen::VectorXd& x) {
  double top = 0.0;
  for (int i = kBottom; i < kBottom + 36; ++i) top += x[3 * i + 1];
  double mid = 0.0;
  for (int r : {5, 6})
    for (int c : {5, 6}) mid += x[3 * (12 * r + c) + 1];
  return top / 36 - mid / 4;
}

// A step each method holds this soft pair of cloths at, and moves little within (the fall's
// 1.3 m/s a step at most 5 mm, under the thickness).
double stepOf(Method m) {
  switch (m) {
    case Method::Euler:
      return 2e-5;
    case Method::SymplecticEuler:
    case Method::Verlet:
    case Method::Rk4:
      return 2e-4;
    default:
      return 2e-3;
  }
}

}  // namespace

TEST_CASE("self-collision: the spatial hash finds exactly the pairs a brute-force search finds") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  const int n = 600;
  std::vector<double> x(3 * n);
  for (double& c : x) c = u(rng);
  // a few far away (their cells clamped) and a few exactly on cell boundaries
  x[0] = 1e150, x[3] = -1e150, x[6] = 1e150;
  x[9] = 0.05, x[12] = 0.1;
  const double r = 0.05;
  sim::SpatialHash hash;
  hash.build(x.data(), n, r);
  std::vector<std::pair<int, int>> found, brute;
  auto close = [&](int i, int j) {
    double d = 0;
    for (int k = 0; k < 3; ++k) d += (x[3 * i + k] - x[3 * j + k]) * (x[3 * i + k] - x[3 * j + k]);
    return d < r * r;
  };
  for (int i = 0; i < n; ++i) {
    int visits = 0;
    hash.forNear(i, [&](int j) {
      visits += j == i;
      if (i < j && close(i, j)) found.emplace_back(i, j);
    });
    CHECK(visits == 1);  // each point once, however many cells share its bucket
    for (int j = i + 1; j < n; ++j)
      if (close(i, j)) brute.emplace_back(i, j);
  }
  std::sort(found.begin(), found.end());
  REQUIRE(brute.size() > 100);
  CHECK(found == brute);
}

TEST_CASE("self-collision: the neighbour list is the brute force's unjoined pairs, fixed apart") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.15, 0.15);
  simtest::Builder b;
  const int n = 400;
  for (int i = 0; i < n; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    if (i % 10 == 0)
      b.fixed(p);
    else
      b.particle(p, Vec3::Zero(), 0.01);
  }
  for (int i = 0; i + 1 < n; i += 2) b.spring(i, i + 1, 10.0, 0.1);  // joined pairs
  for (int i = 0; i + 7 < n; i += 3) b.spring(i, i + 7, 10.0, 0.1);
  simtest::System s = b.build(Vec3::Zero());
  s.mass_spring.self_thickness = 0.02;
  const Eigen::VectorXd x0 = s.state.x;
  Eigen::VectorXd x = x0, v = Eigen::VectorXd::Zero(x0.size());
  sim::SelfCollision sc;
  sc.resolveStep(s.mass_spring, x0, x, v, 1e-3);
  const auto brute =
      sim::nearPairsBruteForce(s.mass_spring, x0.data(), sim::SelfCollision::listRadius(0.02));
  REQUIRE(brute.size() > 50);
  CHECK(sc.listedPairs(s.mass_spring) == brute);
  CHECK(sc.builds() == 1);
}

TEST_CASE("self-collision: a head-on approach stops at the thickness without a bounce") {
  for (const Method method : {Method::SymplecticEuler, Method::Rk4, Method::Xpbd}) {
    CAPTURE(std::string(sim::info(method).name));
    simtest::Builder b;
    b.particle(Vec3(-0.1, 0, 0), Vec3(1, 0, 0), 1.0);
    b.particle(Vec3(0.1, 0, 0), Vec3(-1, 0, 0), 3.0);
    b.fixed(Vec3(0.3, 0, 0));
    b.particle(Vec3(0.2, 0, 0), Vec3(0.5, 0, 0), 1.0);  // towards the fixed one
    simtest::System s = b.build(Vec3::Zero());
    s.mass_spring.self_thickness = 0.05;
    s.mass_spring.self_rest = s.state.x;
    sim::Stepper st(s.mass_spring, s.state, method, 1e-3);
    REQUIRE(!st.advance(400));
    const auto& x = st.state().x;
    const auto& v = st.state().v;
    CHECK(x[3] - x[0] == doctest::Approx(0.05).epsilon(1e-3));
    CHECK(x[6] - x[9] == doctest::Approx(0.05).epsilon(1e-3));  // the fixed one stays put
    CHECK(x[6] == 0.3);
    // inelastic: the pair moves on together with its momentum, (1 - 3) / 4 m/s
    CHECK(v[0] == doctest::Approx(-0.5).epsilon(1e-3));
    CHECK(v[3] == doctest::Approx(-0.5).epsilon(1e-3));
    CHECK(std::abs(v[9]) < 1e-9);
    // the energy the stops took out is in the ledger's contacts term: 3/8 + 1/8 J
    const double e = sim::energy(s.mass_spring, st.state()).total();
    CHECK(e + st.work().contacts == doctest::Approx(0.5 * 1 + 0.5 * 3 + 0.125).epsilon(1e-3));
    CHECK(st.work().dissipated == 0.0);  // the contacts' term, not the drag's
  }
}

TEST_CASE("self-collision: joined pairs are not pushed, nor pairs that start closer") {
  for (const Method method : {Method::SymplecticEuler, Method::Xpbd, Method::Projective}) {
    CAPTURE(std::string(sim::info(method).name));
    // a spring of rest 1 cm swinging under gravity, and two unjoined particles 1 cm apart at rest
    simtest::Builder b;
    const int a = b.fixed(Vec3(0, 0, 0));
    const int c = b.particle(Vec3(0.012, 0, 0), Vec3::Zero(), 0.01);
    b.spring(a, c, 5.0, 0.01);
    b.particle(Vec3(1, 0, 0), Vec3::Zero(), 0.01);
    b.particle(Vec3(1.01, 0, 0), Vec3::Zero(), 0.01);
    simtest::System plain = b.build(Vec3(0, -9.81, 0));
    plain.mass_spring.gravity = Vec3::Zero();  // the loose pair rests; the spring recoils
    simtest::System self = plain;
    self.mass_spring.self_thickness = 0.05;
    self.mass_spring.self_rest = self.state.x;
    sim::Stepper p(plain.mass_spring, plain.state, method, 1e-3),
        q(self.mass_spring, self.state, method, 1e-3);
    for (int k = 0; k < 200; ++k) {
      REQUIRE(!p.advance());
      REQUIRE(!q.advance());
      REQUIRE(p.state().x == q.state().x);
      REQUIRE(p.state().v == q.state().v);
    }
    CHECK(q.state().x[9] - q.state().x[6] == doctest::Approx(0.01));
  }
}

TEST_CASE(
    "self-collision: a small cloth dropped on a pinned one rests on it, without falls through") {
  const Method methods[] = {Method::Euler, Method::SymplecticEuler, Method::Verlet,
                            Method::Rk4,   Method::ImplicitEuler,   Method::TimeFe,
                            Method::Xpbd,  Method::Projective};
  for (const Method method : methods) {
    CAPTURE(std::string(sim::info(method).name));
    const double h = stepOf(method);
    const long steps = std::lround(0.6 / h);  // it lands at about 0.13 s
    double above[2] = {0, 0};
    for (const bool self : {true, false}) {
      scene::Built built = scene::build(scene::parse(twoCloths(self), "two.json"));
      sim::MassSpringModel& m = *built.massSpring();
      if (method == Method::Xpbd) m.substeps = 4, m.iterations = 4;
      if (method == Method::Projective) m.iterations = 5;
      const auto st = built.stepper(method, h);
      const long every = std::max(1L, steps / 60);
      double worst = 1.0;
      for (long k = 0; k < steps; k += every) {
        REQUIRE(!st->advance(every));
        if (self) worst = std::min(worst, closestUnjoined(m, st->state().x));
      }
      above[self ? 0 : 1] = heightAbove(st->state().x);
      // within the projection's tolerance of 1 %, and what the last pass leaves
      if (self) CHECK(worst > 0.95);
    }
    CHECK(above[0] > 0.005);  // resting on it (its particles a thickness from the nearest)
    CHECK(above[0] < 0.05);
    CHECK(above[1] < -0.3);  // fell through and on
  }
}

TEST_CASE("self-collision: the scene key, and its errors exactly") {
  const auto scene = [](const std::string& self) {
    return R"({"system": {"type": "mass_spring", "particles": [{"position": [0, 1, 0], "mass": 1},
      {"position": [0, 2, 0], "mass": 1}], "self_collision": )" +
           self + "}}";
  };
  const auto def = scene::parse(scene(R"({"thickness": 0.02})"), "s.json");
  CHECK(def.mass_spring.self_thickness == 0.02);
  const auto b = scene::build(def);
  CHECK(b.massSpring()->self_thickness == 0.02);
  CHECK(b.massSpring()->self_rest == b.state.x);
  CHECK(scene::build(scene::parse(R"({"system": {"type": "mass_spring", "particles": [
      {"position": [0, 1, 0], "mass": 1}]}})",
                                  "s.json"))
            .massSpring()
            ->self_thickness == 0.0);  // off when absent

  const std::pair<const char*, const char*> bad[] = {
      {"0.01", "s.json: system.self_collision: must be an object, not a number"},
      {"{}", "s.json: system.self_collision.thickness: required key is missing"},
      {R"({"thickness": 0})", "s.json: system.self_collision.thickness: must be > 0 (got 0)"},
      {R"({"thickness": -0.5})", "s.json: system.self_collision.thickness: must be > 0 (got -0.5)"},
      {R"({"thickness": "thin"})",
       "s.json: system.self_collision.thickness: must be a number, not a string"},
      {R"({"thickness": 0.01, "friction": 0.3})",
       "s.json: system.self_collision.friction: unknown key (allowed here: thickness)"},
  };
  for (const auto& [self, message] : bad) {
    CAPTURE(self);
    CHECK_THROWS_WITH_AS(scene::parse(scene(self), "s.json"), message, scene::Error);
  }
}

TEST_CASE("cloth_fold: the cloth folds onto itself, its layers kept the thickness apart") {
  const auto def = scene::loadSceneArg("cloth_fold");
  REQUIRE(def.integrator == Method::Xpbd);
  auto b = scene::build(def);
  const sim::MassSpringModel& m = *b.massSpring();
  REQUIRE(m.self_thickness == 0.02);
  const auto st = b.stepper(def.integrator, def.dt);
  double worst = 1.0;
  for (int k = 0; k < 12; ++k) {  // 2 s: it has piled up and fallen over
    REQUIRE(!st->advance(10));
    worst = std::min(worst, closestUnjoined(m, st->state().x));
  }
  CHECK(worst > 0.95);
  // folded: some particle lies over another, within a third of a cell sideways and at least a
  // thickness above it
  const Eigen::VectorXd& x = st->state().x;
  int over = 0;
  for (int i = 0; i < m.particles(); ++i)
    for (int j = 0; j < m.particles(); ++j) {
      const double dx = x[3 * i] - x[3 * j], dz = x[3 * i + 2] - x[3 * j + 2];
      over += dx * dx + dz * dz < 0.0085 * 0.0085 && x[3 * i + 1] - x[3 * j + 1] > 0.019;
    }
  CHECK(over > 100);
  CHECK(x(Eigen::seqN(1, m.particles(), 3)).minCoeff() >= 0.0);  // on the floor, not through it
}
