// time_fe against seed 003 (Chen et al. 2022): the recursion eqs. (9)-(10) written out
// independently, and Table 1 case 1's energy deviation and frequencies.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "scene/build.hpp"
#include "scene/generators.hpp"
#include "scene/load.hpp"
#include "sim/energy.hpp"
#include "sim/implicit.hpp"
#include "sim/parallel.hpp"
#include "sim/xpbd_kernels.hpp"
#include "test_sim_helpers.hpp"

using simtest::Vec3;

namespace {

// Table 1 (both cases share r0, m, k); g = 9.8: not printed in seed 003, but it gives the
// paper's frequency ratio 2 (docs/integrators.md#time_fe)
constexpr double kM = 0.0484, kK = 2.3, kR0 = 0.6162, kG = 9.8, kDt = 0.002;

scene::Built pendulum(double x0, double y0) {
  scene::SceneDef def;
  def.parameters.set(sim::Parameter::Gravity, Vec3(0, -kG, 0));
  scene::SpringPendulumParams p;
  p.pivot = Vec3::Zero();
  p.bob = Vec3(x0, y0, 0);
  p.mass = kM, p.stiffness = kK, p.rest_length = kR0;
  scene::addSpringPendulum(def.mass_spring, p);
  return scene::build(def);
}

// Angular frequency of a sampled signal from its mean-crossings: crossing times by linear
// interpolation, w = pi (number of half periods) / (time between first and last crossing).
double crossingFrequency(const std::vector<double>& s, double dt) {
  double mean = 0;
  for (double v : s) mean += v;
  mean /= double(s.size());
  std::vector<double> t;
  for (size_t i = 1; i < s.size(); ++i) {
    const double a = s[i - 1] - mean, b = s[i] - mean;
    if ((a < 0) != (b < 0)) t.push_back((double(i - 1) + a / (a - b)) * dt);
  }
  if (t.size() < 2) return 0.0;
  return std::numbers::pi * double(t.size() - 1) / (t.back() - t.front());
}

}  // namespace

TEST_CASE("sim: time_fe on one spring with a fixed end is seed 003's recursion eqs. (9)-(10)") {
  // Seed 003, per coordinate, with V = k (l - r0)^2 / 2 + m g y (gravity along -y; the printed
  // gravity sign of eqs. (7), (9), (10) is a slip, docs/integrators.md#time_fe):
  //   (9)  p_a = (k dt/3 - m/dt - k r0 dt / l_a) q_a + (m/dt + k dt/6) q_b + (0, m g dt/2)
  //   (10) p_b = -(m/dt + k dt/6) q_a - (k dt/3 - m/dt) q_b - (0, m g dt/2)
  // Solve (9) for q_b, then (10) gives p_b; p_0 = m v_0.
  const struct {
    double x0, y0, px0, py0;
  } cases[] = {
      {0.1414, -0.9290, 0.0, 0.0}, {0.1960, -0.8774, 0.0, 0.0}, {-0.3, -0.5, 0.02, -0.015}};
  for (const auto& c : cases) {
    CAPTURE(c.x0);
    CAPTURE(c.y0);
    auto built = pendulum(c.x0, c.y0);
    built.state.v.segment<3>(3) = Vec3(c.px0 / kM, c.py0 / kM, 0);
    sim::Stepper st(*built.massSpring(), built.state, sim::Method::TimeFe, kDt);

    const double grav[2] = {0.0, 0.5 * kM * kG * kDt};
    const double cb = kM / kDt + kK * kDt / 6;
    auto recursion = [&](double q[2], double p[2]) {
      const double la = std::hypot(q[0], q[1]);
      const double ca = kK * kDt / 3 - kM / kDt - kK * kR0 * kDt / la;
      for (int j = 0; j < 2; ++j) {
        const double qb = (p[j] - ca * q[j] - grav[j]) / cb;
        const double pb = -cb * q[j] - (kK * kDt / 3 - kM / kDt) * qb - grav[j];
        q[j] = qb, p[j] = pb;
      }
    };

    // local: one recursion step from the simulator's own state, every step (round-off only);
    // global: the independent recursion from the initial state, where round-off differences
    // accumulate along the orbit (linearly in the step count, as for any nonlinear oscillator)
    double q[2] = {c.x0, c.y0}, p[2] = {c.px0, c.py0};
    double local_q = 0, local_p = 0, global_q = 0, global_p = 0, qmax = 0, pmax = 0;
    for (int step = 0; step < 1000; ++step) {
      double ql[2] = {st.state().x[3], st.state().x[4]};
      double pl[2] = {kM * st.state().v[3], kM * st.state().v[4]};
      recursion(ql, pl);
      recursion(q, p);
      if (const auto d = st.advance()) FAIL(d->message());
      const auto& s = st.state();
      for (int j = 0; j < 2; ++j) {
        local_q = std::max(local_q, std::abs(s.x[3 + j] - ql[j]));
        local_p = std::max(local_p, std::abs(kM * s.v[3 + j] - pl[j]));
        global_q = std::max(global_q, std::abs(s.x[3 + j] - q[j]));
        global_p = std::max(global_p, std::abs(kM * s.v[3 + j] - p[j]));
        qmax = std::max(qmax, std::abs(q[j]));
        pmax = std::max(pmax, std::abs(p[j]));
      }
      REQUIRE(s.x[5] == 0.0);
    }
    MESSAGE("seed 003 recursion vs time_fe, 1000 steps: max |q| "
            << qmax << ", max |p| " << pmax << "; per step |dq| " << local_q << ", |dp| " << local_p
            << "; whole run |dq| " << global_q << ", |dp| " << global_p);
    CHECK(local_q <= 1e-14 * qmax);
    CHECK(local_p <= 1e-12 * pmax);
    CHECK(global_q <= 1e-10 * qmax);
    CHECK(global_p <= 1e-10 * pmax);
  }
}

