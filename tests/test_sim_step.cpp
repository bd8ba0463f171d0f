// One step of every mass-spring integrator against its recurrence written out by hand
// (docs/integrators.md) on a 1-D spring, and the zero-length spring (docs/scenes.md#springs).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>

#include "sim/energy.hpp"
#include "sim/forces.hpp"
#include "test_sim_helpers.hpp"

using simtest::close;
using simtest::Vec3;

namespace {

// A particle fixed at the origin, a free one on the +x axis: along the axis the spring force is
// -k (x - r) (u = +x), the dashpot -c v, the drag -cd v, gravity m gx.
struct Spring1D {
  double k = 7.0, r = 1.0, m = 0.5;
  double c = 0.0, cd = 0.0, gx = 0.0;
  double f(double x, double v) const { return -k * (x - r) - (c + cd) * v + m * gx; }
  double a(double x, double v) const { return f(x, v) / m; }
};

struct Variant {
  const char* name;
  double x0, v0, c, cd, gx;
  Vec3 o = Vec3::Zero();  // where the fixed end sits: the 1-D problem is in x - o
};

// x', v' of one step of the time finite element method (docs/integrators.md), in one dimension.
void timeFeByHand(const Spring1D& s, double x, double v, double h, double& x1, double& v1) {
  // action of one step, q linear in t, q > 0 so l = q:
  //   A = m (qb - qa)^2 / 2h - (h k / 6)(qa^2 + qa qb + qb^2) - h k r^2 / 2 + h k r qa
  //       + (h / 2) m gx (qa + qb)
  // p_a = -dA/dqa = m (qb - qa)/h + (h k / 6)(2 qa + qb) - h k r - (h / 2) m gx, solved for qb;
  // p_b = dA/dqb = m (qb - qa)/h - (h k / 6)(qa + 2 qb) + (h / 2) m gx.
  // p_a = m v plus the dissipative impulse h F_diss(qa, v).
  const double pa = s.m * v - h * (s.c + s.cd) * v;
  const double qa = x;
  const double qb =
      (pa + s.m * qa / h - (h * s.k / 3) * qa + h * s.k * s.r + (h / 2) * s.m * s.gx) /
      (s.m / h + h * s.k / 6);
  const double pb = s.m * (qb - qa) / h - (h * s.k / 6) * (qa + 2 * qb) + (h / 2) * s.m * s.gx;
  x1 = qb;
  v1 = pb / s.m;
}

// x', v' of one XPBD step (docs/integrators.md#xpbd), in one dimension.
void xpbdByHand(const Spring1D& s, double x, double v, double h, double& x1, double& v1) {
  // one substep, one sweep, lambda = 0: the drag taken implicitly in the prediction, then the
  // compliant projection of C = p - r with alpha~ = 1 / (k h^2), the dashpot as constraint damping
  // gamma = c / (k h), and w = 1/m
  const double w = 1.0 / s.m;
  const double vp = (v + h * s.gx) / (1.0 + h * s.cd * w);
  const double p = x + h * vp;
  const double alpha = 1.0 / (s.k * h * h), gamma = s.c / (s.k * h);
  x1 = p + w * ((s.r - p - gamma * (p - x)) / ((1.0 + gamma) * w + alpha));
  v1 = (x1 - x) / h;
}

// x', v' of one projective dynamics step (docs/integrators.md), in one dimension.
void projectiveByHand(const Spring1D& s, double x, double v, double h, double& x1, double& v1) {
  // one substep, one iteration from the prediction y (drag implicit): the local step's d = r
  // (l > 0 on every variant), then the global step with the dashpot's force at y and its c/h
  // in the matrix, (m / h^2 + k + c / h) x' = m y / h^2 + k r + c x / h, backward Euler's
  // step from y exactly (in 1-D the dashpot's Jacobian is c / h)
  const double vp = (v + h * s.gx) / (1.0 + h * s.cd / s.m);
  const double y = x + h * vp, inertia = s.m / (h * h);
  x1 = (inertia * y + s.k * s.r + s.c * x / h) / (inertia + s.k + s.c / h);
  v1 = (x1 - x) / h;
}

// x', v' of one vertex block descent step (docs/integrators.md#vbd), in one dimension.
void vbdByHand(const Spring1D& s, double x, double v, double h, double& x1, double& v1) {
  // one substep, one sweep: the free particle's Newton step on G, which is quadratic along the
  // axis (l > 0 on every variant), so it lands on its minimum from any initial guess:
  // (m / h^2 + cd / h + k + c / h) x' = (m / h^2 + cd / h) y + k r + c x / h, y with the drag
  // implicit (the drag's damping potential and the inertia's add up to one quadratic about y)
  const double vp = (v + h * s.gx) / (1.0 + h * s.cd / s.m);
  const double y = x + h * vp, inertia = s.m / (h * h) + s.cd / h;
  x1 = (inertia * y + s.k * s.r + s.c * x / h) / (inertia + s.k + s.c / h);
  v1 = (x1 - x) / h;
}

// x', v' of one step of `method`, written from docs/integrators.md in one dimension.
void byHand(sim::Method method, const Spring1D& s, double x, double v, double h, double& x1,
            double& v1) {
  switch (method) {
    case sim::Method::Euler:
      x1 = x + h * v;
      v1 = v + h * s.a(x, v);
      return;
    case sim::Method::SymplecticEuler:
      v1 = v + h * s.a(x, v);
      x1 = x + h * v1;
      return;
    case sim::Method::Verlet: {
      const double vh = v + (h / 2) * s.a(x, v);
      x1 = x + h * vh;
      v1 = vh + (h / 2) * s.a(x1, vh);
      return;
    }
    case sim::Method::Rk4: {
      const double k1x = v, k1v = s.a(x, v);
      const double k2x = v + (h / 2) * k1v, k2v = s.a(x + (h / 2) * k1x, v + (h / 2) * k1v);
      const double k3x = v + (h / 2) * k2v, k3v = s.a(x + (h / 2) * k2x, v + (h / 2) * k2v);
      const double k4x = v + h * k3v, k4v = s.a(x + h * k3x, v + h * k3v);
      x1 = x + (h / 6) * (k1x + 2 * k2x + 2 * k3x + k4x);
      v1 = v + (h / 6) * (k1v + 2 * k2v + 2 * k3v + k4v);
      return;
    }
    case sim::Method::ImplicitEuler: {
      // (m - h D - h^2 K) v' = m v + h (f - D v), K = df/dx = -k, D = df/dv = -(c + cd)
      const double K = -s.k, D = -(s.c + s.cd);
      v1 = (s.m * v + h * (s.f(x, v) - D * v)) / (s.m - h * D - h * h * K);
      x1 = x + h * v1;
      return;
    }
    case sim::Method::TimeFe:
      timeFeByHand(s, x, v, h, x1, v1);
      return;
    case sim::Method::Xpbd:
      xpbdByHand(s, x, v, h, x1, v1);
      return;
    case sim::Method::Projective:
      projectiveByHand(s, x, v, h, x1, v1);
      return;
    case sim::Method::Vbd:
      vbdByHand(s, x, v, h, x1, v1);
      return;
    case sim::Method::ImplicitMidpoint:
      break;
  }
  FAIL("not a mass-spring integrator");
}

}  // namespace

