// The System over its kinds (docs/architecture.md#system-kinds), the one parameter table
// (#one-parameter-table), the registry's properties per kind, and the one lock-step rule of the
// window's lanes (lab::LaneGroup, lab::nearestStep).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <set>
#include <sstream>
#include <string>

#include "fp_trap.hpp"
#include "lab/lane_group.hpp"
#include "scene/build.hpp"
#include "scene/edit.hpp"
#include "scene/load.hpp"
#include "sim/forces.hpp"
#include "sim/parameters.hpp"

namespace {

scene::Built builtin(const char* name) {
  return scene::build(scene::loadSceneArg(name));
}

bool sameState(const sim::State& a, const sim::State& b) {
  return a.t == b.t && a.x == b.x && a.v == b.v;
}

// A value the rule accepts and one it refuses, for a scalar row.
double acceptable(const sim::ParameterInfo& row) {
  return row.rule == sim::Rule::Whole ? 2.0 : 0.5;
}

}  // namespace

TEST_CASE("sim: the parameter table's rows are in enum order, with distinct keys and sane ranges") {
  std::set<std::string> keys;
  int i = 0;
  for (const sim::ParameterInfo& row : sim::parameters()) {
    CAPTURE(row.key);
    CHECK(static_cast<int>(row.parameter) == i++);
    CHECK(&sim::parameterInfo(row.parameter) == &row);
    CHECK(sim::findParameter(row.key) == &row);
    CHECK(keys.insert(std::string(row.key)).second);
    CHECK(row.lo < row.hi);
    CHECK(row.slider_hi <= row.hi);
    // the window's range lies within the rule: its ends pass the rule (a vector's magnitude)
    const bool vector = row.rule == sim::Rule::Vector || row.rule == sim::Rule::Velocity;
    if (!vector) CHECK_FALSE(sim::checkValue(row, row.hi).has_value());
    if (!vector && row.rule != sim::Rule::Positive) CHECK_FALSE(sim::checkValue(row, row.lo));
    CHECK(vector != row.event);  // every scalar is an --at key; vectors are not
    // every row applies to some kind
    CHECK((!sim::notApplicable(row.parameter, sim::SystemKind::MassSpring) ||
           !sim::notApplicable(row.parameter, sim::SystemKind::Pendulum)));
  }
  CHECK(sim::findParameter("mass") == nullptr);
}

TEST_CASE("sim: setParameter refuses what does not apply with the table's reason, and the rule") {
  for (const char* name : {"cloth_16", "seed004_double_pendulum"}) {
    CAPTURE(name);
    scene::Built b = builtin(name);
    for (const sim::ParameterInfo& row : sim::parameters()) {
      CAPTURE(row.key);
      const bool vector = row.rule == sim::Rule::Vector || row.rule == sim::Rule::Velocity;
      const sim::Vec3 v(0.0, -2.0, 0.0);
      if (auto why = sim::notApplicable(row.parameter, b.kind())) {
        CHECK_FALSE(b.has(row.parameter));
        CHECK(b.setParameter(row.parameter, acceptable(row), v) == why);
        CHECK(b.parameter(row.parameter) == row.neutral);
        continue;
      }
      CHECK(b.has(row.parameter));
      if (vector) {
        CHECK(*b.setParameter(row.parameter, 0.0, sim::Vec3(NAN, 0, 0)) == "not a finite vector");
        CHECK_FALSE(b.setParameter(row.parameter, 0.0, v));
        CHECK(b.vectorParameter(row.parameter) == v);
        CHECK(b.parameter(row.parameter) == 2.0);
      } else {
        CHECK(b.setParameter(row.parameter, NAN) == sim::checkValue(row, NAN));
        CHECK(b.setParameter(row.parameter, -1.0) == sim::checkValue(row, -1.0));
        CHECK_FALSE(b.setParameter(row.parameter, acceptable(row)));
        CHECK(b.parameter(row.parameter) == acceptable(row));
      }
    }
  }
}

