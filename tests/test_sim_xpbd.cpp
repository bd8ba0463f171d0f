// xpbd (docs/integrators.md#xpbd): what it converges to as substeps and iterations grow, and its
// kernels giving the same bits whatever the thread count.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "scene/generators.hpp"
#include "sim/forces.hpp"
#include "sim/parallel.hpp"
#include "sim/spring_runs.hpp"
#include "sim/xpbd.hpp"
#include "sim/xpbd_kernels.hpp"
#include "test_sim_helpers.hpp"

using sim::Vec3;

namespace {

// Seed 003's spring pendulum (Table 1, case 1), released sideways and stretched.
simtest::System springPendulum() {
  simtest::Builder b;
  b.fixed(Vec3::Zero());
  b.particle(Vec3(0.45, -0.55, 0.0), Vec3(0.0, 0.0, 0.3), 0.0484);
  b.spring(0, 1, 2.3, 0.6162);
  return b.build(Vec3(0, -9.8, 0));
}

scene::SceneDef clothScene(int n, double k) {
  return simtest::fallingCloth(n, k, 0.01 * k / n, 0.1);
}

}  // namespace

TEST_CASE("sim: xpbd converges to the exact trajectory, first order in the substep") {
  // the reference: rk4 (fourth order) at a step 100 times finer than the finest substep below
  auto sys = springPendulum();
  const double h = 0.01, duration = 1.0;
  const long steps = std::lround(duration / h);
  const sim::State exact =
      simtest::run(sys.mass_spring, sys.state, sim::Method::Rk4, h / 3200, steps * 3200);
  std::vector<double> errors;
  for (const int substeps : {4, 8, 16, 32}) {
    sys.mass_spring.substeps = substeps;
    const sim::State s = simtest::run(sys.mass_spring, sys.state, sim::Method::Xpbd, h, steps);
    errors.push_back((s.x - exact.x).norm());
  }
  for (size_t i = 0; i + 1 < errors.size(); ++i) {
    CAPTURE(errors[i]);
    CAPTURE(errors[i + 1]);
    const double order = std::log2(errors[i] / errors[i + 1]);
    CHECK(order == doctest::Approx(1.0).epsilon(0.15));
  }
  CHECK(errors.back() < 2e-3);  // m, after 1 s of a 0.6 m pendulum
}

TEST_CASE("sim: xpbd holds a stiff cloth to its rest lengths as the iterations grow") {
  // k so large that its spring is a rod: what is left of the stretch is the unconverged
  // Gauss-Seidel sweep, which must shrink with every doubling of the iterations
  const auto def = clothScene(12, 1e9);
  std::vector<double> stretch;
  for (const int iterations : {1, 4, 16, 64})
    stretch.push_back(
        simtest::worstStretch(def, sim::Method::Xpbd, 4, iterations, 1.0 / 60, 60, 1.0 / 11));
  simtest::checkStretchShrinks(stretch);
}

TEST_CASE(
    "sim: xpbd's colours share no particle, a grid direction's springs colours of their own") {
  // a 20 x 20 cloth (six directions: rows, columns, two diagonals, two bending) and, added to
  // it, 30 springs of scattered index distances, too few to get colours of their own
  auto def = clothScene(20, 1e3);
  const int cloth_springs = static_cast<int>(def.mass_spring.springs.size());
  for (int i = 0; i < 30; ++i) {
    scene::SpringDef extra = def.mass_spring.springs.front();
    extra.a = i, extra.b = 399 - 7 * i;
    def.mass_spring.springs.push_back(extra);
  }
  const auto built = scene::build(def);
  const sim::MassSpringModel& m = *built.massSpring();
  const std::vector<int> colour = sim::sweepColours(m);
  REQUIRE(static_cast<int>(colour.size()) == m.springs());
  std::set<std::pair<int, int>> seen;         // (colour, particle)
  std::map<int, std::set<int>> distances_of;  // colour -> the index distances b - a in it
  std::map<int, std::set<int>> colours_of;    // index distance -> its colours
  for (int s = 0; s < m.springs(); ++s) {
    CHECK(seen.insert({colour[s], m.spring_a[s]}).second);
    CHECK(seen.insert({colour[s], m.spring_b[s]}).second);
    if (s >= cloth_springs) continue;
    distances_of[colour[s]].insert(m.spring_b[s] - m.spring_a[s]);
    colours_of[m.spring_b[s] - m.spring_a[s]].insert(colour[s]);
  }
  CHECK(colours_of.size() == 6);
  for (const auto& [distance, colours] : colours_of) {
    CAPTURE(distance);
    CHECK(colours.size() == 2);  // alternate springs along a line: two colours
    for (const int c : colours) CHECK(distances_of[c].size() == 1);
  }
  // the scattered springs come last, in colours of their own after the grid's twelve
  for (int s = cloth_springs; s < m.springs(); ++s) CHECK(colour[s] >= 12);
}

