// The N-link rigid pendulum's dynamics (docs/scenes.md#pendulums; seed 004): the O(N) tension
// recursion of sim/pendulum.cpp against seed 004's closed form (N = 2) and its dense N x N system
// (written out in tests/pendulum_helpers.hpp independently, solved in long double), the canonical
// momenta and the Hamiltonian gradient, and the recursion's sin and cos (within an ulp, the same
// bits on every vector path). The integrators on it: tests/test_pendulum_integrators.cpp.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "fp_trap.hpp"
#include "pendulum_helpers.hpp"
#include "sim/pendulum.hpp"
#include "sim/simd.hpp"

using namespace pendtest;

namespace {

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

// H(phi, p) = 1/2 p^T M(phi)^-1 p + V(phi)
double hamiltonianOracle(const PendulumModel& m, const VectorXd& phi, const VectorXd& p) {
  const VecL pl = p.cast<long double>();
  const VecL w = denseMass(m, phi).partialPivLu().solve(pl);
  return static_cast<double>(0.5L * pl.dot(w)) + potentialOracle(m, phi);
}

double relErr(const VectorXd& a, const VectorXd& b) {
  const double s = b.norm();
  return s > 0 ? (a - b).norm() / s : a.norm();
}

VectorXd accel(const PendulumModel& m, const VectorXd& phi, const VectorXd& w) {
  sim::PendulumWork work;
  VectorXd a;
  sim::pendulumAcceleration(m, phi, w, a, work);
  return a;
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

namespace {

// The joint damping force against the oracle, and the Rayleigh function R with -2 R = Q . w
// (positive when damped).
void checkJointDamping(const PendulumModel& p, const VectorXd& w) {
  VectorXd q;
  sim::jointDampingForce(p, w, q);
  const VectorXd qref = dampingOracle(p, w).cast<double>();
  CHECK((q - qref).norm() <= 1e-14 * (1.0 + qref.norm()));
  const double ray = sim::rayleigh(p, w);
  CHECK(-2.0 * ray == doctest::Approx(qref.dot(w)).epsilon(1e-12));
  if (p.joint_damping > 0 && p.links() > 0) CHECK(ray > 0.0);
}

// dH/dphi at fixed momenta pr by a fourth-order central difference of the dense H.
VectorXd hamiltonianGradientFd(const PendulumModel& p, const VectorXd& phi, const VectorXd& pr) {
  const int n = p.links();
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
  return fd;
}

// Energy: the implementation, the Cartesian oracle and 1/2 w^T M w + V agree; M = M(phi) dense.
// Returns |E - Eref| relative to the energy's scale.
double checkEnergy(const PendulumModel& p, const VectorXd& phi, const VectorXd& w, const MatL& M) {
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
  return std::abs(E - Eref) / scale;
}

}  // namespace

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
      checkJointDamping(p, w);

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
        const double ef = relErr(grad, hamiltonianGradientFd(p, phi, pr));
        CHECK(ef <= 1e-6);
        worstFd = std::max(worstFd, ef);
      }

      worstE = std::max(worstE, checkEnergy(p, phi, w, M));
    }
  }
  MESSAGE("O(N) vs dense (N = 1..64, long double oracle): acc "
          << worstAcc << ", p = Mw " << worstP << ", M^-1 p " << worstV << ", dH/dphi analytic "
          << worstGrad << ", dH/dphi FD " << worstFd << ", energy " << worstE);
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
