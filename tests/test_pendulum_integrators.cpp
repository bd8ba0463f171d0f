// The integrators on the N-link rigid pendulum (docs/integrators.md; seed 004): the small-angle
// period, the observed orders, energy behaviour, joint damping, the implicit midpoint rule's
// residual, reversibility and symplecticity, and the pendulum scenes of the catalog. The
// dynamics themselves: tests/test_pendulum.cpp.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "pendulum_helpers.hpp"
#include "scene/build.hpp"
#include "scene/catalog.hpp"
#include "scene/load.hpp"
#include "sim/midpoint.hpp"
#include "sim/pendulum.hpp"
#include "sim/registry.hpp"
#include "sim/stepper.hpp"

using namespace pendtest;
using sim::Method;

namespace {

VectorXd stacked(const State& s) {
  VectorXd y(s.x.size() + s.v.size());
  y << s.x, s.v;
  return y;
}

State run(const PendulumModel& m, const State& s0, Method method, double h, long steps) {
  sim::Stepper st(m, s0, method, h);
  const auto d = st.advance(steps);
  REQUIRE_MESSAGE(!d, (d ? d->message() : ""));
  return st.state();
}

// One MidpointSolver step from s, then the relative residual of the contract's equations
//   phi' = phi + h w_m,  p' = p + h (-dH/dphi(phi_m, p_m) + Q(w_m)),  w_m = M(phi_m)^-1 p_m,
// evaluated with the dense oracle in long double (p = M(phi) w at both ends).
double midpointResidual(const PendulumModel& m, const State& s, double h) {
  sim::MidpointSolver solver;
  State out;
  REQUIRE(solver.step(m, s, h, out));
  const VecL p0 = denseMass(m, s.x) * s.v.cast<long double>();
  const VecL p1 = denseMass(m, out.x) * out.v.cast<long double>();
  const VectorXd phim = 0.5 * (s.x + out.x);
  const VecL pm = 0.5L * (p0 + p1);
  const VecL wm = denseMass(m, phim).partialPivLu().solve(pm);
  const VecL rphi = (out.x - s.x).cast<long double>() - (long double)h * wm;
  const VecL rp = p1 - p0 -
                  (long double)h * (-hamiltonianGradientOracle(m, phim, wm) +
                                    dampingOracle(m, wm.cast<double>()));
  const double sphi = s.x.norm() + std::abs(h) * (double)wm.norm();
  const double sp = (double)(p0.norm() + p1.norm());
  return std::max((double)rphi.norm() / sphi, (double)rp.norm() / sp);
}

}  // namespace

TEST_CASE("pendulum: small-angle period with rk4") {
  const double L = 1.0, g = 9.81, theta0 = 0.01, h = 1e-3;
  const auto p = makeModel({L}, {1.0}, Vec3(0.0, -g, 0.0));
  sim::Stepper st(p, makeState({theta0}, {0.0}), Method::Rk4, h);
  std::vector<double> crossings;
  while (st.state().t < 10.5) {
    const State a = st.state();
    REQUIRE(!st.advance());
    const State& b = st.state();
    if ((a.x[0] > 0) == (b.x[0] > 0)) continue;
    // cubic Hermite interpolant of phi on the step, root by bisection
    auto phiAt = [&](double s) {
      const double s2 = s * s, s3 = s2 * s;
      return (2 * s3 - 3 * s2 + 1) * a.x[0] + (s3 - 2 * s2 + s) * h * a.v[0] +
             (-2 * s3 + 3 * s2) * b.x[0] + (s3 - s2) * h * b.v[0];
    };
    double lo = 0, hi = 1;
    for (int it = 0; it < 60; ++it) {
      const double mid = 0.5 * (lo + hi);
      ((phiAt(mid) > 0) == (a.x[0] > 0) ? lo : hi) = mid;
    }
    crossings.push_back(a.t + 0.5 * (lo + hi) * h);
  }
  REQUIRE(crossings.size() >= 9);
  const double period = 2 * (crossings.back() - crossings.front()) / (crossings.size() - 1);
  const double linear = 2 * kPi * std::sqrt(L / g);
  // the exact finite-amplitude period: 2 pi sqrt(L/g) / agm(1, cos(theta0/2))
  double a = 1, b = std::cos(theta0 / 2);
  for (int i = 0; i < 10; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b), a = an;
  }
  const double exact = linear / a;
  MESSAGE("small-angle period " << period << " s over " << (crossings.size() - 1) / 2.0
                                << " periods: vs 2 pi sqrt(L/g) " << (period - linear) / linear
                                << ", vs exact " << (period - exact) / exact);
  CHECK(std::abs(period - linear) <= 1e-4 * linear);
  CHECK(std::abs(period - exact) <= 1e-9 * exact);
}

