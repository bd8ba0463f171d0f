// The N-link rigid pendulum (docs/scenes.md#pendulums, docs/integrators.md; seed 004): the O(N)
// tension recursion of sim/pendulum.cpp against seed 004's closed form (N = 2) and its dense N x N
// system (written out here independently, solved in long double), the canonical momenta and the
// Hamiltonian gradient, the integrators' orders, energy behaviour, joint damping, the implicit
// midpoint rule's residual, reversibility and symplecticity, the pendulum scenes of the
// catalog, and the recursion's sin and cos (within an ulp, the same bits on every vector path).
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "fp_trap.hpp"
#include "scene/build.hpp"
#include "scene/catalog.hpp"
#include "scene/load.hpp"
#include "sim/midpoint.hpp"
#include "sim/pendulum.hpp"
#include "sim/registry.hpp"
#include "sim/simd.hpp"
#include "sim/stepper.hpp"

namespace {

using Eigen::VectorXd;
using sim::Method;
using sim::PendulumModel;
using sim::State;
using sim::Vec3;
using MatL = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
using VecL = Eigen::Matrix<long double, Eigen::Dynamic, 1>;
constexpr double kPi = std::numbers::pi;

PendulumModel makeModel(const std::vector<double>& R, const std::vector<double>& m,
                        const Vec3& g = Vec3(0.0, -9.8, 0.0), double c = 0.0,
                        const Vec3& pivot = Vec3::Zero()) {
  PendulumModel p;
  const int n = static_cast<int>(R.size());
  p.length = Eigen::Map<const VectorXd>(R.data(), n);
  p.mass = Eigen::Map<const VectorXd>(m.data(), n);
  p.gravity = g;
  p.joint_damping = c;
  p.pivot = pivot;
  return p;
}

State makeState(const std::vector<double>& phi, const std::vector<double>& w) {
  State s;
  s.x = Eigen::Map<const VectorXd>(phi.data(), static_cast<Eigen::Index>(phi.size()));
  s.v = Eigen::Map<const VectorXd>(w.data(), static_cast<Eigen::Index>(w.size()));
  return s;
}

// seed 004, Figs. 2-3: R = (2, 1), m = (2, 1), phi = (pi/2, pi/6), at rest, g = 9.8
PendulumModel seedDouble() {
  return makeModel({2.0, 1.0}, {2.0, 1.0});
}
State seedDoubleState() {
  return makeState({kPi / 2, kPi / 6}, {0.0, 0.0});
}

// ---- independent oracles -------------------------------------------------------------------

// mu_k = sum_{i >= k} m_i
VecL suffixMass(const PendulumModel& p) {
  const int n = p.links();
  VecL mu(n);
  long double s = 0;
  for (int k = n - 1; k >= 0; --k) mu[k] = s += p.mass[k];
  return mu;
}

// M_kj = R_k R_j cos(phi_j - phi_k) mu_max(k,j)   (seed 004's a[k, j] times R_k)
MatL denseMass(const PendulumModel& p, const VectorXd& phi) {
  const int n = p.links();
  const VecL mu = suffixMass(p);
  MatL M(n, n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      M(k, j) = (long double)p.length[k] * p.length[j] *
                std::cos((long double)phi[j] - (long double)phi[k]) * mu[std::max(k, j)];
  return M;
}

// joint damping Q_i = -c (w_i - w_{i-1}) + c (w_{i+1} - w_i), w_{-1} = 0, last term absent at the
// end
VecL dampingOracle(const PendulumModel& p, const VectorXd& w) {
  const int n = p.links();
  const long double c = p.joint_damping;
  VecL q(n);
  for (int i = 0; i < n; ++i) {
    q[i] = -c * ((long double)w[i] - (i > 0 ? (long double)w[i - 1] : 0.0L));
    if (i + 1 < n) q[i] += c * ((long double)w[i + 1] - (long double)w[i]);
  }
  return q;
}

// generalised gravity force -dV/dphi_k = mu_k R_k (gx cos phi_k + gy sin phi_k)
VecL gravityForce(const PendulumModel& p, const VectorXd& phi) {
  const VecL mu = suffixMass(p);
  VecL f(p.links());
  for (int k = 0; k < p.links(); ++k)
    f[k] = mu[k] * p.length[k] *
           (p.gravity.x() * std::cos((long double)phi[k]) +
            p.gravity.y() * std::sin((long double)phi[k]));
  return f;
}

// rhs_k = R_k sum_j mu_max(k,j) R_j w_j^2 sin(phi_j - phi_k) + Q_gravity,k + Q_damping,k
VecL denseRhs(const PendulumModel& p, const VectorXd& phi, const VectorXd& w) {
  const int n = p.links();
  const VecL mu = suffixMass(p);
  VecL rhs = gravityForce(p, phi) + dampingOracle(p, w);
  for (int k = 0; k < n; ++k) {
    long double s = 0;
    for (int j = 0; j < n; ++j)
      s += mu[std::max(k, j)] * p.length[j] * (long double)w[j] * w[j] *
           std::sin((long double)phi[j] - (long double)phi[k]);
    rhs[k] += p.length[k] * s;
  }
  return rhs;
}

VectorXd denseAcceleration(const PendulumModel& p, const VectorXd& phi, const VectorXd& w) {
  const VecL a = denseMass(p, phi).partialPivLu().solve(denseRhs(p, phi, w));
  return a.cast<double>();
}

// V = -sum_i m_i g . x_i, x_i = pivot + sum_{j<=i} R_j (sin phi_j, -cos phi_j)
double potentialOracle(const PendulumModel& p, const VectorXd& phi) {
  long double x = p.pivot.x(), y = p.pivot.y(), V = 0;
  for (int i = 0; i < p.links(); ++i) {
    x += p.length[i] * std::sin((long double)phi[i]);
    y -= p.length[i] * std::cos((long double)phi[i]);
    V -= p.mass[i] * (p.gravity.x() * x + p.gravity.y() * y + p.gravity.z() * p.pivot.z());
  }
  return static_cast<double>(V);
}

// energy from the bobs' Cartesian velocities
double energyOracle(const PendulumModel& p, const State& s) {
  long double vx = 0, vy = 0, K = 0;
  for (int i = 0; i < p.links(); ++i) {
    vx += p.length[i] * s.v[i] * std::cos((long double)s.x[i]);
    vy += p.length[i] * s.v[i] * std::sin((long double)s.x[i]);
    K += 0.5L * p.mass[i] * (vx * vx + vy * vy);
  }
  return static_cast<double>(K) + potentialOracle(p, s.x);
}

// H(phi, p) = 1/2 p^T M(phi)^-1 p + V(phi)
double hamiltonianOracle(const PendulumModel& m, const VectorXd& phi, const VectorXd& p) {
  const VecL pl = p.cast<long double>();
  const VecL w = denseMass(m, phi).partialPivLu().solve(pl);
  return static_cast<double>(0.5L * pl.dot(w)) + potentialOracle(m, phi);
}

// dH/dphi_k at fixed p, from d(M^-1)/dphi = -M^-1 (dM/dphi) M^-1, with w = M^-1 p:
//   -w_k R_k sum_j mu_max(k,j) R_j w_j sin(phi_j - phi_k) - Q_gravity,k
VecL hamiltonianGradientOracle(const PendulumModel& m, const VectorXd& phi, const VecL& w) {
  const int n = m.links();
  const VecL mu = suffixMass(m);
  VecL g = -gravityForce(m, phi);
  for (int k = 0; k < n; ++k) {
    long double s = 0;
    for (int j = 0; j < n; ++j)
      s += mu[std::max(k, j)] * m.length[j] * w[j] *
           std::sin((long double)phi[j] - (long double)phi[k]);
    g[k] -= w[k] * m.length[k] * s;
  }
  return g;
}

double relErr(const VectorXd& a, const VectorXd& b) {
  const double s = b.norm();
  return s > 0 ? (a - b).norm() / s : a.norm();
}

std::mt19937_64& rng() {
  static std::mt19937_64 r(20240604);
  return r;
}
double uniform(double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng());
}
VectorXd randomVector(int n, double lo, double hi) {
  VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = uniform(lo, hi);
  return v;
}

PendulumModel randomModel(int n, const Vec3& g, double c, const Vec3& pivot) {
  PendulumModel p;
  p.length = randomVector(n, 0.2, 2.0);
  p.mass = randomVector(n, 0.1, 3.0);
  p.gravity = g;
  p.joint_damping = c;
  p.pivot = pivot;
  return p;
}

VectorXd accel(const PendulumModel& m, const VectorXd& phi, const VectorXd& w) {
  sim::PendulumWork work;
  VectorXd a;
  sim::pendulumAcceleration(m, phi, w, a, work);
  return a;
}

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

TEST_CASE("pendulum: N = 2 accelerations equal seed 004's closed form") {
  const double g = 9.8;
  auto check = [&](const PendulumModel& p, const VectorXd& phi, const VectorXd& w) {
    const double R0 = p.length[0], R1 = p.length[1], m0 = p.mass[0], m1 = p.mass[1];
    const double d01 = phi[0] - phi[1];
    const double a = (m0 + m1) * R0, b = m1 * R1 * std::cos(d01), c = m1 * R0 * std::cos(d01),
                 d = m1 * R1;
    const double e = -m1 * R1 * w[1] * w[1] * std::sin(d01) - g * (m0 + m1) * std::sin(phi[0]);
    const double f = m1 * R0 * w[0] * w[0] * std::sin(d01) - g * m1 * std::sin(phi[1]);
    VectorXd ref(2);
    ref << (d * e - b * f) / (a * d - b * c), (a * f - c * e) / (a * d - b * c);
    const VectorXd acc = accel(p, phi, w);
    CAPTURE(phi.transpose());
    CAPTURE(w.transpose());
    CHECK(relErr(acc, ref) <= 1e-12);
    return relErr(acc, ref);
  };
  double worst = check(seedDouble(), seedDoubleState().x, seedDoubleState().v);
  for (int trial = 0; trial < 200; ++trial) {
    const auto p = makeModel({uniform(0.2, 3.0), uniform(0.2, 3.0)},
                             {uniform(0.1, 4.0), uniform(0.1, 4.0)}, Vec3(0.0, -g, 0.0));
    worst = std::max(worst, check(p, randomVector(2, -kPi, kPi), randomVector(2, -4.0, 4.0)));
  }
  MESSAGE("N = 2 vs seed 004 closed form: max relative deviation " << worst);
}

TEST_CASE("pendulum: O(N) recursion equals the dense N x N system, momenta and dH/dphi") {
  double worstAcc = 0, worstP = 0, worstV = 0, worstGrad = 0, worstFd = 0, worstE = 0;
  for (int n = 1; n <= 64; ++n) {
    for (int trial = 0; trial < 3; ++trial) {
      CAPTURE(n);
      CAPTURE(trial);
      // tilted gravity, an offset pivot, joint damping (trial 0 undamped, upright gravity)
      const Vec3 g =
          trial == 0 ? Vec3(0.0, -9.81, 0.0) : Vec3(uniform(-5, 5), uniform(-12, -3), 0.0);
      const double c = trial == 0 ? 0.0 : uniform(0.05, 2.0);
      const Vec3 pivot(uniform(-2, 2), uniform(-2, 2), trial == 2 ? 0.5 : 0.0);
      const PendulumModel p = randomModel(n, g, c, pivot);
      const VectorXd phi = randomVector(n, -kPi, kPi), w = randomVector(n, -3.0, 3.0);

      // accelerations
      const VectorXd ref = denseAcceleration(p, phi, w);
      const double ea = relErr(accel(p, phi, w), ref);
      CHECK(ea <= 1e-10);
      worstAcc = std::max(worstAcc, ea);
      // the damping force and the Rayleigh function
      VectorXd q;
      sim::jointDampingForce(p, w, q);
      const VectorXd qref = dampingOracle(p, w).cast<double>();
      CHECK((q - qref).norm() <= 1e-14 * (1.0 + qref.norm()));
      const double ray = sim::rayleigh(p, w);
      CHECK(-2.0 * ray == doctest::Approx(qref.dot(w)).epsilon(1e-12));
      if (c > 0 && n > 0) CHECK(ray > 0.0);

      // p = M w, w = M^-1 p
      const MatL M = denseMass(p, phi);
      const VectorXd Mw = (M * w.cast<long double>()).cast<double>();
      VectorXd mom;
      sim::pendulumMomentum(p, phi, w, mom);
      const double ep = (mom - Mw).norm() / (M.cast<double>().norm() * w.norm());
      CHECK(ep <= 1e-13);
      worstP = std::max(worstP, ep);
      const VectorXd pr = randomVector(n, -5.0, 5.0);
      const VecL wl = M.partialPivLu().solve(pr.cast<long double>());
      VectorXd vel;
      sim::PendulumWork work;
      sim::pendulumVelocity(p, phi, pr, vel, work);
      const double ev = relErr(vel, wl.cast<double>());
      CHECK(ev <= 1e-10);
      worstV = std::max(worstV, ev);

      // dH/dphi at fixed p: the analytic oracle, and (for some N) a finite difference of H
      VectorXd grad;
      sim::pendulumHamiltonianGradient(p, phi, wl.cast<double>(), grad);
      const VectorXd gref = hamiltonianGradientOracle(p, phi, wl).cast<double>();
      const double eg = relErr(grad, gref);
      CHECK(eg <= 1e-10);
      worstGrad = std::max(worstGrad, eg);
      if (n <= 8 || n == 16 || n == 33 || n == 64) {
        VectorXd fd(n);
        const double dl = 1e-3;
        for (int k = 0; k < n; ++k) {
          auto H = [&](double s) {
            VectorXd ph = phi;
            ph[k] += s;
            return hamiltonianOracle(p, ph, pr);
          };
          fd[k] = (-H(2 * dl) + 8 * H(dl) - 8 * H(-dl) + H(-2 * dl)) / (12 * dl);
        }
        const double ef = relErr(grad, fd);
        CHECK(ef <= 1e-6);
        worstFd = std::max(worstFd, ef);
      }

      // energy: the implementation, the Cartesian oracle and 1/2 w^T M w + V agree
      const State s = [&] {
        State st;
        st.x = phi, st.v = w;
        return st;
      }();
      const double E = sim::energy(p, s).total(), Eref = energyOracle(p, s);
      const double Emat =
          static_cast<double>(0.5L * w.cast<long double>().dot(M * w.cast<long double>())) +
          potentialOracle(p, phi);
      const double scale =
          1.0 + std::abs(sim::energy(p, s).kinetic) + std::abs(sim::energy(p, s).potential);
      CHECK(std::abs(E - Eref) <= 1e-12 * scale);
      CHECK(std::abs(Emat - Eref) <= 1e-12 * scale);
      worstE = std::max(worstE, std::abs(E - Eref) / scale);
    }
  }
  MESSAGE("O(N) vs dense (N = 1..64, long double oracle): acc "
          << worstAcc << ", p = Mw " << worstP << ", M^-1 p " << worstV << ", dH/dphi analytic "
          << worstGrad << ", dH/dphi FD " << worstFd << ", energy " << worstE);
}

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

TEST_CASE("pendulum: energy of seed 004's double pendulum (rk4 converges 16x, midpoint bounded)") {
  const auto p = seedDouble();
  const State s0 = seedDoubleState();
  const double E0 = energyOracle(p, s0);
  // max |E - E0| over [0, T] and over the first and last tenth
  struct Dev {
    double all = 0, first = 0, last = 0;
  };
  auto track = [&](Method m, double h, long steps) {
    sim::Stepper st(p, s0, m, h);
    Dev d;
    for (long i = 1; i <= steps; ++i) {
      const auto div = st.advance();
      REQUIRE_MESSAGE(!div, (div ? div->message() : ""));
      const double e = std::abs(energyOracle(p, st.state()) - E0);
      d.all = std::max(d.all, e);
      if (i <= steps / 10) d.first = std::max(d.first, e);
      if (i > steps - steps / 10) d.last = std::max(d.last, e);
    }
    return d;
  };

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
    const Dev mid = track(Method::ImplicitMidpoint, 0.01, 1000000);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const Dev eul = track(Method::Euler, 0.001, 10000);
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

TEST_CASE("pendulum: implicit_midpoint is time-reversible and symplectic") {
  // the symmetric map: forward with h then back with -h returns the state
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
  MESSAGE("implicit_midpoint h = 0.02 then -0.02: max relative return error " << worstRev);

  // the step solves the midpoint equations (checked with the dense oracle), and its Jacobian in
  // (phi, p) satisfies J^T Omega J = Omega
  const auto p = seedDouble();
  const double h = 0.05;
  const int n = 2;
  auto toCanonical = [&](const State& s) {
    VectorXd z(2 * n);
    z << s.x, (denseMass(p, s.x) * s.v.cast<long double>()).cast<double>();
    return z;
  };
  auto fromCanonical = [&](const VectorXd& z) {
    State s;
    s.x = z.head(n);
    s.v = denseMass(p, s.x)
              .partialPivLu()
              .solve(VectorXd(z.tail(n)).cast<long double>())
              .cast<double>();
    return s;
  };
  sim::MidpointSolver solver;
  auto midpointMap = [&](const VectorXd& z) {
    State out;
    REQUIRE(solver.step(p, fromCanonical(z), h, out));
    return toCanonical(out);
  };
  auto eulerMap = [&](const VectorXd& z) {  // explicit Euler in (phi, p): not symplectic
    const State s = fromCanonical(z);
    VectorXd out(2 * n);
    out << z.head(n) + h * s.v,
        z.tail(n) - h * hamiltonianGradientOracle(p, s.x, s.v.cast<long double>()).cast<double>();
    return out;
  };
  const State s0 = makeState({1.1, -0.6}, {0.8, -1.7});
  const VectorXd z0 = toCanonical(s0);

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

  auto symplecticDefect = [&](auto&& map) {
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
  };
  const double mid = symplecticDefect(midpointMap), eul = symplecticDefect(eulerMap);
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

namespace {
// |a - b| in units in the last place of b
double ulps(double a, double b) {
  if (a == b) return 0.0;
  const double ulp =
      std::nextafter(std::abs(b), std::numeric_limits<double>::infinity()) - std::abs(b);
  return std::abs(a - b) / ulp;
}

// The recursion's sin and cos on every path the processor has (scalar, AVX2, AVX-512).
std::vector<std::pair<std::vector<double>, std::vector<double>>> sinCosByPath(
    const std::vector<double>& x) {
  std::vector<std::pair<std::vector<double>, std::vector<double>>> out;
  for (int path = 0; path < 3; ++path) {
    sim::setSimd(path > 0), sim::setWideSimd(path > 1);
    std::vector<double> s(x.size()), c(x.size());
    sim::sinCos(x.data(), s.data(), c.data(), static_cast<int>(x.size()));
    out.emplace_back(s, c);
  }
  sim::setSimd(true), sim::setWideSimd(true);
  return out;
}
}  // namespace

TEST_CASE("pendulum: sinCos is within an ulp of the C library's, the same bits on every path") {
  std::vector<double> x;
  for (int i = -20000; i <= 20000; ++i) x.push_back(i * 1e-3);  // every quadrant, finely
  for (int j = -400; j <= 400; ++j)                             // near each multiple of pi/2
    for (double d : {0.0, 1e-300, 1e-17, -1e-12, 1e-6})
      x.push_back(j * (kPi / 2) + d), x.push_back(std::nextafter(j * (kPi / 2), 1e9));
  for (double v : {0.0, -0.0, 1e-310, 3.0e5, -5.2e5, 0x1p19, 1e6, 1e22, 1e300}) x.push_back(v);
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> wide(-1e4, 1e4);
  for (int i = 0; i < 20000; ++i) x.push_back(wide(gen));
  const auto paths = sinCosByPath(x);
  double worst = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double s = paths[0].first[i], c = paths[0].second[i];
    CAPTURE(x[i]);
    // beside a zero of sin or cos the reference's ulp is tiny: the error is absolute there
    const double es = std::min(ulps(s, std::sin(x[i])), std::abs(s - std::sin(x[i])) / 0x1p-53);
    const double ec = std::min(ulps(c, std::cos(x[i])), std::abs(c - std::cos(x[i])) / 0x1p-53);
    CHECK(es <= 1.0);
    CHECK(ec <= 1.0);
    worst = std::max({worst, es, ec});
    for (size_t p = 1; p < paths.size(); ++p) {  // bit for bit
      CHECK(std::bit_cast<uint64_t>(paths[p].first[i]) == std::bit_cast<uint64_t>(s));
      CHECK(std::bit_cast<uint64_t>(paths[p].second[i]) == std::bit_cast<uint64_t>(c));
    }
  }
  {
    testutil::FpTrapsOff off;  // the C library's sin of an infinity raises FE_INVALID, as before
    const double inf = std::numeric_limits<double>::infinity();
    for (const auto& [sn, cs] : sinCosByPath({inf, -inf, std::numeric_limits<double>::quiet_NaN()}))
      for (int i = 0; i < 3; ++i) CHECK((std::isnan(sn[i]) && std::isnan(cs[i])));
  }
  MESSAGE("sinCos against the C library: at most " << worst << " ulp over " << x.size()
                                                   << " angles");
}

TEST_CASE("pendulum: the recursion gives the same bits on every vector path") {
  const int n = 37;  // not a multiple of any width: the loops' remainders run too
  std::vector<double> R, m;
  for (int i = 0; i < n; ++i) R.push_back(uniform(0.05, 0.5)), m.push_back(uniform(0.01, 2.0));
  PendulumModel p = makeModel(R, m, Vec3(0.3, -9.81, 0.0), 0.02);
  const VectorXd phi = randomVector(n, -20.0, 20.0), w = randomVector(n, -5.0, 5.0);
  std::vector<VectorXd> acc;
  for (int path = 0; path < 3; ++path) {
    sim::setSimd(path > 0), sim::setWideSimd(path > 1);
    acc.push_back(accel(p, phi, w));
  }
  sim::setSimd(true), sim::setWideSimd(true);
  CHECK(acc[0].allFinite());
  for (int path = 1; path < 3; ++path)
    for (int i = 0; i < n; ++i)
      CHECK(std::bit_cast<uint64_t>(acc[path][i]) == std::bit_cast<uint64_t>(acc[0][i]));
}
