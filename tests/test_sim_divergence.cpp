// Divergence is a value (docs/architecture.md#divergence-is-a-value): a stiff spring with a huge
// step under euler blows up; Stepper::advance(n) reports it and keeps the last finite state.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "fp_trap.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "sim/energy.hpp"
#include "test_sim_helpers.hpp"

using simtest::Vec3;

namespace {
// two stiff springs hanging from a fixed point: k/m = 1e9
auto stiffChain() {
  simtest::Builder b;
  b.fixed(Vec3(0.0, 0.0, 0.0));
  b.particle(Vec3(0.0, -1.1, 0.0), Vec3::Zero(), 1e-3);
  b.particle(Vec3(0.1, -2.1, 0.3), Vec3(0.2, 0.0, 0.0), 1e-3);
  b.spring(0, 1, 1e6, 1.0);
  b.spring(1, 2, 1e6, 1.0);
  return b.build(Vec3(0, -9.81, 0));
}
}  // namespace

TEST_CASE("sim: euler with a huge step on a stiff spring reports a divergence") {
  const testutil::FpTrapsOff overflowIsThePoint;
  // k/m = 1e9, h = 0.01: h w = 316, so euler multiplies the amplitude by ~h w every step
  const auto sys = stiffChain();
  const double h = 0.01;

  sim::Stepper st(sys.mass_spring, sys.state, sim::Method::Euler, h);
  const auto d = st.advance(100000);
  REQUIRE(d.has_value());
  MESSAGE(d->message());
  CHECK(d->method == sim::Method::Euler);
  CHECK(d->message().find("euler") != std::string::npos);
  // a moving particle is named (fixed particle 0 cannot be the culprit)
  CHECK(d->body >= 1);
  CHECK(d->body < sys.mass_spring.particles());
  // it happened quickly, at a step boundary, one step after the state the stepper kept
  const auto& s = st.state();
  CHECK(d->t > 0.0);
  CHECK(d->t < 1000 * h);
  CHECK(d->t == doctest::Approx(s.t + h));
  CHECK(std::lround(d->t / h) * h == doctest::Approx(d->t));
  // the kept state is the last finite one: finite positions, velocities and energy
  CHECK(s.x.allFinite());
  CHECK(s.v.allFinite());
  CHECK(std::isfinite(sim::energy(sys.mass_spring, s).total()));
  CHECK(s.x.head<3>() == Vec3::Zero());  // the fixed particle stayed put
  // and it is far from where it started: the blow-up was real
  CHECK(s.x.lpNorm<Eigen::Infinity>() > 1e6);

  // advancing again does not go past the divergence
  const sim::State kept = s;
  const auto d2 = st.advance(10);
  REQUIRE(d2.has_value());
  CHECK(st.state().x == kept.x);
  CHECK(st.state().t == kept.t);
}

TEST_CASE("sim: a force that overflows in one step names the moving particle, not the fixed one") {
  const testutil::FpTrapsOff overflowIsThePoint;
  // k (l - r) = inf at once: the fixed end's (ignored) force is inf too, which must not turn into
  // a NaN acceleration of the fixed particle (inf * 0)
  simtest::Builder b;
  b.fixed(Vec3(0.0, 0.0, 0.0));
  b.particle(Vec3(0.0, -11.0, 0.0), Vec3::Zero(), 1e-3);
  b.spring(0, 1, 1e308, 1.0);
  const auto sys = b.build(Vec3(0, -9.81, 0));
  for (const auto& integ : simtest::massSpringIntegrators()) {
    // xpbd and projective never form k (l - r): the spring is a rigid rod at this k for both
    // (xpbd's own test below)
    if (integ.method == sim::Method::Xpbd || integ.method == sim::Method::Projective) continue;
    SUBCASE(std::string(integ.name).c_str()) {
      sim::Stepper st(sys.mass_spring, sys.state, integ.method, 0.01);
      const auto d = st.advance(10);
      REQUIRE(d.has_value());
      INFO(d->message());
      CHECK(d->method == integ.method);
      CHECK(d->body == 1);
      CHECK(st.state().x == sys.state.x);  // nothing committed
    }
  }
}

TEST_CASE("sim: xpbd holds a spring of k = 1e308 at its rest length, where the forces overflow") {
  // the scene above: alpha~ = 1 / (k h^2) = 1e-304, so the projection puts the particle on the
  // circle of radius r at once and the swing stays on it
  simtest::Builder b;
  b.fixed(Vec3(0.0, 0.0, 0.0));
  b.particle(Vec3(0.3, -11.0, 0.0), Vec3::Zero(), 1e-3);
  b.spring(0, 1, 1e308, 1.0);
  const auto sys = b.build(Vec3(0, -9.81, 0));
  sim::Stepper st(sys.mass_spring, sys.state, sim::Method::Xpbd, 0.01);
  for (int i = 0; i < 100; ++i) {
    REQUIRE_FALSE(st.advance());
    CHECK(st.state().x.segment<3>(3).norm() == doctest::Approx(1.0).epsilon(1e-12));
  }
  CHECK(st.state().x.allFinite());
  CHECK(st.state().v.allFinite());
}

