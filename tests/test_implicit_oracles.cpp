// implicit_euler and time_fe on a 3-D network with fixed points, dashpots and drag, checked against
// oracles built independently from docs/integrators.md: a dense solve with finite-difference
// Jacobians, and finite differences of the discrete action.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <cmath>

#include "sim/forces.hpp"
#include "sim/stepper.hpp"

namespace {

// 5 particles (0 fixed), 7 springs, non-planar, some springs compressed (indefinite K).
sim::MassSpringModel network(bool dissipative) {
  sim::MassSpringModel m;
  m.mass.resize(5);
  m.mass << 0.0, 0.7, 1.3, 0.4, 0.9;
  m.inv_mass.resize(5);
  for (int i = 0; i < 5; ++i) m.inv_mass[i] = m.mass[i] > 0 ? 1.0 / m.mass[i] : 0.0;
  m.spring_a = {0, 1, 2, 3, 0, 1, 2};
  m.spring_b = {1, 2, 3, 4, 2, 3, 4};
  m.stiffness.resize(7);
  m.stiffness << 40, 25, 60, 15, 30, 45, 20;
  m.rest_length.resize(7);
  m.rest_length << 0.8, 1.5, 0.5, 1.2, 2.5, 0.3, 1.0;  // mix of stretched and compressed
  m.damping.resize(7);
  if (dissipative)
    m.damping << 0.3, 0.0, 0.8, 0.1, 0.0, 0.5, 0.2;
  else
    m.damping.setZero();
  m.drag = dissipative ? 0.05 : 0.0;
  m.gravity = sim::Vec3(0.3, -9.81, 0.7);
  return m;
}

sim::State initial() {
  sim::State s;
  s.x.resize(15);
  s.x << 0, 0, 0, 0.9, -0.2, 0.1, 1.1, -1.3, 0.4, 0.2, -1.9, -0.3, -0.8, -1.1, 0.6;
  s.v.resize(15);
  s.v << 0, 0, 0, 0.3, 0.1, -0.2, -0.4, 0.2, 0.5, 0.1, -0.3, 0.2, 0.6, 0.0, -0.1;
  return s;
}

Eigen::VectorXd force(const sim::MassSpringModel& m, const Eigen::VectorXd& x,
                      const Eigen::VectorXd& v) {
  Eigen::VectorXd f;
  sim::totalForce(m, x, v, f);
  return f;
}

}  // namespace

TEST_CASE(
    "implicit_euler solves (M - hD - h^2 K) v' = M v + h (f - D v) with the exact Jacobians") {
  for (bool dissipative : {false, true}) {
    CAPTURE(dissipative);
    const auto m = network(dissipative);
    const auto s0 = initial();
    const double h = 0.05;
    // oracle: central finite differences of the total force over the free coordinates 3..14
    const int n = 12;
    Eigen::MatrixXd K(n, n), D(n, n);
    const double eps = 1e-6;
    for (int j = 0; j < n; ++j) {
      Eigen::VectorXd xp = s0.x, xm = s0.x, vp = s0.v, vm = s0.v;
      xp[3 + j] += eps, xm[3 + j] -= eps, vp[3 + j] += eps, vm[3 + j] -= eps;
      K.col(j) = (force(m, xp, s0.v) - force(m, xm, s0.v)).segment(3, n) / (2 * eps);
      D.col(j) = (force(m, s0.x, vp) - force(m, s0.x, vm)).segment(3, n) / (2 * eps);
    }
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
    for (int j = 0; j < n; ++j) M(j, j) = m.mass[1 + j / 3];
    const Eigen::VectorXd f = force(m, s0.x, s0.v).segment(3, n);
    const Eigen::VectorXd v = s0.v.segment(3, n);
    const Eigen::VectorXd vnew =
        (M - h * D - h * h * K).partialPivLu().solve(M * v + h * (f - D * v));

    sim::Stepper st(m, s0, sim::Method::ImplicitEuler, h);
    REQUIRE(!st.advance());
    for (int j = 0; j < n; ++j) {
      CHECK(st.state().v[3 + j] == doctest::Approx(vnew[j]).epsilon(1e-7));
      CHECK(st.state().x[3 + j] == doctest::Approx(s0.x[3 + j] + h * vnew[j]).epsilon(1e-7));
    }
    for (int j = 0; j < 3; ++j) CHECK(st.state().x[j] == 0.0);  // the fixed particle stays
  }
}