TEST_CASE("sim: seed 003 Table 1 case 1 with time_fe: energy deviation and frequencies") {
  const auto built = pendulum(0.1414, -0.9290);
  const long n = std::lround(40.0 / kDt);
  sim::Stepper st(*built.massSpring(), built.state, sim::Method::TimeFe, kDt);
  const double e0 = sim::energy(*built.massSpring(), built.state).total();
  std::vector<double> x, y, r;
  x.reserve(n), y.reserve(n), r.reserve(n);
  double maxdev = 0;
  for (long i = 0; i < n; ++i) {
    if (const auto d = st.advance()) FAIL(d->message());
    const auto& s = st.state();
    maxdev =
        std::max(maxdev, std::abs(sim::energy(*built.massSpring(), s).total() - e0) / std::abs(e0));
    x.push_back(s.x[3]), y.push_back(s.x[4]), r.push_back(std::hypot(s.x[3], s.x[4]));
  }
  // the paper: "energy deviation below 5 per mille of the initial energy" at dt = 0.002
  MESSAGE("max |E - E0| / |E0| over 40 s = " << maxdev << " (E0 = " << e0 << " J)");
  CHECK(maxdev < 5e-3);

  // swing: horizontal x; spring: radial length r (the vertical y is printed for comparison)
  const double wp = crossingFrequency(x, kDt), ws = crossingFrequency(r, kDt),
               wy = crossingFrequency(y, kDt);
  MESSAGE("measured over 40 s: swing " << wp << " rad/s (paper 3.65), spring (radial) " << ws
                                       << " rad/s (paper 7.41), vertical y " << wy
                                       << " rad/s; ratio " << ws / wp << " (paper 2.03)");
  CHECK(std::abs(ws / wp - 2.0) <= 0.1);
  CHECK(std::abs(wp / 3.65 - 1) <= 0.05);
  CHECK(std::abs(ws / 7.41 - 1) <= 0.05);
}

namespace {

// A grid Laplacian plus a diagonal, as time_fe's matrix: M/h + (h/6) L; side x side nodes.
Eigen::SparseMatrix<double> gridMatrix(int side) {
  const int n = side * side;
  std::vector<Eigen::Triplet<double>> t;
  for (int i = 0; i < n; ++i) t.emplace_back(i, i, 0.7 + 0.01 * (i % 7));
  auto link = [&](int a, int b, double k) {
    t.emplace_back(a, a, k), t.emplace_back(b, b, k);
    t.emplace_back(a, b, -k), t.emplace_back(b, a, -k);
  };
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      const int i = r * side + c;
      if (c + 1 < side) link(i, i + 1, 3.0 + 0.1 * (i % 5));
      if (r + 1 < side) link(i, i + side, 2.0 + 0.1 * (i % 3));
      if (c + 1 < side && r + 1 < side) link(i, i + side + 1, 0.5);
    }
  Eigen::SparseMatrix<double> A(n, n);
  A.setFromTriplets(t.begin(), t.end());
  return A;
}