TEST_CASE("pendulum: observed orders of the integrators on seed 004's double pendulum") {
  const auto p = seedDouble();
  const State s0 = seedDoubleState();
  const double T = 1.0;
  struct Case {
    Method method;
    double h;  // the largest of h, h/2, h/4
    double lo, hi;
  };
  const Case cases[] = {{Method::Euler, 1e-3, 0.8, 1.2},
                        {Method::SymplecticEuler, 1e-3, 0.8, 1.2},
                        {Method::Verlet, 1e-3, 0.8, 1e9},
                        {Method::Rk4, 1e-2, 3.8, 4.2},
                        {Method::ImplicitMidpoint, 1e-2, 1.8, 2.2}};
  for (const auto& c : cases) {
    CAPTURE(std::string(sim::info(c.method).name));
    VectorXd y[3];
    for (int i = 0; i < 3; ++i) {
      const double h = c.h / (1 << i);
      y[i] = stacked(run(p, s0, c.method, h, std::lround(T / h)));
    }
    const double d1 = (y[0] - y[1]).norm(), d2 = (y[1] - y[2]).norm();
    const double order = std::log2(d1 / d2);
    MESSAGE(std::string(sim::info(c.method).name) << ": h = " << c.h << ", " << c.h / 2 << ", "
                                                  << c.h / 4 << ": observed order " << order);
    CHECK(order >= c.lo);
    CHECK(order <= c.hi);
  }
}

namespace {

// max |E - E0| over [0, T] and over the first and last tenth
struct EnergyDeviation {
  double all = 0, first = 0, last = 0;
};

EnergyDeviation trackEnergy(const PendulumModel& p, const State& s0, double E0, Method m, double h,
                            long steps) {
  sim::Stepper st(p, s0, m, h);
  EnergyDeviation d;
  for (long i = 1; i <= steps; ++i) {
    const auto div = st.advance();
    REQUIRE_MESSAGE(!div, (div ? div->message() : ""));
    const double e = std::abs(energyOracle(p, st.state()) - E0);
    d.all = std::max(d.all, e);
    if (i <= steps / 10) d.first = std::max(d.first, e);
    if (i > steps - steps / 10) d.last = std::max(d.last, e);
  }
  return d;
}

}  // namespace