TEST_CASE("sim: xpbd gives the same bits on 1 and 2 kernel threads") {
  const auto def = clothScene(32, 2e4);  // 5826 springs: above kMinSpringsPerThread
  REQUIRE(scene::build(def).massSpring()->springs() >= sim::kMinSpringsPerThread);
  auto a = scene::build(def), b = scene::build(def);
  a.massSpring()->substeps = b.massSpring()->substeps = 3;
  a.massSpring()->iterations = b.massSpring()->iterations = 4;
  sim::setKernelThreads(1);
  const sim::State one = simtest::run(*a.massSpring(), a.state, sim::Method::Xpbd, 1.0 / 60, 30);
  sim::setKernelThreads(2);
  const sim::State two = simtest::run(*b.massSpring(), b.state, sim::Method::Xpbd, 1.0 / 60, 30);
  sim::setKernelThreads(1);
  CHECK(one.x != a.state.x);
  CHECK(one.x == two.x);
  CHECK(one.v == two.v);
}

TEST_CASE(
    "sim: xpbd's AVX-512 and AVX2 sweeps give the scalar sweep's bits, with and without dashpots") {
  if (!sim::simdAvailable()) MESSAGE("no AVX2 on this processor: every run takes the scalar path");
  if (!sim::wideSimdAvailable()) MESSAGE("no AVX-512 on this processor: two runs take AVX2");
  for (const bool dashpots : {true, false}) {
    CAPTURE(dashpots);
    auto def = clothScene(31, 2e4);  // 31 x 31: colours whose sizes are not multiples of 8 or 4
    def.mass_spring.tethers = true;
    auto run = [&](bool simd, bool wide) {
      auto built = scene::build(def);
      built.massSpring()->substeps = 3;
      built.massSpring()->iterations = 4;  // lambda read back after the first sweep
      if (!dashpots) built.massSpring()->damping.setZero(), ++built.massSpring()->damping_revision;
      REQUIRE(built.massSpring()->anyDashpot() == dashpots);
      sim::setSimd(simd), sim::setWideSimd(wide);
      const sim::State s =
          simtest::run(*built.massSpring(), built.state, sim::Method::Xpbd, 1.0 / 60, 20);
      sim::setSimd(true), sim::setWideSimd(true);
      CHECK(s.x != built.state.x);
      return s;
    };
    const sim::State scalar = run(false, false), avx2 = run(true, false), wide = run(true, true);
    CHECK(scalar.x == avx2.x);
    CHECK(scalar.v == avx2.v);
    CHECK(scalar.x == wide.x);
    CHECK(scalar.v == wide.v);
  }
}