// The solver's split of the n nodes: every node once; a group's nodes' parents (a column's first
// row below the diagonal) in the same group or among the ancestors, and the ancestors' parents
// among them; both groups with work, and few ancestors.
void checkColumnsSplit(const sim::TimeFeLlt& llt, const sim::LltColumnsSolver& solver, int n) {
  const Eigen::SparseMatrix<double>& L = llt.matrixL().nestedExpression();
  std::vector<int> where(n, -1);
  for (int g = 0; g < 2; ++g)
    for (int j : solver.group(g)) {
      CHECK(where[j] == -1);
      where[j] = g;
    }
  for (int j : solver.ancestors()) {
    CHECK(where[j] == -1);
    where[j] = 2;
  }
  CHECK(std::count(where.begin(), where.end(), -1) == 0);
  for (int j = 0; j < n; ++j) {
    const int first = L.outerIndexPtr()[j] + 1;
    if (first == L.outerIndexPtr()[j + 1]) continue;  // a root
    const int parent = L.innerIndexPtr()[first];
    CHECK((where[parent] == where[j] || where[parent] == 2));
  }
  const double small = std::min(solver.group(0).size(), solver.group(1).size()),
               large = std::max(solver.group(0).size(), solver.group(1).size());
  CHECK(small > 0.5 * large);                  // both groups have work
  CHECK(solver.ancestors().size() < 0.1 * n);  // most of it side by side
}

}  // namespace

TEST_CASE(
    "sim: time_fe's solve of 2 and 3 columns at once is Eigen's to round-off, the same bits on "
    "every path") {
  // 60 x 60, so that L has enough terms for two threads
  const int side = 60, n = side * side;
  const Eigen::SparseMatrix<double> A = gridMatrix(side);
  sim::TimeFeLlt llt(A);
  REQUIRE(llt.info() == Eigen::Success);
  REQUIRE(llt.permutationP().size() == n);
  REQUIRE(llt.matrixL().nestedExpression().nonZeros() > 40000);  // two threads' worth
  sim::LltColumnsSolver solver;
  solver.prepare(llt);
  checkColumnsSplit(llt, solver, n);

  for (const int columns : {2, 3}) {
    CAPTURE(columns);
    Eigen::MatrixXd b(n, columns);
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < columns; ++c) b(i, c) = std::sin(1.3 * i + 0.7 * c) * 1e3;
    for (int i = 0; i < n; i += 5) b(i, 1) = 0.0;
    b.col(0).head(40).setZero();
    const Eigen::MatrixXd eigen = llt.solve(b);
    CHECK((A * eigen - b).norm() < 1e-9 * b.norm());
    const int before = sim::kernelThreadsSetting();
    Eigen::MatrixXd first;  // the AVX2 path on one thread
    for (const bool simd : {true, false}) {
      for (const int threads : {1, 2}) {
        CAPTURE(simd);
        CAPTURE(threads);
        sim::setSimd(simd), sim::setKernelThreads(threads);
        Eigen::MatrixXd fused;
        solver.solve(b, fused);
        sim::setSimd(true), sim::setKernelThreads(before);
        // Eigen's solution to round-off: its terms summed in another order
        CHECK((fused - eigen).norm() <= 1e-14 * eigen.norm());
        CHECK((fused - eigen).norm() > 0.0);  // the partial sums are used (not Eigen's own solve)
        if (first.size() == 0) first = fused;
        // and every path and thread count bit for bit
        CHECK(std::memcmp(fused.data(), first.data(), sizeof(double) * first.size()) == 0);
      }
    }
  }
}