TEST_CASE("pendulum: energy of seed 004's double pendulum (rk4 converges 16x, midpoint bounded)") {
  const auto p = seedDouble();
  const State s0 = seedDoubleState();
  const double E0 = energyOracle(p, s0);
  auto track = [&](Method m, double h, long steps) { return trackEnergy(p, s0, E0, m, h, steps); };

  SUBCASE("rk4 over 20 s: halving h divides the error by about 16") {
    const double e1 = track(Method::Rk4, 0.004, 5000).all,
                 e2 = track(Method::Rk4, 0.002, 10000).all;
    MESSAGE("rk4 max |E-E0| over 20 s: h = 0.004: " << e1 << " J, h = 0.002: " << e2 << " J, ratio "
                                                    << e1 / e2);
    CHECK(e1 / e2 >= 12);
    CHECK(e1 / e2 <= 20);
    CHECK(e2 < 1e-4 * std::abs(E0));
  }

  SUBCASE("implicit_midpoint: no drift over 1e6 steps; euler drifts") {
    const auto t0 = std::chrono::steady_clock::now();
    const EnergyDeviation mid = track(Method::ImplicitMidpoint, 0.01, 1000000);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const EnergyDeviation eul = track(Method::Euler, 0.001, 10000);
    MESSAGE("implicit_midpoint h = 0.01, 1e6 steps ("
            << secs << " s): max |E-E0| " << mid.all << " J (|E0| = " << std::abs(E0)
            << " J), first tenth " << mid.first << " J, last tenth " << mid.last
            << " J; euler h = 0.001, 1e4 steps: first tenth " << eul.first << " J, last tenth "
            << eul.last << " J");
    // |E0| depends on where the pivot is (the zero of height); the pivot-independent scale is the
    // half-range of the potential, g sum_i m_i (R_0 + ... + R_i) = 68.6 J here (|E0| = 8.49 J)
    const double scale = 9.8 * (p.mass[0] * p.length[0] + p.mass[1] * (p.length[0] + p.length[1]));
    CHECK(mid.all < 2e-3 * scale);
    CHECK(mid.last <= 2 * mid.first);
    CHECK(eul.last > 4 * eul.first);
    CHECK(eul.last > 10 * mid.all);
  }

  SUBCASE("every implicit_midpoint step reaches the 1e-12 residual") {
    sim::MidpointSolver solver;
    State s = s0, next;
    double worst = 0;
    for (int i = 0; i < 500; ++i) {
      REQUIRE(solver.step(p, s, 0.01, next));
      CHECK(solver.lastResidual() <= 1e-12);
      worst = std::max(worst, solver.lastResidual());
      s = next;
    }
    MESSAGE("MidpointSolver, 500 steps h = 0.01: max lastResidual " << worst);
  }
}

TEST_CASE("pendulum: joint damping dissipates at -2 x the Rayleigh function") {
  const std::vector<double> R = {0.5, 0.4, 0.3, 0.35, 0.2}, m = {1.0, 0.6, 0.8, 0.3, 0.5};
  const State s0 = makeState({1.2, -0.4, 2.0, 0.7, -1.5}, {0.5, -1.0, 2.0, 0.0, -3.0});

  SUBCASE("c > 0: dE/dt = -2 R(w)") {
    const auto p = makeModel(R, m, Vec3(1.5, -9.81, 0.0), 0.05, Vec3(0.3, -0.2, 0.0));
    // dE/dt by a fourth-order central difference of the energy along rk4 steps: both its
    // truncation and rk4's energy error per step are O(h^4) (measured ~1e-7 relative at this h)
    const double h = 5e-4;
    sim::Stepper st(p, s0, Method::Rk4, h);
    std::vector<double> E;
    std::vector<State> S;
    for (int i = 0; i <= 4000; ++i) {
      E.push_back(energyOracle(p, st.state()));
      S.push_back(st.state());
      REQUIRE(!st.advance());
    }
    double worst = 0;
    for (int i = 200; i <= 3800; i += 200) {
      const double dEdt = (-E[i + 2] + 8 * E[i + 1] - 8 * E[i - 1] + E[i - 2]) / (12 * h);
      const double ref = -2 * sim::rayleigh(p, S[i].v);
      // independent: -c sum (w_i - w_{i-1})^2
      double ray = 0;
      for (int k = 0; k < 5; ++k) {
        const double d = S[i].v[k] - (k > 0 ? S[i].v[k - 1] : 0.0);
        ray += d * d;
      }
      CHECK(ref == doctest::Approx(-p.joint_damping * ray).epsilon(1e-13));
      CAPTURE(i);
      CHECK(std::abs(dEdt - ref) <= 1e-6 * std::abs(ref));
      worst = std::max(worst, std::abs(dEdt - ref) / std::abs(ref));
    }
    CHECK(E.back() < E.front() - 0.01);
    MESSAGE("damped 5-link chain: max |dE/dt + 2R| / 2R = " << worst);
  }

  SUBCASE("c = 0: rk4 conserves the energy") {
    const auto p = makeModel(R, m, Vec3(1.5, -9.81, 0.0), 0.0, Vec3(0.3, -0.2, 0.0));
    sim::Stepper st(p, s0, Method::Rk4, 2.5e-4);
    const double E0 = energyOracle(p, s0);
    double worst = 0;
    for (int i = 0; i < 8000; ++i) {
      REQUIRE(!st.advance());
      worst = std::max(worst, std::abs(energyOracle(p, st.state()) - E0));
    }
    MESSAGE("undamped 5-link chain, rk4 h = 2.5e-4, 2 s: max |E-E0| = " << worst << " J (E0 = "
                                                                        << E0 << " J)");
    CHECK(worst <= 1e-9 * std::abs(E0));
  }
}