namespace {

// The discrete action of one time_fe step (docs/integrators.md#time_fe), written from its
// definition: kinetic energy, each spring's (1/2) k |x_b - x_a|^2 and gravity integrated exactly
// for positions linear in time (Simpson's rule is exact for these quadratics), the rest,
// (1/2) k r^2 - k r l, by the rectangle rule at the step's start.
double action(const sim::MassSpringModel& m, const Eigen::VectorXd& qa, const Eigen::VectorXd& qb,
              double h) {
  double A = 0;
  const int n = m.particles();
  auto at = [&](double s) { return Eigen::VectorXd((1 - s) * qa + s * qb); };
  for (int i = 0; i < n; ++i) {
    if (m.fixed(i)) continue;
    const sim::Vec3 vel = (qb.segment<3>(3 * i) - qa.segment<3>(3 * i)) / h;
    A += 0.5 * m.mass[i] * vel.squaredNorm() * h;
    // gravity potential -m g.x, so L = T - V gets + m g.x
    const double gx0 = m.gravity.dot(qa.segment<3>(3 * i)),
                 gx1 = m.gravity.dot(qb.segment<3>(3 * i));
    A += m.mass[i] * 0.5 * (gx0 + gx1) * h;
  }
  for (int s = 0; s < m.springs(); ++s) {
    const int a = m.spring_a[s], b = m.spring_b[s];
    auto d2 = [&](double t) {
      const auto q = at(t);
      return (q.segment<3>(3 * b) - q.segment<3>(3 * a)).squaredNorm();
    };
    const double quad = h / 6.0 * (d2(0) + 4 * d2(0.5) + d2(1));  // Simpson: exact for quadratics
    const double k = m.stiffness[s], r = m.rest_length[s];
    const double l0 = (qa.segment<3>(3 * b) - qa.segment<3>(3 * a)).norm();
    A -= 0.5 * k * quad + h * (0.5 * k * r * r - k * r * l0);
  }
  return A;
}

}  // namespace

TEST_CASE("time_fe: p_a = -dA/dq_a and p_b = dA/dq_b of the discrete action") {
  auto m = network(false);
  const auto s0 = initial();
  const double h = 0.03;
  sim::Stepper st(m, s0, sim::Method::TimeFe, h);
  REQUIRE(!st.advance());
  const Eigen::VectorXd qa = s0.x, qb = st.state().x;
  const double eps = 1e-6;
  for (int j = 3; j < 15; ++j) {
    CAPTURE(j);
    Eigen::VectorXd p = qa, q = qa;
    p[j] += eps, q[j] -= eps;
    const double dAdqa = (action(m, p, qb, h) - action(m, q, qb, h)) / (2 * eps);
    p = qb, q = qb;
    p[j] += eps, q[j] -= eps;
    const double dAdqb = (action(m, qa, p, h) - action(m, qa, q, h)) / (2 * eps);
    const double pa = m.mass[j / 3] * s0.v[j], pb = m.mass[j / 3] * st.state().v[j];
    CHECK(-dAdqa == doctest::Approx(pa).epsilon(1e-6).scale(1.0));
    CHECK(dAdqb == doctest::Approx(pb).epsilon(1e-6).scale(1.0));
  }
}

TEST_CASE("time_fe refactorises when k or h change, and the result matches a fresh stepper") {
  auto m = network(false);
  const auto s0 = initial();
  sim::Stepper st(m, s0, sim::Method::TimeFe, 0.01);
  REQUIRE(!st.advance(3));
  // change k (with a revision bump) and h mid-run
  m.stiffness *= 2.0;
  ++m.revision;
  st.setDt(0.02);
  REQUIRE(!st.advance(2));
  // reference: 3 steps with the old model, then 2 with the new one in a fresh stepper
  auto m2 = network(false);
  sim::Stepper ref(m2, s0, sim::Method::TimeFe, 0.01);
  REQUIRE(!ref.advance(3));
  sim::Stepper ref2(m, ref.state(), sim::Method::TimeFe, 0.02);
  REQUIRE(!ref2.advance(2));
  for (int j = 0; j < 15; ++j) CHECK(st.state().x[j] == ref2.state().x[j]);
}