TEST_CASE("sim: the rules' messages") {
  const auto& k = sim::parameterInfo(sim::Parameter::StiffnessScale);
  CHECK(*sim::checkValue(k, 0.0) == "must be a finite number > 0");
  CHECK(*sim::checkValue(sim::parameterInfo(sim::Parameter::Drag), -1.0) ==
        "must be a finite number >= 0");
  CHECK(*sim::checkValue(sim::parameterInfo(sim::Parameter::Substeps), 2.5) ==
        "must be a whole number from 0 to 1000 (0: automatic)");
  CHECK_FALSE(sim::checkValue(sim::parameterInfo(sim::Parameter::Iterations), 0.0));
  const double fast[3] = {0.0, 0.0, 101.0};
  CHECK(*sim::checkVector(sim::parameterInfo(sim::Parameter::Wind), fast) == "faster than 100 m/s");
  CHECK(sim::eventParameterKeys() ==
        "stiffness_scale, damping, substeps, iterations, drag, joint_damping");
}

TEST_CASE("sim: the registry gives order and symplecticity per kind") {
  using sim::Method, sim::SystemKind;
  auto props = [](Method m, SystemKind k) { return sim::onKind(m, k); };
  // docs/integrators.md#summary: verlet and symplectic_euler step a pendulum's (phi, phi'), whose
  // mass matrix changes with phi: not symplectic there, and verlet first order
  CHECK(props(Method::Verlet, SystemKind::MassSpring).order == 2);
  CHECK(props(Method::Verlet, SystemKind::MassSpring).symplectic);
  CHECK(props(Method::Verlet, SystemKind::Pendulum).order == 1);
  CHECK_FALSE(props(Method::Verlet, SystemKind::Pendulum).symplectic);
  CHECK(props(Method::SymplecticEuler, SystemKind::MassSpring).symplectic);
  CHECK_FALSE(props(Method::SymplecticEuler, SystemKind::Pendulum).symplectic);
  CHECK(props(Method::ImplicitMidpoint, SystemKind::Pendulum).symplectic);
  CHECK_FALSE(props(Method::ImplicitMidpoint, SystemKind::MassSpring).applies);
  for (const auto& i : sim::integrators())
    for (SystemKind k : {SystemKind::MassSpring, SystemKind::Pendulum}) {
      CAPTURE(i.name);
      CHECK(sim::lookupIntegrator(i.name, k).method.has_value() == sim::appliesTo(i.method, k));
      CHECK((sim::onKind(i.method, k).order > 0) == sim::appliesTo(i.method, k));
    }
  // the stability column gives info's limits
  CHECK(*sim::dtLimit(Method::Euler, 10.0) == 0.0);
  CHECK(*sim::dtLimit(Method::Verlet, 10.0) == 0.2);
  CHECK(*sim::dtLimit(Method::Rk4, 10.0) == 2.0 * std::sqrt(2.0) / 10.0);
  CHECK_FALSE(sim::dtLimit(Method::TimeFe, 10.0).has_value());
  CHECK(std::isinf(*sim::dtLimit(Method::Rk4, 0.0)));
}

TEST_CASE(
    "sim: omega_max follows the table's scaling: sqrt(k) on springs, sqrt(|g|) on a pendulum") {
  // at rest K is linear in every k, and a pendulum's Hessian in |g|: scaling k or g by 4 doubles
  // omega_max exactly as omegaRatio says
  for (const char* name : {"seed000_closed_loop", "seed004_double_pendulum"}) {
    CAPTURE(name);
    scene::Built b = builtin(name);
    const sim::System atLoad = b;
    const double w0 = b.omegaMax(b.state);
    REQUIRE(w0 > 0.0);
    const bool springs = b.has(sim::Parameter::StiffnessScale);
    if (springs)
      REQUIRE_FALSE(b.setParameter(sim::Parameter::StiffnessScale, 4.0));
    else
      REQUIRE_FALSE(b.setParameter(sim::Parameter::Gravity, 0.0, 4.0 * b.gravity()));
    CHECK(b.omegaRatio(atLoad) == 2.0);
    CHECK(b.omegaMax(b.state) == doctest::Approx(2.0 * w0).epsilon(1e-9));
    // the other parameter leaves it: gravity on springs (no geometric term at rest is scaled), a
    // pendulum has no springs
    if (springs) REQUIRE_FALSE(b.setParameter(sim::Parameter::Gravity, 0.0, sim::Vec3(0, -1, 0)));
    CHECK(b.omegaRatio(atLoad) == 2.0);
    b.restore(atLoad);
    CHECK(b.omegaRatio(atLoad) == 1.0);
  }
}

