#include "sim/pendulum.hpp"

#include <cmath>

namespace sim {

// clang-format off
// O(N) forward dynamics through the rod tensions.
//
// Bob i (0-based) feels its rod's tension -T_i e_i, the next rod's +T_{i+1} e_{i+1} (T_N = 0) and
// the applied force F_i, so
//
//   m_i a_i = -T_i e_i + T_{i+1} e_{i+1} + F_i.
//
// Differentiating the rod constraint |x_i - x_{i-1}| = R_i twice gives
//
//   e_i . (a_i - a_{i-1}) = -R_i phi'_i^2        (a_{-1} = 0: the pivot).
//
// Substituting a_i yields one symmetric tridiagonal system for the tensions:
//
//   A_i T_i - B_i T_{i+1} - B_{i-1} T_{i-1}
//       = R_i phi'_i^2 + e_i.F_i/m_i - [i>0] e_i.F_{i-1}/m_{i-1}
//
//   A_i = 1/m_i + [i>0] 1/m_{i-1}
//   B_i = (e_i . e_{i+1}) / m_i = cos(phi_{i+1} - phi_i) / m_i
//
// which is J Mc^-1 J^T (positive definite) and is solved by the Thomas algorithm in O(N). Then
//
//   phi''_i = n_i . (a_i - a_{i-1}) / R_i,      n_i = (cos phi_i, sin phi_i) = de_i/dphi_i.
//
// A generalised force Q_k enters as the pair +Q_k/R_k n_k on bob k and -Q_k/R_k n_k on bob k-1
// (whose virtual work is exactly Q_k dphi_k). This equals M(phi)^-1 (Q - C) of seed 004's dense
// N x N system, which the tests keep as the oracle.
// clang-format on
namespace {

// The leading minors p_{i-1}, p_i of the tension system, rescaled alike: the elimination's state.
struct Minors {
  double prev = 1.0, cur = 0.0;
};

// Row i of the tension system, a T_i - B_i T_{i+1} - B_{i-1} T_{i-1} = r (off holds -B),
// eliminated with pivots d_i = p_i / p_{i-1}, p_i = A_i p_{i-1} - B_{i-1}^2 p_{i-2}: no division on
// the recurrence's critical path (the plain Thomas algorithm waits for one per row).
inline void eliminateRow(int i, double a, double r, const double* off, double* dinv, double* rhs,
                         Minors& p) {
  if (i == 0) {
    p.cur = a;
    dinv[0] = 1.0 / a;
    rhs[0] = r;
    return;
  }
  const double next = a * p.cur - (off[i - 1] * off[i - 1]) * p.prev;
  p.prev = p.cur, p.cur = next;
  dinv[i] = p.prev / p.cur;
  rhs[i] = r - (off[i - 1] * dinv[i - 1]) * rhs[i - 1];
  if (std::abs(p.cur) > 0x1p500 || std::abs(p.cur) < 0x1p-500) {
    const int e = std::ilogb(p.cur);  // a power of two keeps the ratio exact
    p.cur = std::ldexp(p.cur, -e), p.prev = std::ldexp(p.prev, -e);
  }
}

// The sweeps' work arrays (PendulumWork's, sized to the chain's n links).
struct TensionArrays {
  int n;
  double *sn, *cs;  // each link's sin and cos
  double *fx, *fy;  // bob i's applied force over its mass, F_i / m_i
  double* off;      // -B_i, the tension system's off-diagonal
  double* dinv;     // inverse pivots
  double* rhs;      // the eliminated right-hand side, then the tensions
};

// The first sweep, forward: each link's sin and cos (evaluated once), bob i's applied force over
// its mass, and row i of the tension system, eliminated as it is built. Arguments as
// forwardDynamics's.
[[gnu::always_inline]] inline void buildTensionSystem(const PendulumModel& m,
                                                      const Eigen::VectorXd& phi,
                                                      const Eigen::VectorXd& omega,
                                                      const Eigen::VectorXd* q, bool gravity,
                                                      bool withVelocity, const TensionArrays& t) {
  const int n = t.n;
  double *sn = t.sn, *cs = t.cs, *fx = t.fx, *fy = t.fy, *off = t.off;
  const double gx = gravity ? m.gravity.x() : 0.0, gy = gravity ? m.gravity.y() : 0.0;
  // generalised force Q_k as the pair +Q_k/R_k n_k on bob k, -Q_k/R_k n_k on bob k-1
  auto pair = [&](int k) { return q ? (*q)[k] / m.length[k] : 0.0; };

  sn[0] = std::sin(phi[0]), cs[0] = std::cos(phi[0]);
  Minors minors;
  double fPrevX = 0.0, fPrevY = 0.0, invPrev = 0.0;
  double pairI = pair(0);
  for (int i = 0; i < n; ++i) {
    const double inv = 1.0 / m.mass[i];
    double pairNext = 0.0;
    if (i + 1 < n) {
      sn[i + 1] = std::sin(phi[i + 1]), cs[i + 1] = std::cos(phi[i + 1]);
      pairNext = pair(i + 1);
    }
    // applied force on bob i: gravity, its own pair, and the reaction of link i+1's pair
    double Fx = m.mass[i] * gx + pairI * cs[i], Fy = m.mass[i] * gy + pairI * sn[i];
    if (i + 1 < n) Fx -= pairNext * cs[i + 1], Fy -= pairNext * sn[i + 1];
    Fx *= inv, Fy *= inv;
    fx[i] = Fx, fy[i] = Fy;
    // row i of the tension system: A_i T_i - B_i T_{i+1} - B_{i-1} T_{i-1} = r_i
    const double ex = sn[i], ey = -cs[i];
    double r = ex * Fx + ey * Fy, a = inv;
    if (i > 0) a += invPrev, r -= ex * fPrevX + ey * fPrevY;
    if (withVelocity) r += m.length[i] * omega[i] * omega[i];
    off[i] = i + 1 < n ? -(cs[i] * cs[i + 1] + sn[i] * sn[i + 1]) * inv : 0.0;  // -B_i
    eliminateRow(i, a, r, off, t.dinv, t.rhs, minors);
    fPrevX = Fx, fPrevY = Fy, invPrev = inv, pairI = pairNext;
  }
}

// The second and third sweeps: back substitution gives the tensions (in place of the right-hand
// side), then bob accelerations a_i = F_i/m_i + (-T_i e_i + T_{i+1} e_{i+1}) / m_i give
// phi''_i = n_i . (a_i - a_{i-1}) / R_i.
[[gnu::always_inline]] inline void accelerationsFromTensions(const PendulumModel& m,
                                                             const TensionArrays& t,
                                                             Eigen::VectorXd& acc) {
  const int n = t.n;
  const double *sn = t.sn, *cs = t.cs, *fx = t.fx, *fy = t.fy, *off = t.off, *dinv = t.dinv;
  double* T = t.rhs;
  T[n - 1] *= dinv[n - 1];
  for (int i = n - 2; i >= 0; --i) T[i] = (T[i] - off[i] * T[i + 1]) * dinv[i];
  acc.resize(n);
  double pax = 0.0, pay = 0.0;
  for (int i = 0; i < n; ++i) {
    double tx = -T[i] * sn[i], ty = T[i] * cs[i];
    if (i + 1 < n) tx += T[i + 1] * sn[i + 1], ty -= T[i + 1] * cs[i + 1];
    const double inv = 1.0 / m.mass[i];
    const double ax = fx[i] + tx * inv, ay = fy[i] + ty * inv;
    acc[i] = (cs[i] * (ax - pax) + sn[i] * (ay - pay)) / m.length[i];
    pax = ax, pay = ay;
  }
}

// The whole recursion in three sweeps over the chain (forward: build and eliminate the tension
// system; backward: tensions; forward: accelerations). `q` (may be null) holds generalised forces;
// `gravity` and `withVelocity` select the terms (both off gives M^-1 q). The sweeps are inlined
// (always_inline) and share their arrays' pointers: as calls, or reading the pointers back from
// w, they cost a double pendulum's rk4 step about 1 % more instructions.
void forwardDynamics(const PendulumModel& m, const Eigen::VectorXd& phi,
                     const Eigen::VectorXd& omega, const Eigen::VectorXd* q, bool gravity,
                     bool withVelocity, Eigen::VectorXd& acc, PendulumWork& w) {
  const int n = m.links();
  w.sn.resize(n), w.cs.resize(n), w.fx.resize(n), w.fy.resize(n);
  w.off.resize(n), w.inv_pivot.resize(n), w.T.resize(n);
  const TensionArrays t{n,           w.sn.data(),  w.cs.data(),        w.fx.data(),
                        w.fy.data(), w.off.data(), w.inv_pivot.data(), w.T.data()};
  buildTensionSystem(m, phi, omega, q, gravity, withVelocity, t);
  accelerationsFromTensions(m, t, acc);
}

}  // namespace

void grabForce(const PendulumModel& m, const Eigen::VectorXd& phi, Eigen::VectorXd& q) {
  const int n = m.links();
  q.setZero(n);
  if (m.grab < 0 || m.grab >= n) return;
  Eigen::VectorXd x;
  pendulumPositions(m, phi, x);
  const Vec3 F = m.grab_stiffness * (m.grab_target - x.segment<3>(3 * m.grab));
  for (int k = 0; k <= m.grab; ++k)
    q[k] = m.length[k] * (std::cos(phi[k]) * F.x() + std::sin(phi[k]) * F.y());
}

void jointDampingForce(const PendulumModel& m, const Eigen::VectorXd& omega, Eigen::VectorXd& q) {
  const int n = m.links();
  q.setZero(n);
  const double c = m.joint_damping;
  if (c == 0.0) return;
  for (int i = 0; i < n; ++i) {
    q[i] = -c * (omega[i] - (i > 0 ? omega[i - 1] : 0.0));
    if (i + 1 < n) q[i] += c * (omega[i + 1] - omega[i]);
  }
}

void pendulumAcceleration(const PendulumModel& m, const Eigen::VectorXd& phi,
                          const Eigen::VectorXd& omega, Eigen::VectorXd& acc, PendulumWork& w,
                          const Eigen::VectorXd* extra) {
  const Eigen::VectorXd* q = nullptr;
  if (m.joint_damping != 0.0 || extra || m.grab >= 0) {
    jointDampingForce(m, omega, w.q);
    if (extra) w.q += *extra;
    if (m.grab >= 0) {
      Eigen::VectorXd g;
      grabForce(m, phi, g);
      w.q += g;
    }
    q = &w.q;
  }
  forwardDynamics(m, phi, omega, q, true, true, acc, w);
}

void pendulumVelocity(const PendulumModel& m, const Eigen::VectorXd& phi, const Eigen::VectorXd& p,
                      Eigen::VectorXd& omega, PendulumWork& w) {
  forwardDynamics(m, phi, p /*unused*/, &p, false, false, omega, w);
}

namespace {
// S_k = sum_{i>=k} m_i v_i (suffix sums of bob momenta), returned in sx, sy.
void suffixMomenta(const PendulumModel& m, const Eigen::VectorXd& phi, const Eigen::VectorXd& omega,
                   Eigen::VectorXd& sx, Eigen::VectorXd& sy) {
  const int n = m.links();
  sx.resize(n), sy.resize(n);
  double vx = 0.0, vy = 0.0;
  for (int i = 0; i < n; ++i) {
    vx += m.length[i] * omega[i] * std::cos(phi[i]);
    vy += m.length[i] * omega[i] * std::sin(phi[i]);
    sx[i] = m.mass[i] * vx, sy[i] = m.mass[i] * vy;
  }
  for (int i = n - 2; i >= 0; --i) sx[i] += sx[i + 1], sy[i] += sy[i + 1];
}
}  // namespace

void pendulumMomentum(const PendulumModel& m, const Eigen::VectorXd& phi,
                      const Eigen::VectorXd& omega, Eigen::VectorXd& p) {
  // p_k = dT/dphi'_k = R_k n_k . S_k
  Eigen::VectorXd sx, sy;
  suffixMomenta(m, phi, omega, sx, sy);
  p.resize(m.links());
  for (int k = 0; k < m.links(); ++k)
    p[k] = m.length[k] * (std::cos(phi[k]) * sx[k] + std::sin(phi[k]) * sy[k]);
}

void pendulumHamiltonianGradient(const PendulumModel& m, const Eigen::VectorXd& phi,
                                 const Eigen::VectorXd& omega, Eigen::VectorXd& grad) {
  // dH/dphi_k |_p = -dT/dphi_k |_phi' + dV/dphi_k = R_k phi'_k e_k . S_k - mu_k R_k g . n_k,
  // mu_k = sum_{i>=k} m_i (dv_i/dphi_k = -R_k phi'_k e_k for i >= k)
  Eigen::VectorXd sx, sy;
  suffixMomenta(m, phi, omega, sx, sy);
  const int n = m.links();
  grad.resize(n);
  double mu = 0.0;
  for (int k = n - 1; k >= 0; --k) {
    mu += m.mass[k];
    const double s = std::sin(phi[k]), c = std::cos(phi[k]);
    const double kinetic = m.length[k] * omega[k] * (s * sx[k] - c * sy[k]);
    const double potential = -mu * m.length[k] * (m.gravity.x() * c + m.gravity.y() * s);
    grad[k] = kinetic + potential;
  }
}

void pendulumPositions(const PendulumModel& m, const Eigen::VectorXd& phi, Eigen::VectorXd& out) {
  const int n = m.links();
  out.resize(3 * n);
  Vec3 x = m.pivot;
  for (int i = 0; i < n; ++i) {
    x += m.length[i] * Vec3(std::sin(phi[i]), -std::cos(phi[i]), 0.0);
    out.segment<3>(3 * i) = x;
  }
}

Energy energy(const PendulumModel& m, const State& s) {
  Energy e;
  Vec3 x = m.pivot;
  double vx = 0.0, vy = 0.0;
  for (int i = 0; i < m.links(); ++i) {
    const double sn = std::sin(s.x[i]), cs = std::cos(s.x[i]);
    x += m.length[i] * Vec3(sn, -cs, 0.0);
    vx += m.length[i] * s.v[i] * cs;
    vy += m.length[i] * s.v[i] * sn;
    e.kinetic += 0.5 * m.mass[i] * (vx * vx + vy * vy);
    e.potential -= m.mass[i] * m.gravity.dot(x);
  }
  return e;
}

double rayleigh(const PendulumModel& m, const Eigen::VectorXd& omega) {
  double r = 0.0;
  for (int i = 0; i < m.links(); ++i) {
    const double d = omega[i] - (i > 0 ? omega[i - 1] : 0.0);
    r += d * d;
  }
  return 0.5 * m.joint_damping * r;
}

}  // namespace sim