TEST_CASE("sim: one step of each integrator on a 1-D spring matches the hand-written recurrence") {
  const Variant variants[] = {
      {"stretched", 1.3, 0.4, 0.0, 0.0, 0.0},
      {"compressed", 0.7, -0.4, 0.0, 0.0, 0.0},
      {"dashpot", 1.3, 0.4, 0.8, 0.0, 0.0},
      {"drag, moved off the origin", 0.7, 0.4, 0.0, 0.6, 0.0, Vec3(0.6, -0.3, 0.2)},
      {"dashpot+drag+gravity along x, moved", 1.3, -0.4, 0.8, 0.6, -3.0, Vec3(-2.0, 1.5, 0.7)},
  };
  const double h = 0.01;
  for (const auto& var : variants) {
    for (const auto& integ : simtest::massSpringIntegrators()) {
      SUBCASE((std::string(var.name) + " / " + std::string(integ.name)).c_str()) {
        Spring1D s;
        s.c = var.c, s.cd = var.cd, s.gx = var.gx;
        simtest::Builder b;
        b.fixed(var.o);
        b.particle(var.o + Vec3(var.x0, 0, 0), Vec3(var.v0, 0, 0), s.m);
        b.spring(0, 1, s.k, s.r, s.c);
        const auto sys = b.build(Vec3(s.gx, 0, 0), s.cd);

        double x1 = 0, v1 = 0;
        byHand(integ.method, s, var.x0, var.v0, h, x1, v1);
        const sim::State out = simtest::run(sys.mass_spring, sys.state, integ.method, h, 1);

        CAPTURE(x1);
        CAPTURE(v1);
        CHECK(out.t == h);
        // positions are rounded at the scale of |o| + |x|
        const double on = var.o.norm();
        CHECK(close(out.x[3] - var.o.x(), x1, 1e-14, on + var.x0));
        // the hand recurrences for time_fe, xpbd and projective form v from (qb - qa)/h, which
        // amplifies the rounding of q by |q|/(h |v|): their velocities are compared at |x|/h
        const bool fe = integ.method == sim::Method::TimeFe || integ.method == sim::Method::Xpbd ||
                        integ.method == sim::Method::Projective || integ.method == sim::Method::Vbd;
        CHECK(close(out.v[3], v1, 1e-14, fe ? (on + var.x0) / h : 0.0));
        // the motion stays on the axis (exactly, at the origin) and the fixed end does not move
        for (int j = 1; j < 3; ++j) {
          CHECK(std::abs(out.x[3 + j] - var.o[j]) <= 1e-15 * on);
          CHECK(std::abs(out.v[3 + j]) <= 1e-15 * on / h);
        }
        CHECK(out.x.head<3>() == var.o);
        CHECK(out.v.head<3>() == Vec3::Zero());
      }
    }
  }
}