namespace {

// The symmetric map: forward with h then back with -h returns the state, from random states of
// random 1-, 2- and 5-link chains. Returns the largest relative return error.
double midpointReturnError() {
  double worstRev = 0;
  for (int n : {1, 2, 5}) {
    for (int trial = 0; trial < 5; ++trial) {
      CAPTURE(n);
      const auto p = randomModel(n, Vec3(uniform(-3, 3), -9.81, 0.0), 0.0, Vec3::Zero());
      State s;
      s.x = randomVector(n, -2.0, 2.0), s.v = randomVector(n, -2.0, 2.0);
      sim::MidpointSolver solver;
      State fwd, back;
      REQUIRE(solver.step(p, s, 0.02, fwd));
      REQUIRE(solver.step(p, fwd, -0.02, back));
      const double rev = (stacked(back) - stacked(s)).norm() / stacked(s).norm();
      // exact reversibility up to the Newton tolerance (1e-13 of each half's scale) times the
      // map's conditioning; a non-symmetric one-step method misses by O(h^2) ~ 1e-3 here
      CHECK(rev <= 1e-10);
      CHECK(back.t == doctest::Approx(s.t));
      worstRev = std::max(worstRev, rev);
    }
  }
  return worstRev;
}

// A state's canonical coordinates z = (phi, p), p = M(phi) w with the dense oracle, and back.
VectorXd toCanonical(const PendulumModel& p, const State& s) {
  const auto n = s.x.size();
  VectorXd z(2 * n);
  z << s.x, (denseMass(p, s.x) * s.v.cast<long double>()).cast<double>();
  return z;
}
State fromCanonical(const PendulumModel& p, const VectorXd& z) {
  const auto n = z.size() / 2;
  State s;
  s.x = z.head(n);
  s.v = denseMass(p, s.x)
            .partialPivLu()
            .solve(VectorXd(z.tail(n)).cast<long double>())
            .cast<double>();
  return s;
}

// |J^T Omega J - Omega| of a map of (phi, p), its Jacobian J at z0 by central differences.
template <class Map>
double symplecticDefect(Map&& map, const VectorXd& z0) {
  const auto n = z0.size() / 2;
  Eigen::MatrixXd J(2 * n, 2 * n);
  const double d = 1e-5;
  for (int j = 0; j < 2 * n; ++j) {
    VectorXd a = z0, b = z0;
    a[j] += d, b[j] -= d;
    J.col(j) = (map(a) - map(b)) / (2 * d);
  }
  Eigen::MatrixXd Om = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  Om.topRightCorner(n, n).setIdentity();
  Om.bottomLeftCorner(n, n) = -Eigen::MatrixXd::Identity(n, n);
  return (J.transpose() * Om * J - Om).norm();
}

}  // namespace