namespace {
// A pendulum scene of rods `lengths` (1 kg bobs), every angle `angle`, at rest, under `gravity`.
sim::Skeleton pendulumSkeleton(const std::string& lengths, const std::string& angles,
                               const std::string& gravity = "[0, -9.81, 0]") {
  const std::string masses = lengths;  // any positive numbers of the same count
  const scene::Built b = scene::build(
      scene::parse(R"({"gravity": )" + gravity +
                       R"(, "system": {"type": "pendulum", "pivot": [1, 2, 0], "lengths": )" +
                       lengths + R"(, "masses": )" + masses + R"(, "angles": )" + angles + "}}",
                   "test"));
  return b.skeleton(b.state, false);
}
}  // namespace

TEST_CASE("sim: a pendulum's reach is what its energy allows, the pivot always in it") {
  // one rod of 2 m released at rest from 60 degrees: the bob never rises above its start (1 m
  // below the pivot) and swings 2 sin 60 degrees to each side; the box runs from the lowest
  // point to the pivot
  const double a = std::numbers::pi / 3;
  sim::Skeleton k = pendulumSkeleton("[2]", "[" + std::to_string(a) + "]");
  REQUIRE(k.has_reach);
  CHECK(k.reach_centre.x() == doctest::Approx(1.0));
  CHECK(k.reach_centre.y() == doctest::Approx(2.0 - 1.0));  // from -2 m to 0 about the pivot
  CHECK(k.reach_half.y() == doctest::Approx(1.0));
  CHECK(k.reach_half.x() == doctest::Approx(2.0 * std::sin(a)).epsilon(1e-5));
  CHECK(k.reach_half.z() == 0.0);
  // released from 120 degrees: the bob rises to 1 m above the pivot, and reaches 2 m sideways
  k = pendulumSkeleton("[2]", "[" + std::to_string(2 * a) + "]");
  CHECK(k.reach_centre.y() == doctest::Approx(2.0 - 0.5).epsilon(1e-5));  // from -2 m to 1 m
  CHECK(k.reach_half.y() == doctest::Approx(1.5).epsilon(1e-5));
  CHECK(k.reach_half.x() == doctest::Approx(2.0));
  // a rope of ten links released from the horizontal: its tip can whip above the pivot, but
  // only to about (sqrt 2 - 1) of its length, never over the whole circle
  const std::string ten = "[0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]";
  const std::string flat =
      "[1.5707963, 1.5707963, 1.5707963, 1.5707963, 1.5707963, 1.5707963, "
      "1.5707963, 1.5707963, 1.5707963, 1.5707963]";
  k = pendulumSkeleton(ten, flat);
  const double top = k.reach_centre.y() + k.reach_half.y() - 2.0;
  const double bottom = k.reach_centre.y() - k.reach_half.y() - 2.0;
  CHECK(bottom == doctest::Approx(-1.0));
  CHECK(top > 0.3);
  CHECK(top < 0.5);
  CHECK(k.reach_half.x() == doctest::Approx(1.0));
  // no gravity: nothing bounds it but its length
  k = pendulumSkeleton("[2, 1]", "[0.1, 0.1]", "[0, 0, 0]");
  CHECK(k.reach_centre.y() == doctest::Approx(2.0));
  CHECK(k.reach_half.x() == doctest::Approx(3.0));
  CHECK(k.reach_half.y() == doctest::Approx(3.0));
  // gravity along +x: the box turns with it (the bob starts 30 degrees off +x, so it swings 2 sin
  // 30 degrees = 1 m to each side of it)
  k = pendulumSkeleton("[2]", "[" + std::to_string(a) + "]", "[9.81, 0, 0]");
  CHECK(k.reach_centre.x() == doctest::Approx(1.0 + 1.0).epsilon(1e-5));
  CHECK(k.reach_centre.y() == doctest::Approx(2.0).epsilon(1e-5));
  CHECK(k.reach_half.x() == doctest::Approx(1.0).epsilon(1e-5));
  CHECK(k.reach_half.y() == doctest::Approx(1.0).epsilon(1e-5));
}