TEST_CASE("sim: implicit_euler and time_fe with a velocity across the spring") {
  // The 1-D test cannot see the transverse stiffness. Spring along +x from a fixed origin, the
  // free particle on the axis moving with (vx, vy). Along u = x and across (y):
  //   K = -k (u u^T + (1 - r/l) P) - (c/l)(u (P w)^T + (w.u) P),  D = -c u u^T - cd I
  // so K_xx = -k, K_xy = -(c/l) vy, K_yx = 0, K_yy = -k (1 - r/l) - (c/l) vx.
  const double k = 7.0, r = 1.0, m = 0.5, h = 0.01, vx = 0.4, vy = -0.9;
  for (const double x0 : {1.3, 0.7}) {  // 0.7: compressed, K_yy > 0 (indefinite K)
    for (const auto& [c, cd] : {std::pair{0.0, 0.0}, std::pair{0.8, 0.6}}) {
      // subcase names must differ between loop iterations for doctest to run each one
      const std::string tag = (x0 > r ? " stretched" : " compressed") +
                              std::string(c > 0 ? " with dashpot and drag" : "");
      simtest::Builder b;
      b.fixed(Vec3::Zero());
      b.particle(Vec3(x0, 0, 0), Vec3(vx, vy, 0), m);
      b.spring(0, 1, k, r, c);
      const auto sys = b.build(Vec3::Zero(), cd);
      const double l = x0;
      const double fx = -k * (l - r) - c * vx - cd * vx, fy = -cd * vy;

      SUBCASE(("implicit_euler" + tag).c_str()) {
        const double Kxx = -k, Kxy = -(c / l) * vy, Kyy = -k * (1 - r / l) - (c / l) * vx;
        const double Dxx = -c - cd, Dyy = -cd;
        // (M - h D - h^2 K) v' = M v + h (f - D v); the matrix is upper triangular here
        const double Axx = m - h * Dxx - h * h * Kxx, Axy = -h * h * Kxy;
        const double Ayy = m - h * Dyy - h * h * Kyy;
        const double bx = m * vx + h * (fx - Dxx * vx), by = m * vy + h * (fy - Dyy * vy);
        const double vy1 = by / Ayy, vx1 = (bx - Axy * vy1) / Axx;
        const auto out = simtest::run(sys.mass_spring, sys.state, sim::Method::ImplicitEuler, h, 1);
        CHECK(close(out.v[3], vx1, 1e-14));
        CHECK(close(out.v[4], vy1, 1e-14));
        CHECK(close(out.x[3], x0 + h * vx1, 1e-14));
        CHECK(close(out.x[4], h * vy1, 1e-14));
        CHECK(out.x[5] == 0.0);
      }
      SUBCASE(("time_fe" + tag).c_str()) {
        // per coordinate j: (m/h + h k/6) qb_j = p_j + m qa_j/h - (h k/3) qa_j + h k r qa_j/l,
        // p = m v + h F_diss(qa, v); p_b = m (qb - qa)/h - (h k/6)(qa + 2 qb)
        const double qa[2] = {x0, 0.0},
                     p[2] = {m * vx + h * (-c * vx - cd * vx), m * vy - h * cd * vy};
        const auto out = simtest::run(sys.mass_spring, sys.state, sim::Method::TimeFe, h, 1);
        for (int j = 0; j < 2; ++j) {
          const double qb = (p[j] + m * qa[j] / h - (h * k / 3) * qa[j] + h * k * r * qa[j] / l) /
                            (m / h + h * k / 6);
          const double pb = m * (qb - qa[j]) / h - (h * k / 6) * (qa[j] + 2 * qb);
          CHECK(close(out.x[3 + j], qb, 1e-14, 1e-2));
          CHECK(close(out.v[3 + j], pb / m, 1e-14, x0 / h));  // scale: see the 1-D test
        }
      }
    }
  }
}

