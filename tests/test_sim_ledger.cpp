// The energy ledger (docs/integrators.md#the-energy-ledger): the balance
// E - E0 + W_dissipated + W_contacts - W_external is the integrator's own energy error, so it
// converges at the method's order while the dissipated work converges to a physical, nonzero value.
#include <doctest/doctest.h>

#include <cmath>

#include "lab/lane.hpp"
#include "scene/build.hpp"
#include "scene/load.hpp"
#include "sim/forces.hpp"
#include "sim/parallel.hpp"
#include "util.hpp"

using namespace testutil;

namespace {

// The ledger of `method` after `duration` at step h on `built`.
lab::Lane::Ledger ledgerAfter(const scene::Built& built, sim::Method method, double h,
                              double duration) {
  lab::Lane lane(built, built.state, method, h);
  const long long steps = std::llround(duration / h);
  for (long long k = 0; k < steps; ++k) REQUIRE(lane.step());
  return lane.ledger();
}

// Seed 003's spring pendulum with drag and a dashpot on its spring (a smooth, damped system whose
// errors are clean power laws; a cloth's fastest modes keep rk4 out of its asymptotic regime at
// step sizes where the residual still stands above round-off).
scene::Built dampedSpringPendulum() {
  scene::Built b = scene::build(scene::loadSceneArg("seed003_table1_case1"));
  REQUIRE_FALSE(b.setParameter(sim::Parameter::Drag, 0.05));
  REQUIRE_FALSE(b.setParameter(sim::Parameter::SpringDamping, 0.02));
  return b;
}

// log2 of the ratio of the residuals at h and h/2: the observed order of the balance's error.
double residualOrder(const scene::Built& b, sim::Method m, double h, double duration) {
  const double r1 = std::abs(ledgerAfter(b, m, h, duration).residual);
  const double r2 = std::abs(ledgerAfter(b, m, h / 2, duration).residual);
  return std::log2(r1 / r2);
}

}  // namespace

TEST_CASE(
    "ledger: rk4's residual falls as h^4 on a damped scene while the dissipated work does not") {
  const scene::Built b = dampedSpringPendulum();
  const double T = 1.0, h = 0.01;  // whole numbers of steps at h, h/2, h/4
  const auto l1 = ledgerAfter(b, sim::Method::Rk4, h, T);
  const auto l2 = ledgerAfter(b, sim::Method::Rk4, h / 2, T);
  const auto l4 = ledgerAfter(b, sim::Method::Rk4, h / 4, T);
  INFO("residuals " << l1.residual << " " << l2.residual << " " << l4.residual);
  INFO("dissipated " << l1.dissipated << " " << l2.dissipated << " " << l4.dissipated);
  CHECK(std::log2(std::abs(l1.residual / l2.residual)) == doctest::Approx(4.0).epsilon(0.1));
  CHECK(std::log2(std::abs(l2.residual / l4.residual)) == doctest::Approx(4.0).epsilon(0.1));
  // the dissipated work is physics: large, and the same at every step size to its own error
  CHECK(l4.dissipated > 1e-3 * std::abs(l4.total));
  CHECK(std::abs(l1.dissipated - l4.dissipated) < 1e-6 * l4.dissipated);
  CHECK(std::abs(l4.residual) < 1e-6 * l4.dissipated);
  CHECK(l1.external == 0.0);
}

TEST_CASE("ledger: each integrator's residual converges at its order or better") {
  const scene::Built damped = dampedSpringPendulum();
  struct Case {
    sim::Method method;
    double order, h;
  };
  // verlet is first order with velocity-dependent forces (docs/integrators.md#verlet); its and
  // time_fe's balances happen to converge at second order here
  for (const Case& c :
       {Case{sim::Method::Euler, 1, 0.0001}, Case{sim::Method::SymplecticEuler, 1, 0.0004},
        Case{sim::Method::Verlet, 1, 0.0004}, Case{sim::Method::ImplicitEuler, 1, 0.0004},
        Case{sim::Method::TimeFe, 1, 0.0004}}) {
    CAPTURE(sim::info(c.method).name);
    CHECK(residualOrder(damped, c.method, c.h, 1.0) > c.order - 0.25);
  }
  const scene::Built chain = scene::build(scene::loadSceneArg("chain20_damped"));
  REQUIRE(chain.pendulum()->joint_damping > 0.0);
  CHECK(residualOrder(chain, sim::Method::Rk4, 0.0025, 1.0) == doctest::Approx(4.0).epsilon(0.1));
  CHECK(residualOrder(chain, sim::Method::ImplicitMidpoint, 0.0025, 1.0) ==
        doctest::Approx(2.0).epsilon(0.1));
}

