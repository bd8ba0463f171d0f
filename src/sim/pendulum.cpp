#include "sim/pendulum.hpp"

#include <cmath>

namespace sim {

// O(N) forward dynamics through the rod tensions.
//
// Bob i (0-based) feels its rod's tension -T_i e_i, the next rod's +T_{i+1} e_{i+1} (T_N = 0) and
// the applied force F_i, so m_i a_i = -T_i e_i + T_{i+1} e_{i+1} + F_i. Differentiating the rod
// constraint |x_i - x_{i-1}| = R_i twice gives e_i . (a_i - a_{i-1}) = -R_i phi'_i^2 (a_{-1} = 0,
// the pivot). Substituting a_i yields one symmetric tridiagonal system for the tensions:
//   A_i T_i - B_i T_{i+1} - B_{i-1} T_{i-1} = R_i phi'_i^2 + e_i.F_i/m_i - [i>0]
//   e_i.F_{i-1}/m_{i-1} A_i = 1/m_i + [i>0] 1/m_{i-1},   B_i = (e_i . e_{i+1}) / m_i =
//   cos(phi_{i+1} - phi_i) / m_i,
// which is J Mc^-1 J^T (positive definite) and is solved by the Thomas algorithm in O(N). Then
// phi''_i = n_i . (a_i - a_{i-1}) / R_i with n_i = (cos phi_i, sin phi_i) = de_i/dphi_i.
// A generalised force Q_k enters as the pair +Q_k/R_k n_k on bob k and -Q_k/R_k n_k on bob k-1
// (whose virtual work is exactly Q_k dphi_k). This equals M(phi)^-1 (Q - C) of seed 004's dense
// N x N system, which the tests keep as the oracle.
namespace {

void sinCos(const Eigen::VectorXd& phi, PendulumWork& w) {
  const Eigen::Index n = phi.size();
  w.sn.resize(n), w.cs.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) w.sn[i] = std::sin(phi[i]), w.cs[i] = std::cos(phi[i]);
}

// Expects w.sn, w.cs of phi and the applied forces w.fx, w.fy.
void solveTensionsAndAccelerate(const PendulumModel& m, const Eigen::VectorXd& omega,
                                bool withVelocity, Eigen::VectorXd& acc, PendulumWork& w) {
  const int n = m.links();
  w.diag.resize(n), w.off.resize(n), w.rhs.resize(n), w.T.resize(n);
  w.invm = m.mass.cwiseInverse();
  const double* sn = w.sn.data();
  const double* cs = w.cs.data();
  const double* inv = w.invm.data();
  // the tension system: diag A_i, off-diagonal -B_i, right-hand side
  for (int i = 0; i < n; ++i) {
    const double ex = sn[i], ey = -cs[i];
    double r = (ex * w.fx[i] + ey * w.fy[i]) * inv[i];
    double a = inv[i];
    if (i > 0) {
      a += inv[i - 1];
      r -= (ex * w.fx[i - 1] + ey * w.fy[i - 1]) * inv[i - 1];
    }
    if (withVelocity) r += m.length[i] * omega[i] * omega[i];
    w.diag[i] = a;
    w.rhs[i] = r;
    // e_i . e_{i+1} = cos(phi_{i+1} - phi_i)
    w.off[i] = i + 1 < n ? -(cs[i] * cs[i + 1] + sn[i] * sn[i + 1]) * inv[i] : 0.0;
  }
  // Elimination. The pivots d_i = p_i / p_{i-1} come from the leading minors
  // p_i = A_i p_{i-1} - B_{i-1}^2 p_{i-2}: a recurrence with no division on its critical path (the
  // plain Thomas algorithm waits for one division per row), the inverse pivots p_{i-1}/p_i being
  // independent divisions. The minors are rescaled together by a power of two, which leaves their
  // ratio exact. w.diag becomes 1/d_i.
  double prev = 1.0, cur = w.diag[0];
  w.diag[0] = 1.0 / cur;
  for (int i = 1; i < n; ++i) {
    const double next = w.diag[i] * cur - (w.off[i - 1] * w.off[i - 1]) * prev;
    prev = cur, cur = next;
    w.diag[i] = prev / cur;
    if (std::abs(cur) > 0x1p500 || std::abs(cur) < 0x1p-500) {
      const int e = std::ilogb(cur);
      cur = std::ldexp(cur, -e), prev = std::ldexp(prev, -e);
    }
  }
  for (int i = 1; i < n; ++i) w.rhs[i] -= (w.off[i - 1] * w.diag[i - 1]) * w.rhs[i - 1];
  double* T = w.T.data();
  T[n - 1] = w.rhs[n - 1] * w.diag[n - 1];
  for (int i = n - 2; i >= 0; --i) T[i] = (w.rhs[i] - w.off[i] * T[i + 1]) * w.diag[i];
  // bob accelerations a_i = (F_i - T_i e_i + T_{i+1} e_{i+1}) / m_i, then
  // phi''_i = n_i . (a_i - a_{i-1}) / R_i
  acc.resize(n);
  double pax = 0.0, pay = 0.0;
  for (int i = 0; i < n; ++i) {
    double fx = w.fx[i] - T[i] * sn[i], fy = w.fy[i] + T[i] * cs[i];
    if (i + 1 < n) fx += T[i + 1] * sn[i + 1], fy -= T[i + 1] * cs[i + 1];
    const double ax = fx * inv[i], ay = fy * inv[i];
    acc[i] = (cs[i] * (ax - pax) + sn[i] * (ay - pay)) / m.length[i];
    pax = ax, pay = ay;
  }
}

// Applied Cartesian forces from gravity and generalised forces q (may be null); needs w.sn, w.cs.
void applyForces(const PendulumModel& m, const Eigen::VectorXd* q, bool gravity, PendulumWork& w) {
  const int n = m.links();
  w.fx.resize(n), w.fy.resize(n);
  for (int i = 0; i < n; ++i) {
    w.fx[i] = gravity ? m.mass[i] * m.gravity.x() : 0.0;
    w.fy[i] = gravity ? m.mass[i] * m.gravity.y() : 0.0;
  }
  if (!q) return;
  for (int k = 0; k < n; ++k) {
    const double f = (*q)[k] / m.length[k];
    const double nx = w.cs[k], ny = w.sn[k];
    w.fx[k] += f * nx, w.fy[k] += f * ny;
    if (k > 0) w.fx[k - 1] -= f * nx, w.fy[k - 1] -= f * ny;
  }
}

}  // namespace

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
  if (m.joint_damping != 0.0 || extra) {
    jointDampingForce(m, omega, w.q);
    if (extra) w.q += *extra;
    q = &w.q;
  }
  sinCos(phi, w);
  applyForces(m, q, true, w);
  solveTensionsAndAccelerate(m, omega, true, acc, w);
}

void pendulumVelocity(const PendulumModel& m, const Eigen::VectorXd& phi, const Eigen::VectorXd& p,
                      Eigen::VectorXd& omega, PendulumWork& w) {
  sinCos(phi, w);
  applyForces(m, &p, false, w);
  solveTensionsAndAccelerate(m, p /*unused*/, false, omega, w);
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