TEST_CASE("pendulum: implicit_midpoint is time-reversible and symplectic") {
  const double worstRev = midpointReturnError();
  MESSAGE("implicit_midpoint h = 0.02 then -0.02: max relative return error " << worstRev);

  // the step solves the midpoint equations (checked with the dense oracle), and its Jacobian in
  // (phi, p) satisfies J^T Omega J = Omega
  const auto p = seedDouble();
  const double h = 0.05;
  const int n = 2;
  sim::MidpointSolver solver;
  auto midpointMap = [&](const VectorXd& z) {
    State out;
    REQUIRE(solver.step(p, fromCanonical(p, z), h, out));
    return toCanonical(p, out);
  };
  auto eulerMap = [&](const VectorXd& z) {  // explicit Euler in (phi, p): not symplectic
    const State s = fromCanonical(p, z);
    VectorXd out(2 * n);
    out << z.head(n) + h * s.v,
        z.tail(n) - h * hamiltonianGradientOracle(p, s.x, s.v.cast<long double>()).cast<double>();
    return out;
  };
  const State s0 = makeState({1.1, -0.6}, {0.8, -1.7});
  const VectorXd z0 = toCanonical(p, s0);

  // the step solves the contract's equations (checked with the dense oracle), with and
  // without joint damping
  {
    const double r0 = midpointResidual(p, s0, h);
    const auto pd = makeModel({0.7, 1.1, 0.5}, {1.5, 0.4, 0.9}, Vec3(2.0, -9.81, 0.0), 0.3);
    const double r1 = midpointResidual(pd, makeState({0.4, 2.1, -1.0}, {1.0, -2.0, 3.0}), h);
    MESSAGE("midpoint equations with the dense oracle: relative residual " << r0 << " (undamped), "
                                                                           << r1 << " (damped)");
    CHECK(r0 <= 1e-12);
    CHECK(r1 <= 1e-12);
  }

  const double mid = symplecticDefect(midpointMap, z0), eul = symplecticDefect(eulerMap, z0);
  MESSAGE("|J^T Omega J - Omega|: implicit_midpoint " << mid << ", explicit Euler " << eul);
  CHECK(mid <= 1e-6);
  CHECK(eul >= 1e-3);
}

TEST_CASE("pendulum: every pendulum scene of the catalog runs 1000 steps finite") {
  int count = 0;
  for (const auto& name : scene::builtinNames()) {
    const bool pendulumScene = name.starts_with("seed004_") || name.starts_with("seed002_rigid") ||
                               name.starts_with("pendulum_") || name.starts_with("rope_") ||
                               name.starts_with("chain20_");
    if (!pendulumScene) continue;
    CAPTURE(name);
    const auto def = scene::loadSceneArg(name);
    const auto b = scene::build(def);
    REQUIRE(b.kind() == sim::SystemKind::Pendulum);
    ++count;
    std::vector<Method> methods = {Method::Rk4};
    if (b.pendulum()->links() <= 20) methods.push_back(Method::ImplicitMidpoint);
    for (Method m : methods) {
      CAPTURE(std::string(sim::info(m).name));
      const auto st = b.stepper(m, def.dt);
      const double E0 = b.energy(st->state()).total();
      const auto d = st->advance(1000);
      CHECK_MESSAGE(!d, (d ? d->message() : ""));
      CHECK(st->state().x.allFinite());
      CHECK(st->state().v.allFinite());
      const double E = b.energy(st->state()).total();
      CHECK(std::isfinite(E));
      if (b.pendulum()->joint_damping > 0) CHECK(E <= E0 + 1e-9 * (1 + std::abs(E0)));
    }
    if (name == "seed004_double_pendulum") {
      const auto& p = *b.pendulum();
      CHECK(p.links() == 2);
      CHECK(p.length[0] == 2.0);
      CHECK(p.length[1] == 1.0);
      CHECK(p.mass[0] == 2.0);
      CHECK(p.mass[1] == 1.0);
      CHECK(p.gravity.y() == -9.8);
      CHECK(b.state.x[0] == doctest::Approx(kPi / 2).epsilon(1e-15));
      CHECK(b.state.x[1] == doctest::Approx(kPi / 6).epsilon(1e-15));
    }
  }
  CHECK(count >= 9);
}