TEST_CASE("ledger: the drag's work in one pass is the drag force dotted with the displacement") {
  // a cloth with wind and two pinned corners: the pass skips the fixed particles, as the force does
  scene::Built b = scene::build(scene::loadSceneArg("cloth_in_wind"));
  const sim::MassSpringModel& m = *b.massSpring();
  REQUIRE(m.drag > 0.0);
  REQUIRE(m.wind.norm() > 0.0);
  REQUIRE_FALSE(m.anyDashpot());
  const Eigen::Index n = b.state.x.size();
  const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
  const Eigen::VectorXd x1 = b.state.x + 1e-3 * Eigen::VectorXd::LinSpaced(n, 3.0, -1.0);
  Eigen::VectorXd force;
  sim::dissipativeForce(m, b.state.x, v, force);
  const double expected = force.dot(x1 - b.state.x);
  CHECK(std::abs(expected) > 1e-6);
  CHECK(sim::dragWork(m, v, x1, &b.state.x) == doctest::Approx(expected).epsilon(1e-12));
  CHECK(sim::dragWork(m, v, x1) == doctest::Approx(force.dot(x1)).epsilon(1e-12));
}

TEST_CASE("ledger: with drag alone (no dashpots) the residual converges at each method's order") {
  scene::Built drag = scene::build(scene::loadSceneArg("seed003_table1_case1"));
  REQUIRE_FALSE(drag.setParameter(sim::Parameter::Drag, 0.05));
  REQUIRE_FALSE(drag.massSpring()->anyDashpot());
  struct Case {
    sim::Method method;
    double order, h;
  };
  for (const Case& c :
       {Case{sim::Method::Euler, 1, 0.0001}, Case{sim::Method::SymplecticEuler, 1, 0.0004},
        Case{sim::Method::Verlet, 1, 0.0004}, Case{sim::Method::Rk4, 4, 0.004},
        Case{sim::Method::ImplicitEuler, 1, 0.0004}, Case{sim::Method::TimeFe, 1, 0.0004}}) {
    CAPTURE(sim::info(c.method).name);
    CHECK(residualOrder(drag, c.method, c.h, 1.0) > c.order - 0.25);
    CHECK(ledgerAfter(drag, c.method, c.h, 1.0).dissipated > 1e-3);
  }
}

TEST_CASE(
    "ledger: no dissipation and no grab keep the work at exactly 0, a grab's work is external") {
  const scene::Built plain = scene::build(scene::loadSceneArg("seed003_table1_case1"));
  const auto l = ledgerAfter(plain, sim::Method::Rk4, 0.002, 1.0);
  CHECK(l.dissipated == 0.0);
  CHECK(l.external == 0.0);
  scene::Built grabbed = scene::build(scene::loadSceneArg("seed003_table1_case1"));
  grabbed.setGrab(1, sim::Vec3(0.5, -0.5, 0.0), 5.0);
  const auto g1 = ledgerAfter(grabbed, sim::Method::Rk4, 0.002, 1.0);
  const auto g2 = ledgerAfter(grabbed, sim::Method::Rk4, 0.001, 1.0);
  CHECK(std::abs(g1.external) > 1e-3);
  CHECK(std::log2(std::abs(g1.residual / g2.residual)) == doctest::Approx(4.0).epsilon(0.15));
}

TEST_CASE("ledger: implicit_euler's dissipated work never decreases") {
  // its quadrature is h F(x', v') . v' = -h (c |v'|^2 + sum_s c_s (u . dv')^2) <= 0 at each step
  // (an explicit method's F(v_n) . v_n+1 may be positive for a step of an oscillation)
  const scene::Built b = dampedSpringPendulum();
  lab::Lane lane(b, b.state, sim::Method::ImplicitEuler, 0.0005);
  double last = 0.0;
  for (int k = 0; k < 2000; ++k) {
    REQUIRE(lane.step());
    const double w = lane.ledger().dissipated;
    CHECK(w >= last);
    last = w;
  }
  CHECK(last > 0.0);
}

TEST_CASE("ledger: run and compare write it with --ledger, one row per written step and lane") {
  const auto run = springlab({"run", "chain20_damped", "--integrator", "rk4", "--dt", "0.001",
                              "--duration", "0.5", "--every", "50", "--ledger", "-"});
  REQUIRE(run.status == 0);
  CHECK(lines(run.out)[0] == "t,lane,total,dissipated,contacts,external,residual");
  const auto rows = csvRows(run.out);
  REQUIRE(rows.size() == 1 + 500 / 50);
  CHECK(rows.back()[3] > 0.01);  // dissipated, J
  for (const auto& r : rows) {
    CHECK(r[1] == 0.0);
    CHECK(std::abs(r[6]) < 1e-7);  // rk4 at dt = 1e-3: its energy error is tiny next to 2.6 J
    CHECK(r[4] == 0.0);            // no collider: no contacts' work
    CHECK(r[6] == doctest::Approx(r[2] - rows[0][2] + r[3] + r[4] - r[5]).epsilon(1e-9));
  }
  const auto cmp =
      springlab({"compare", "chain20_damped", "--dt", "0.001", "--lanes", "rk4,symplectic_euler",
                 "--duration", "0.5", "--every", "100", "--ledger", "-"});
  REQUIRE(cmp.status == 0);
  const auto lanes = csvRows(cmp.out);
  REQUIRE(lanes.size() == 2 * (1 + 500 / 100));
  // symplectic Euler's own energy error is far larger than rk4's
  CHECK(std::abs(lanes.back()[6]) > 1e3 * std::abs(lanes[lanes.size() - 2][6]));
  const auto both = springlab({"run", "cloth_16", "--energy", "-", "--ledger", "-"});
  CHECK(both.status == 2);
  CHECK(both.err ==
        "springlab run: at most one of --out, --energy and --ledger can be - (standard output)\n");
}