TEST_CASE("sim: each kind draws itself: a pendulum's pivot and rods, a cloth's strained springs") {
  const scene::Built p = builtin("seed004_double_pendulum");
  const sim::Skeleton ps = p.skeleton(p.state, false);
  CHECK(ps.radius.size() == 3u);  // the pivot and two bobs
  CHECK(ps.fixed[0] == 1);
  CHECK(p.pointOfBody(0) == 1);
  CHECK(p.bodyOfPoint(0) == -1);
  CHECK(ps.lines == std::vector<int>{0, 1, 1, 2});
  CHECK(ps.rigid == std::vector<std::uint8_t>{1, 1});
  CHECK(ps.trail_bodies == std::vector<int>{1});  // the last bob traces the chaos
  CHECK(ps.has_reach);
  CHECK(ps.reach_half.x() == 3.0);  // rods of 2 m and 1 m
  std::vector<float> points;
  Eigen::VectorXd scratch;
  p.pointPositions(p.state, points, scratch);
  REQUIRE(points.size() == 9u);
  CHECK(points[0] == float(p.pendulum()->pivot.x()));

  const scene::Built c = builtin("cloth_16");
  const sim::Skeleton cs = c.skeleton(c.state, !c.triangles.empty());
  CHECK(c.pointOfBody(7) == 7);
  CHECK(cs.radius.size() == size_t(c.counts().particles));
  CHECK(cs.rest.size() == size_t(c.counts().springs));
  for (size_t k = 0; k < cs.rest.size(); ++k) CHECK(cs.rest[k] == c.massSpring()->rest_length[k]);
  CHECK_FALSE(cs.has_reach);
  CHECK(cs.trail_bodies.empty());  // a cloth shows its surface: no trail from the start
  CHECK(c.summary(true) == "mass_spring, 256 particles, 1378 springs, 2D, 508 DOFs");
  CHECK(p.summary(true) == "pendulum, 2 links");
}

TEST_CASE("sim: what bench measures through System: the force pass, the shortest spring, stretch") {
  const scene::Built c = builtin("cloth_16");
  const sim::MassSpringModel& m = *c.massSpring();
  Eigen::VectorXd f, expected;
  c.forcePass(c.state, f);
  sim::totalForce(m, c.state.x, c.state.v, expected);
  CHECK(f == expected);  // the same pass, the same bits
  CHECK(c.shortestRestLength() == m.rest_length.minCoeff());
  CHECK(c.maxStretch(c.state, 0.01) == 1.0);  // at rest: each rest length is its start distance
  // particle 0's structural springs (the shortest) stretched: its neighbour along x moved by 10 %
  // of a cell, along the spring
  sim::State s = c.state;
  const int a = m.spring_a[0], b = m.spring_b[0];
  REQUIRE(m.rest_length[0] == c.shortestRestLength());
  s.x.segment<3>(3 * b) += 0.1 * (s.x.segment<3>(3 * b) - s.x.segment<3>(3 * a));
  const double l = (s.x.segment<3>(3 * b) - s.x.segment<3>(3 * a)).norm();
  CHECK(c.maxStretch(s, 0.01) >= l / m.rest_length[0]);
  CHECK(c.maxStretch(s, 0.01) == doctest::Approx(1.1));

  // a pendulum has rigid rods and no springs; its force pass is its accelerations
  const scene::Built p = scene::build(scene::uniformPendulum(3, 0.5, 2.0, 0.3));
  CHECK(p.summary() == "pendulum, 3 links");
  CHECK(p.state.x == Eigen::VectorXd::Constant(3, 0.3));
  CHECK(p.state.v == Eigen::VectorXd::Zero(3));
  CHECK(p.pendulum()->length == Eigen::VectorXd::Constant(3, 0.5));
  CHECK(p.pendulum()->mass == Eigen::VectorXd::Constant(3, 2.0));
  CHECK(p.shortestRestLength() == 0.0);
  CHECK(p.maxStretch(p.state, 0.01) == 1.0);
  sim::PendulumWork w;
  p.forcePass(p.state, f);
  sim::pendulumAcceleration(*p.pendulum(), p.state.x, p.state.v, expected, w);
  CHECK(f == expected);
}

