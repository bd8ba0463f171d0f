// The forces on one body one by one (sim/body_forces.hpp, docs/exploring.md#forces): they add up
// to the body's mass times its acceleration (the force law's, and a pendulum's bob's read off its
// motion), each against a closed form where there is one, and a collider's push on a body at rest.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "pendulum_helpers.hpp"
#include "sim/body_forces.hpp"
#include "sim/forces.hpp"
#include "sim/stepper.hpp"
#include "test_sim_helpers.hpp"

using sim::BodyForce;
using sim::ForceSource;
using sim::Vec3;

namespace {

constexpr double kG = 9.81;  // m/s^2

Vec3 sum(const std::vector<BodyForce>& forces) {
  Vec3 total = Vec3::Zero();
  for (const BodyForce& f : forces) total += f.force;
  return total;
}

int count(const std::vector<BodyForce>& forces, ForceSource s) {
  int n = 0;
  for (const BodyForce& f : forces) n += f.source == s;
  return n;
}

// A fixed point, two masses in 3-D on damped springs, drag in a wind and the mouse on one: every
// term of the mass-spring force law is there.
simtest::System everyTerm() {
  simtest::Builder b;
  b.fixed(Vec3(0.0, 0.0, 0.0));
  b.particle(Vec3(0.3, -1.2, 0.2), Vec3(0.4, -0.1, 0.3), 0.5);
  b.particle(Vec3(0.5, -2.1, -0.1), Vec3(-0.6, 0.2, 0.1), 0.8);
  b.spring(0, 1, 60.0, 1.0, 0.4);
  b.spring(1, 2, 40.0, 0.8, 0.2);
  b.spring(0, 2, 25.0, 2.0);  // no dashpot: no damping term
  simtest::System s = b.build(Vec3(0.0, -kG, 0.0), 0.3);
  s.mass_spring.wind = Vec3(2.0, 0.0, -1.0);
  s.mass_spring.grab = 2;
  s.mass_spring.grab_target = Vec3(1.0, -1.5, 0.5);
  s.mass_spring.grab_stiffness = 30.0;
  return s;
}

// Bob positions of a pendulum h seconds on (or back, h < 0), by rk4 steps of |h| / 64.
Eigen::VectorXd pendulumAfter(const sim::PendulumModel& m, sim::State s, double h) {
  constexpr int kSteps = 64;
  const double dt = h / kSteps;
  sim::PendulumWork w;
  auto deriv = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& v, Eigen::VectorXd& a) {
    sim::pendulumAcceleration(m, x, v, a, w);
  };
  Eigen::VectorXd a1, a2, a3, a4;
  for (int k = 0; k < kSteps; ++k) {
    const Eigen::VectorXd x = s.x, v = s.v;
    deriv(x, v, a1);
    const Eigen::VectorXd v2 = v + 0.5 * dt * a1;
    deriv(x + 0.5 * dt * v, v2, a2);
    const Eigen::VectorXd v3 = v + 0.5 * dt * a2;
    deriv(x + 0.5 * dt * v2, v3, a3);
    const Eigen::VectorXd v4 = v + dt * a3;
    deriv(x + dt * v3, v4, a4);
    s.x = x + dt / 6.0 * (v + 2.0 * v2 + 2.0 * v3 + v4);
    s.v = v + dt / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
  }
  Eigen::VectorXd out;
  sim::pendulumPositions(m, s.x, out);
  return out;
}

}  // namespace

TEST_CASE(
    "forces: a particle's forces one by one add up to its mass times the law's acceleration") {
  const simtest::System s = everyTerm();
  const sim::MassSpringModel& m = s.mass_spring;
  Eigen::VectorXd a;
  sim::acceleration(m, s.state.x, s.state.v, a);
  for (int i = 1; i <= 2; ++i) {
    CAPTURE(i);
    const std::vector<BodyForce> f = sim::bodyForces(m, s.state, i);
    const Vec3 ma = m.mass[i] * a.segment<3>(3 * i);
    CHECK((sum(f) - ma).norm() <= 1e-12 * ma.norm());
    CHECK(count(f, ForceSource::Gravity) == 1);
    CHECK(count(f, ForceSource::Spring) == 2);  // each particle is on two of the three springs
    CHECK(count(f, ForceSource::Drag) == 1);
    CHECK(count(f, ForceSource::Grab) == (i == 2 ? 1 : 0));
  }
  // particle 1 is on both damped springs, particle 2 on one of them
  CHECK(count(sim::bodyForces(m, s.state, 1), ForceSource::Damping) == 2);
  CHECK(count(sim::bodyForces(m, s.state, 2), ForceSource::Damping) == 1);
  // the drag is against the velocity relative to the wind: -c (v - w)
  for (const BodyForce& f : sim::bodyForces(m, s.state, 1))
    if (f.source == ForceSource::Drag)
      CHECK((f.force - (-0.3 * (Vec3(0.4, -0.1, 0.3) - Vec3(2.0, 0.0, -1.0)))).norm() < 1e-15);
  CHECK(sim::bodyForces(m, s.state, 0).empty());  // a fixed particle does not move: no arrows
  CHECK(sim::bodyForces(m, s.state, 3).empty());
}