TEST_CASE("ledger: symplectic_euler's one-pass step gives the update's bits and the drag's work") {
  // cloth_in_wind: drag, wind and pinned corners; cloth_128: the force pass in blocks, the update
  // of each block inside it (on 1 and 2 threads); neither has dashpots or contacts
  for (const char* name : {"cloth_in_wind", "cloth_128"})
    for (const int threads : {1, 2}) {
      CAPTURE(name);
      CAPTURE(threads);
      scene::Built b = scene::build(scene::loadSceneArg(name));
      const sim::MassSpringModel& m = *b.massSpring();
      REQUIRE(m.colliders.empty());
      const double h = 1e-5;
      sim::State in = b.state;
      for (Eigen::Index j = 0; j < in.v.size(); ++j) in.v[j] = 0.3 * std::sin(0.7 * j);
      const int before = sim::kernelThreadsSetting();
      sim::setKernelThreads(threads);
      auto stepper = b.stepper(sim::Method::SymplecticEuler, h, in);
      const bool diverged = stepper->advance().has_value();
      sim::setKernelThreads(before);
      REQUIRE_FALSE(diverged);
      // acceleration() and the update as explicitStep writes them
      Eigen::VectorXd a, dissipative;
      sim::acceleration(m, in.x, in.v, a);
      const Eigen::VectorXd v1 = in.v + h * a;
      const Eigen::VectorXd x1 = in.x + h * v1;
      CHECK(stepper->state().v == v1);
      CHECK(stepper->state().x == x1);
      sim::dissipativeForce(m, in.x, in.v, dissipative);
      const double work = -dissipative.dot(x1 - in.x);
      CHECK(work > 0.0);
      CHECK(stepper->work().dissipated == doctest::Approx(work).epsilon(1e-12));
      CHECK(stepper->work().external == 0.0);
    }
  REQUIRE_FALSE(scene::build(scene::loadSceneArg("cloth_128")).massSpring()->spring_runs.empty());
}

// jelly_cube (xpbd, 10 substeps of one sweep) lands on its floor: the ledger splits the loss
// into the dashpots', the floor's and xpbd's own. Measured: at t = 2 s the balance is -2.97 J at
// 10 substeps and -1.37 J at 40 (docs/lab.md#the-energy-ledger).
TEST_CASE(
    "ledger: jelly_cube's balance is xpbd's own: negative, and it shrinks with the substeps") {
  scene::Built b = scene::build(scene::loadSceneArg("jelly_cube"));
  REQUIRE(b.massSpring());
  const double h = 1.0 / 60, e0 = b.energy(b.state).total();
  const auto l10 = ledgerAfter(b, sim::Method::Xpbd, h, 2.0);
  b.massSpring()->substeps = 40;
  const auto l40 = ledgerAfter(b, sim::Method::Xpbd, h, 2.0);
  for (const auto& l : {l10, l40}) {
    CHECK(l.contacts > 0.05 * e0);   // the floor took energy out
    CHECK(l.dissipated > 0.2 * e0);  // and the dashpots more
    CHECK(l.residual < 0.0);         // xpbd damps: it made no energy
    CHECK(l.total - e0 + l.dissipated + l.contacts - l.external == doctest::Approx(l.residual));
  }
  // the method's error converges away, the floor's work does not: the split is the physics'
  CHECK(std::abs(l40.residual) < 0.6 * std::abs(l10.residual));
  CHECK(l40.contacts == doctest::Approx(l10.contacts).epsilon(0.2));
}

TEST_CASE("ledger: a body at rest on the floor does no contact work, however hard it presses") {
  // jelly_cube at rest from about 3 s: its bottom layer carries the whole cube's weight into the
  // floor every substep, and the contacts' term must stay where it is (an estimate from the
  // kinetic energy the push-outs remove grew by 1.2 J a second here)
  const scene::Built b = scene::build(scene::loadSceneArg("jelly_cube"));
  lab::Lane lane(b, b.state, sim::Method::Xpbd, 1.0 / 60);
  for (int k = 0; k < 180; ++k) REQUIRE(lane.step());
  const double at3 = lane.ledger().contacts;
  for (int k = 0; k < 60; ++k) REQUIRE(lane.step());
  CHECK(std::abs(lane.ledger().contacts - at3) < 1e-3 * b.energy(b.state).total());
}