TEST_CASE("sim: the same scene with a sane step does not diverge") {
  // control for the test above: nothing in the model itself is broken
  const auto sys = stiffChain();
  sim::Stepper st(sys.mass_spring, sys.state, sim::Method::Verlet, 1e-6);
  CHECK_FALSE(st.advance(1000));
  CHECK(st.state().x.allFinite());
}

TEST_CASE("sim: a pendulum whose energy overflows names the link, not a particle") {
  const testutil::FpTrapsOff overflowIsThePoint;
  // three links at finite angles, the outermost spinning at omega rad/s: one euler step keeps the
  // angles and rates finite at 1e150 (the energy, ~omega^2, overflows) and not at 1e200
  const auto stepOnce = [](const std::string& omega) {
    const auto def = scene::parse(R"({"integrator": "euler", "system": {"type": "pendulum",
        "lengths": [1, 1, 1], "masses": [1, 1, 1], "angles": [0.1, 0.2, 0.3],
        "angular_velocities": [0, 0, )" +
                                      omega + "]}}",
                                  "spin.json");
    const auto built = scene::build(def);
    return built.stepper(def.integrator, 1e-3)->advance();
  };
  const auto energy = stepOnce("1e150");
  REQUIRE(energy.has_value());
  CHECK(energy->what == "the energy is not finite (largest value at link 2)");
  CHECK(energy->body == 2);
  const auto rates = stepOnce("1e200");
  REQUIRE(rates.has_value());
  CHECK(rates->what.find(" of link ") != std::string::npos);
  CHECK(rates->what.find("particle") == std::string::npos);
  CHECK(rates->body >= 0);
  CHECK(rates->body < 3);
}

TEST_CASE("floating-point traps are on in the tests, and FpTrapsOff lifts them for its scope") {
  CHECK((fegetexcept() & testutil::kTrappedExceptions) == testutil::kTrappedExceptions);
  {
    const testutil::FpTrapsOff off;
    CHECK((fegetexcept() & testutil::kTrappedExceptions) == 0);
    volatile double zero = 0.0;
    CHECK(std::isinf(1.0 / zero));  // would be SIGFPE with the traps on
  }
  CHECK((fegetexcept() & testutil::kTrappedExceptions) == testutil::kTrappedExceptions);
}

TEST_CASE("sim: a spring longer than 10 times its rest length is torn: a runaway naming it") {
  // particle 1 on a spring of rest length 1 m from fixed particle 0; particle 2 on a spring of
  // rest length 0, which the rule leaves alone (no stretch to measure against)
  simtest::Builder b;
  b.fixed(Vec3(0.0, 0.0, 0.0));
  b.particle(Vec3(1.0, 0.0, 0.0), Vec3::Zero(), 1.0);
  b.particle(Vec3(0.0, 1.0, 0.0), Vec3::Zero(), 1.0);
  b.spring(0, 1, 1.0, 1.0);
  b.spring(0, 2, 1.0, 0.0);
  const sim::System sys(b.build(Vec3::Zero()).mass_spring);
  const sim::State s0 = b.build(Vec3::Zero()).state;
  const sim::SceneScales scales = sys.scales(s0);
  const auto check = [&](double x1, double y2) {
    sim::State s = s0;
    s.x.segment<3>(3) = Vec3(x1, 0.0, 0.0);
    s.x.segment<3>(6) = Vec3(0.0, y2, 0.0);
    Eigen::VectorXd positions;
    sys.positions(s, positions);
    // the energy as at the start: only the springs' lengths can fire the rule
    return sys.runaway(scales, 0.0, 0.0, positions, 0.5, sim::Method::Verlet);
  };
  CHECK_FALSE(check(sim::kTornStretchFactor - 0.01, 100.0));
  const auto d = check(10.5, 100.0);
  REQUIRE(d);
  CHECK(d->what ==
        "runaway: torn: spring 0 (particles 0 and 1) is 10.5 times its rest length 1 m (the limit "
        "is 10)");
  CHECK(d->body == 0);
  CHECK(d->other_body == 1);
  CHECK(d->t == 0.5);
  CHECK(d->method == sim::Method::Verlet);
}