namespace {

// One time_fe step written as implicit.hpp's first form, with G, the Laplacian and L_fc c
// scattered spring by spring and Eigen's own solve; drag towards the wind and the mouse spring
// enter the impulse p_a as they do in time_fe. The first m.dim coordinates of the free particles.
void referenceStep(const sim::MassSpringModel& m, const sim::State& in, double h,
                   Eigen::VectorXd& x, Eigen::VectorXd& v) {
  const int n = m.particles();
  sim::FreeIndex free;
  free.build(m);
  const int nf = static_cast<int>(free.particle.size());
  Eigen::VectorXd Lq = Eigen::VectorXd::Zero(3 * n), Lc = Lq, G = Lq, c = Lq;
  for (int i = 0; i < n; ++i)
    if (m.fixed(i)) c.segment<3>(3 * i) = in.x.segment<3>(3 * i);
  auto laplacian = [&](const Eigen::VectorXd& q, Eigen::VectorXd& out) {
    out.setZero(3 * n);
    for (int s = 0; s < m.springs(); ++s) {
      const int a = m.spring_a[s], b = m.spring_b[s];
      const Vec3 d = m.stiffness[s] * (q.segment<3>(3 * b) - q.segment<3>(3 * a));
      out.segment<3>(3 * b) += d, out.segment<3>(3 * a) -= d;
    }
  };
  laplacian(in.x, Lq);
  laplacian(c, Lc);
  for (int s = 0; s < m.springs(); ++s) {
    const int a = m.spring_a[s], b = m.spring_b[s];
    const Vec3 d = in.x.segment<3>(3 * b) - in.x.segment<3>(3 * a);
    const Vec3 g = m.stiffness[s] * m.rest_length[s] / d.norm() * d;
    G.segment<3>(3 * b) += g, G.segment<3>(3 * a) -= g;
  }
  std::vector<Eigen::Triplet<double>> t;
  for (int k = 0; k < nf; ++k) t.emplace_back(k, k, m.mass[free.particle[k]] / h);
  for (int s = 0; s < m.springs(); ++s) {
    const int fa = free.of_particle[m.spring_a[s]], fb = free.of_particle[m.spring_b[s]];
    const double w = h / 6.0 * m.stiffness[s];
    if (fa >= 0) t.emplace_back(fa, fa, w);
    if (fb >= 0) t.emplace_back(fb, fb, w);
    if (fa >= 0 && fb >= 0) t.emplace_back(fa, fb, -w), t.emplace_back(fb, fa, -w);
  }
  Eigen::SparseMatrix<double> S(nf, nf);
  S.setFromTriplets(t.begin(), t.end());
  Eigen::MatrixXd rhs(nf, 3), p(nf, 3);
  for (int k = 0; k < nf; ++k) {
    const int i = free.particle[k];
    Vec3 pa = m.mass[i] * in.v.segment<3>(3 * i) - h * m.drag * (in.v.segment<3>(3 * i) - m.wind);
    if (i == m.grab) pa += h * m.grab_stiffness * (m.grab_target - in.x.segment<3>(3 * i));
    p.row(k) = pa.transpose();
    rhs.row(k) =
        (pa + m.mass[i] * in.x.segment<3>(3 * i) / h - h / 3.0 * Lq.segment<3>(3 * i) -
         h / 6.0 * Lc.segment<3>(3 * i) + h * G.segment<3>(3 * i) + 0.5 * h * m.mass[i] * m.gravity)
            .transpose();
  }
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(S);
  const Eigen::MatrixXd qb = llt.solve(rhs);
  x = in.x, v = in.v;
  for (int k = 0; k < nf; ++k)
    for (int c = 0; c < m.dim; ++c) x[3 * free.particle[k] + c] = qb(k, c);
  Eigen::VectorXd Lqb;
  laplacian(x, Lqb);
  for (int k = 0; k < nf; ++k) {
    const int i = free.particle[k];
    const Vec3 pb = p.row(k).transpose() - h / 2.0 * (Lq + Lqb).segment<3>(3 * i) +
                    h * G.segment<3>(3 * i) + h * m.mass[i] * m.gravity;
    for (int c = 0; c < m.dim; ++c) v[3 * i + c] = pb[c] / m.mass[i];
  }
}

}  // namespace

TEST_CASE("sim: time_fe's step from the force pass is the step of G and L q, on any threads") {
  scene::Built built = scene::build(scene::loadSceneArg("cloth_32"));  // 2 corners fixed
  sim::MassSpringModel& m = *built.massSpring();
  REQUIRE(m.springs() >= sim::kMinSpringsPerThread);  // the pass and the rows on two threads
  REQUIRE(m.dim == 2);
  m.drag = 0.02, m.wind = Vec3(3.0, 0.0, 1.0);
  m.grab = 500, m.grab_target = Vec3(0.3, -0.2, 0.4), m.grab_stiffness = 2.0;
  sim::State in = built.state;
  for (int i = 0; i < m.particles(); ++i)  // a state away from rest: a fold and some motion
    if (!m.fixed(i)) {
      in.x[3 * i + 2] += 0.01 * std::sin(0.37 * i);
      in.v.segment<3>(3 * i) = Vec3(std::cos(0.11 * i), std::sin(0.23 * i), std::cos(0.05 * i));
    }
  const double h = 1e-4;
  for (const int dim : {2, 3}) {  // the planar scene as built, then in space
    CAPTURE(dim);
    m.dim = dim;
    Eigen::VectorXd x, v;
    referenceStep(m, in, h, x, v);
    simtest::checkSameBitsOnEveryPath([&](sim::State& out) {
      sim::TimeFeSolver solver;
      if (!solver.step(m, in, h, out)) return false;
      CHECK((out.x - x).cwiseAbs().maxCoeff() <= 1e-14 * x.cwiseAbs().maxCoeff());
      // v carries the round-off of q_b through (h / 2m) L q_b, about k h / m times larger
      CHECK((out.v - v).cwiseAbs().maxCoeff() <= 1e-11 * v.cwiseAbs().maxCoeff());
      return true;
    });
  }
}