TEST_CASE("forces: a mass hanging on a spring feels m g down and k (l - r) up") {
  simtest::Builder b;
  b.fixed(Vec3(0.0, 0.0, 0.0));
  b.particle(Vec3(0.0, -1.5, 0.0), Vec3::Zero(), 2.0);
  b.spring(0, 1, 40.0, 1.0);
  const simtest::System s = b.build(Vec3(0.0, -kG, 0.0));
  const std::vector<BodyForce> f = sim::bodyForces(s.mass_spring, s.state, 1);
  REQUIRE(f.size() == 2);
  CHECK(f[0].source == ForceSource::Gravity);
  CHECK(f[0].force.y() == doctest::Approx(-2.0 * kG).epsilon(1e-15));
  CHECK(f[1].source == ForceSource::Spring);
  CHECK(f[1].index == 0);
  CHECK(f[1].force.y() == doctest::Approx(40.0 * 0.5).epsilon(1e-14));  // up, k (l - r)
  CHECK(f[1].force.x() == 0.0);
}

TEST_CASE("forces: a simple pendulum's rod pulls m g cos(theta) + m L omega^2 towards the pivot") {
  const double L = 1.5, mass = 2.0, theta = 0.7, omega = 1.3;
  const sim::PendulumModel m = pendtest::makeModel({L}, {mass}, Vec3(0.0, -kG, 0.0));
  const sim::State s = pendtest::makeState({theta}, {omega});
  const std::vector<BodyForce> f = sim::bodyForces(m, s, 0);
  REQUIRE(f.size() == 2);
  CHECK(f[0].source == ForceSource::Gravity);
  CHECK(f[1].source == ForceSource::Rod);
  CHECK(f[1].index == 0);
  const double tension = mass * kG * std::cos(theta) + mass * L * omega * omega;
  CHECK(f[1].force.norm() == doctest::Approx(tension).epsilon(1e-13));
  // towards the pivot: against e = (sin theta, -cos theta)
  const Vec3 e(std::sin(theta), -std::cos(theta), 0.0);
  CHECK(f[1].force.dot(e) == doctest::Approx(-tension).epsilon(1e-13));
}

TEST_CASE(
    "forces: a damped, grabbed triple pendulum's bobs: the forces add up to m a of the motion") {
  sim::PendulumModel m =
      pendtest::makeModel({1.0, 0.7, 0.5}, {1.5, 1.0, 0.6}, Vec3(0.0, -kG, 0.0), /*c=*/0.3);
  m.grab = 1, m.grab_target = Vec3(1.2, -0.4, 0.0), m.grab_stiffness = 20.0;
  const sim::State s = pendtest::makeState({0.9, -0.4, 1.7}, {0.5, -1.1, 2.0});
  // each bob's acceleration from its positions a little before and after, by a second difference
  constexpr double h = 1e-3;  // truncation ~h^2 * the fourth derivative; rounding ~1e-16 / h^2
  const Eigen::VectorXd before = pendulumAfter(m, s, -h), after = pendulumAfter(m, s, h);
  Eigen::VectorXd now;
  sim::pendulumPositions(m, s.x, now);
  for (int bob = 0; bob < 3; ++bob) {
    CAPTURE(bob);
    const Vec3 a =
        (after.segment<3>(3 * bob) - 2.0 * now.segment<3>(3 * bob) + before.segment<3>(3 * bob)) /
        (h * h);
    const std::vector<BodyForce> f = sim::bodyForces(m, s, bob);
    CHECK((sum(f) - m.mass[bob] * a).norm() <= 1e-5 * m.mass[bob] * a.norm());
    CHECK(count(f, ForceSource::Rod) == (bob < 2 ? 2 : 1));  // its rod, and the one below
    CHECK(count(f, ForceSource::Damping) == 1);
    CHECK(count(f, ForceSource::Grab) == (bob == 1 ? 1 : 0));
    for (const BodyForce& r : f)  // a rod pulls along itself
      if (r.source == ForceSource::Rod) {
        const double phi = s.x[r.index];
        CHECK(std::abs(r.force.dot(Vec3(std::cos(phi), std::sin(phi), 0.0))) <
              1e-12 * r.force.norm());
      }
  }
}

TEST_CASE("forces: a particle resting on the floor feels the floor push m g up, off it nothing") {
  simtest::Builder b;
  b.particle(Vec3(0.0, 0.0, 0.0), Vec3::Zero(), 3.0);
  simtest::System s = b.build(Vec3(0.0, -kG, 0.0));
  sim::Collider floor;  // the plane y = 0, solid below
  s.mass_spring.colliders = {floor};
  sim::Stepper st(s.mass_spring, s.state, sim::Method::SymplecticEuler, 0.01);
  REQUIRE_FALSE(st.advance(10));
  const sim::State before = st.state();
  REQUIRE_FALSE(st.advance());
  const sim::State& now = st.state();
  CHECK(now.x[1] == 0.0);  // held on the surface
  const Vec3 observed = (now.v.segment<3>(0) - before.v.segment<3>(0)) / (now.t - before.t);
  const std::vector<BodyForce> push = sim::contactForce(s.mass_spring, now, 0, observed);
  REQUIRE(push.size() == 1);
  CHECK(push[0].source == ForceSource::Contact);
  CHECK((push[0].force - Vec3(0.0, 3.0 * kG, 0.0)).norm() < 1e-12);
  // 1 cm above the floor it touches nothing: no push, whatever the motion
  sim::State above = now;
  above.x[1] = 0.01;
  CHECK(sim::contactForce(s.mass_spring, above, 0, Vec3(0.0, -kG, 0.0)).empty());
}