TEST_CASE("sim: a zero-length spring exerts no force and never produces a NaN") {
  // both ends at the same point: u is undefined, the contract's force -k (x_b - x_a) is zero
  const Vec3 p(0.2, 0.3, 0.1);
  simtest::Builder b;
  b.fixed(p);
  b.particle(p, Vec3(0.5, -0.2, 0.1), 0.3);
  b.particle(p, Vec3::Zero(), 0.4);  // coincides with its partner and does not move
  b.spring(0, 1, 50.0, 0.5, 0.3);    // rest length > 0: the rest term's gradient is undefined at 0
  b.spring(1, 2, 80.0, 0.2, 0.7);
  b.spring(0, 2, 30.0, 0.0);  // zero rest length too
  const auto sys = b.build(Vec3::Zero());

  Eigen::VectorXd f;
  sim::totalForce(sys.mass_spring, sys.state.x, sys.state.v, f);
  CHECK(f == Eigen::VectorXd::Zero(9));
  const auto e = sim::energy(sys.mass_spring, sys.state);
  CHECK(std::isfinite(e.total()));
  // kinetic of particle 1 plus 1/2 k r^2 of the two springs with r > 0
  CHECK(e.total() == doctest::Approx(0.5 * 0.3 * 0.3 + 0.5 * 50 * 0.25 + 0.5 * 80 * 0.04));

  const double h = 0.01;
  for (const auto& integ : simtest::massSpringIntegrators()) {
    SUBCASE(std::string(integ.name).c_str()) {
      sim::Stepper st(sys.mass_spring, sys.state, integ.method, h);
      const auto d = st.advance();
      REQUIRE_FALSE(d);
      const auto& s = st.state();
      CHECK(s.x.allFinite());
      CHECK(s.v.allFinite());
      if (integ.method == sim::Method::Euler) {
        // no force at all in the first step: pure drift, velocities unchanged
        CHECK(s.x == sys.state.x + h * sys.state.v);
        CHECK(s.v == sys.state.v);
      }
    }
  }

  SUBCASE("every integrator keeps a coincident pair at rest for one step") {
    // only one step: once round-off separates the ends (time_fe's Cholesky solve is not exactly
    // symmetric in the two particles), a spring with r > 0 pushes with its full k r, as it must
    simtest::Builder b2;
    b2.particle(p, Vec3::Zero(), 0.3);
    b2.particle(p, Vec3::Zero(), 0.4);
    b2.spring(0, 1, 50.0, 0.5, 0.3);
    const auto rest = b2.build(Vec3::Zero(), 0.1);
    for (const auto& integ : simtest::massSpringIntegrators()) {
      INFO(std::string(integ.name));
      const auto s = simtest::run(rest.mass_spring, rest.state, integ.method, h, 1);
      CHECK((s.x - rest.state.x).norm() <= 1e-15 * rest.state.x.norm());
      CHECK(s.v.norm() <= 1e-12);
    }
  }
}