TEST_CASE(
    "scene: self-collision's thickness is set on a mass-spring scene, refused on a pendulum") {
  scene::SceneDef def = scene::loadSceneArg("cloth_fold");
  CHECK(scene::selfThickness(def) == def.mass_spring.self_thickness);
  CHECK(scene::selfThickness(def) > 0.0);
  CHECK_FALSE(scene::setSelfThickness(def, 0.0));
  CHECK(def.mass_spring.self_thickness == 0.0);
  CHECK(scene::setSelfThickness(def, -1.0).value() ==
        "self-collision's thickness must be a finite number >= 0, not -1");
  scene::SceneDef p = scene::uniformPendulum(2, 1.0, 1.0, 0.0);
  CHECK(scene::selfThickness(p) == 0.0);
  CHECK(scene::setSelfThickness(p, 0.01).value() ==
        "self-collision: a pendulum has links, not particles and springs");
}

TEST_CASE("lab: the window's lanes follow lane 0 by the rule compare uses, bit-identical") {
  // lane 1 at a step that does not divide lane 0's: after each of lane 0's steps it stands at
  // nearestStep on its own clock, in the same state as a lone lane after that many steps
  const scene::Built b = builtin("cloth_16");
  lab::LaneGroup lanes;
  lanes.reset(b, b.state, sim::Method::Verlet, 0.001);
  REQUIRE_FALSE(lanes.canAdd(0).has_value());
  lanes.add(0, sim::Method::Rk4, 0.0007);
  lab::Lane lone(b, b.state, sim::Method::Rk4, 0.0007);
  for (int k = 1; k <= 100; ++k) {
    REQUIRE(lanes.step());
    const double t = lanes.time();
    CHECK(t == 0.0 + double(k) * 0.001);  // t0 + k dt, never a sum
    const long long due = lab::nearestStep(0.0, 0.0007, t);
    CHECK(lanes[1].clock().steps == due);
    while (lone.clock().steps < due) REQUIRE(lone.step());
    CHECK(sameState(lanes[1].state(), lone.state()));
  }
  const util::Problem why = lanes.canAdd(5);
  CHECK(why.has_value());
  CHECK(why == "lane 5: no such lane");
}

TEST_CASE("lab: once lane 0 has diverged its clock counts on, t0 + k dt") {
  const testutil::FpTrapsOff divergesOnPurpose;
  const scene::Built b = builtin("cloth_16");
  lab::LaneGroup lanes;
  lanes.reset(b, b.state, sim::Method::Euler, 0.01);  // explicit Euler at 20 x the cloth's dt
  lanes.add(0, sim::Method::ImplicitEuler, 0.002);
  long long k = 0;
  while (!lanes[0].diverged() && k < 100000) {
    REQUIRE(lanes.step());
    ++k;
  }
  REQUIRE(lanes[0].diverged());
  for (int extra = 1; extra <= 50; ++extra) {
    REQUIRE(lanes.step());  // lane 1 goes on
    CHECK(lanes.time() == double(k + extra) * 0.01);
    CHECK(lanes[1].state().t == doctest::Approx(lanes.time()).epsilon(1e-12));
  }
}

TEST_CASE("docs: cli.md's table of --at keys lists every event key of the parameter table") {
  std::ifstream in(std::string(SPRINGLAB_SOURCE_DIR) + "/docs/cli.md");
  REQUIRE(in);
  std::stringstream all;
  all << in.rdbuf();
  const std::string doc = all.str();
  const auto events = doc.find("\n## Events\n");
  REQUIRE(events != std::string::npos);
  const std::string section = doc.substr(events, doc.find("\n## ", events + 1) - events);
  for (const sim::ParameterInfo& row : sim::parameters()) {
    CAPTURE(row.key);
    const bool listed = section.find("| `" + std::string(row.key) + "` |") != std::string::npos;
    CHECK(listed == row.event);
  }
}