TEST_CASE("sim: xpbd keeps a planar scene exactly in its plane, fixed ends where they are") {
  simtest::Builder b;
  const int top = b.fixed(Vec3(0.2, 0.1, 0.0));
  int prev = top;
  for (int i = 1; i <= 6; ++i) {
    const int p = b.particle(Vec3(0.2 + 0.3 * std::sin(i), 0.1 - 0.25 * i, 0.0), Vec3::Zero(), 0.1);
    b.spring(prev, p, 50.0 * i, 0.2, 0.05);
    prev = p;
  }
  const auto sys = b.build(Vec3(0, -9.81, 0), 0.2);
  auto m = sys.mass_spring;
  m.substeps = 5;
  m.iterations = 3;
  const sim::State s = simtest::run(m, sys.state, sim::Method::Xpbd, 0.02, 200);
  for (int i = 0; i < m.particles(); ++i) CHECK(s.x[3 * i + 2] == 0.0);
  CHECK(s.x.segment<3>(3 * top) == sys.state.x.segment<3>(3 * top));
  CHECK(s.x.allFinite());
}

TEST_CASE("scene: a tilted hanging cloth turns about its top edge, its spacing unchanged") {
  scene::MassSpringDef def;
  scene::ClothParams p;
  p.nx = 5, p.ny = 4;
  p.width = 2.0, p.height = 1.5;
  p.center = Vec3(0.5, 1.0, -0.25);
  p.tilt = 30.0;
  scene::addCloth(def, p);
  const double t = M_PI / 6;
  for (int i = 0; i < p.nx; ++i) {
    const Vec3& top = def.particles[i].position;
    const Vec3& bottom = def.particles[(p.ny - 1) * p.nx + i].position;
    CHECK(top.y() == doctest::Approx(1.75));
    CHECK(top.z() == doctest::Approx(-0.25));
    CHECK(bottom.y() == doctest::Approx(1.75 - 1.5 * std::cos(t)));
    CHECK(bottom.z() == doctest::Approx(-0.25 + 1.5 * std::sin(t)));
  }
  // structural neighbours stay one spacing apart: the sheet is turned, not stretched
  scene::SceneDef scene;
  scene.mass_spring = def;
  const auto b = scene::build(scene);
  CHECK(b.massSpring()->dim == 3);
  CHECK(b.massSpring()->rest_length[1] == doctest::Approx(0.5));  // first vertical spring
  CHECK(b.massSpring()->rest_length[0] == doctest::Approx(0.5));  // first horizontal spring
}

TEST_CASE("sim: tethers hold every particle within its start distance of its two nearest pins") {
  auto def = clothScene(16, 1e4);
  def.parameters.set(sim::Parameter::Substeps, 1.0),
      def.parameters.set(sim::Parameter::Iterations, 1.0);  // not the automatic settings: see below
  def.mass_spring.tethers = true;
  auto tethered = scene::build(def);
  const auto& m = *tethered.massSpring();
  const int pins = 2, free = m.particles() - pins;
  REQUIRE(m.tether_particle.size() == size_t(2 * free));
  for (size_t t = 0; t < m.tether_particle.size(); ++t) {
    const int i = m.tether_particle[t], a = m.tether_anchor[t];
    CHECK_FALSE(m.fixed(i));
    CHECK(m.fixed(a));
    CHECK(m.tether_length[t] ==
          (tethered.state.x.segment<3>(3 * a) - tethered.state.x.segment<3>(3 * i)).norm());
  }
  // one substep, one sweep: far too few for the springs alone to hold a falling 16 x 16 sheet
  auto farthest = [&](const sim::State& s) {
    double worst = 0.0;
    for (size_t t = 0; t < m.tether_particle.size(); ++t) {
      const double l =
          (s.x.segment<3>(3 * m.tether_particle[t]) - s.x.segment<3>(3 * m.tether_anchor[t]))
              .norm();
      worst = std::max(worst, l / m.tether_length[t]);
    }
    return worst;
  };
  def.mass_spring.tethers = false;
  auto loose = scene::build(def);
  sim::Stepper with(*tethered.massSpring(), tethered.state, sim::Method::Xpbd, 1.0 / 60);
  sim::Stepper without(*loose.massSpring(), loose.state, sim::Method::Xpbd, 1.0 / 60);
  double worst_with = 0.0, worst_without = 0.0;
  for (int i = 0; i < 60; ++i) {
    REQUIRE_FALSE(with.advance());
    REQUIRE_FALSE(without.advance());
    worst_with = std::max(worst_with, farthest(with.state()));
    worst_without = std::max(worst_without, farthest(without.state()));
  }
  MESSAGE("farthest / tether length: " << worst_with << " with tethers, " << worst_without
                                       << " without");
  CHECK(worst_with <= 1.0 + 1e-12);
  CHECK(worst_without > 1.1);
}

TEST_CASE("sim: the force pass gives the scatter pass's bits on 2 threads (gather form)") {
  auto def = clothScene(32, 3e3);  // 5826 springs, with dashpots and drag
  const auto built = scene::build(def);
  const auto& m = *built.massSpring();
  REQUIRE(m.springs() >= sim::kMinSpringsPerThread);
  REQUIRE(m.adjacency_start.size() == size_t(m.particles() + 1));
  // a state where every spring is stretched or compressed and moving
  sim::State s = built.state;
  for (int i = 0; i < s.x.size(); ++i) {
    s.x[i] += 0.003 * std::sin(1.7 * i);
    s.v[i] = 0.2 * std::cos(0.9 * i);
  }
  auto scatter = m;  // without the adjacency the pass runs spring by spring on one thread
  scatter.adjacency_start.clear();
  scatter.adjacency_spring.clear();
  Eigen::VectorXd one, two, reference;
  sim::setKernelThreads(2);
  sim::totalForce(scatter, s.x, s.v, reference);
  sim::totalForce(m, s.x, s.v, two);
  sim::setKernelThreads(1);
  sim::totalForce(m, s.x, s.v, one);
  CHECK(reference.norm() > 0.0);
  CHECK(two == reference);
  CHECK(one == reference);
}

TEST_CASE("sim: tethered particles on their anchor and on the pins' axis step without a trap") {
  // Eight free particles with two tethers each, so both paths (four at a time with AVX2) see
  // them: one starts on a pin (tether length 0), one on the axis between the pins (its circle
  // has radius 0). The tests trap division by zero and invalid operations (tests/fp_trap.hpp).
  for (const bool simd : {true, false}) {
    CAPTURE(simd);
    scene::SceneDef def;
    def.parameters.set(sim::Parameter::Gravity, Vec3(0.0, -9.81, 0.0));
    auto& ms = def.mass_spring;
    ms.tethers = true;
    ms.particles.push_back({Vec3(0, 0, 0), Vec3::Zero(), 0.0, true});
    ms.particles.push_back({Vec3(1, 0, 0), Vec3::Zero(), 0.0, true});
    ms.particles.push_back({Vec3(0, 0, 0), Vec3(0.1, 0, 0), 0.01, false});  // on pin 0
    ms.particles.push_back({Vec3(0.5, 0, 0), Vec3::Zero(), 0.01, false});   // on the axis
    for (int i = 0; i < 6; ++i)
      ms.particles.push_back({Vec3(0.1 * i + 0.2, -0.3, 0.1), Vec3::Zero(), 0.01, false});
    for (int i = 2; i + 1 < static_cast<int>(ms.particles.size()); ++i)
      ms.springs.push_back({i, i + 1, 100.0, std::nullopt, 0.0});
    auto built = scene::build(def);
    REQUIRE(built.massSpring()->tether_particle.size() == 16);
    sim::setSimd(simd);
    const sim::State end =
        simtest::run(*built.massSpring(), built.state, sim::Method::Xpbd, 0.01, 50);
    sim::setSimd(true);
    CHECK(end.x.allFinite());
    // inside both tethers: the one on pin 0 cannot leave it, the one on the axis stays on it
    CHECK((end.x.segment<3>(6) - Vec3(0, 0, 0)).norm() < 1e-12);
    CHECK((end.x.segment<3>(9) - Vec3(0.5, 0, 0)).norm() < 1e-9);
  }
}
