#include "sim/forces.hpp"

#include <cmath>

namespace sim {

namespace {

// spring and dashpot forces only (no gravity, no drag)
template <bool kElastic, bool kDashpot>
void springPass(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                Eigen::VectorXd& f) {
  const int ns = m.springs();
  const double* X = x.data();
  const double* V = v.data();
  double* F = f.data();
  for (int s = 0; s < ns; ++s) {
    const int a = 3 * m.spring_a[s], b = 3 * m.spring_b[s];
    const double dx = X[b] - X[a], dy = X[b + 1] - X[a + 1], dz = X[b + 2] - X[a + 2];
    const double l = std::sqrt(dx * dx + dy * dy + dz * dz);
    double fx, fy, fz;
    if (l > 0.0) {
      // force on b: -(k (l - r) + c (dv . u)) u, written with d = l u to avoid a division per
      // component
      double coef = 0.0;
      if constexpr (kElastic) coef += m.stiffness[s] * (l - m.rest_length[s]);
      if constexpr (kDashpot) {
        const double c = m.damping[s];
        if (c != 0.0) {
          const double dv =
              (V[b] - V[a]) * dx + (V[b + 1] - V[a + 1]) * dy + (V[b + 2] - V[a + 2]) * dz;
          coef += c * dv / l;
        }
      }
      const double sc = -coef / l;
      fx = sc * dx, fy = sc * dy, fz = sc * dz;
    } else {
      // zero length: u undefined, the contract's force -k (x_b - x_a) is zero and so is the dashpot
      fx = fy = fz = 0.0;
    }
    F[b] += fx, F[b + 1] += fy, F[b + 2] += fz;
    F[a] -= fx, F[a + 1] -= fy, F[a + 2] -= fz;
  }
}

void addDrag(const MassSpringModel& m, const Eigen::VectorXd& v, Eigen::VectorXd& f) {
  if (m.drag == 0.0) return;
  const int n = m.particles();
  for (int i = 0; i < n; ++i)
    if (!m.fixed(i)) f.segment<3>(3 * i) -= m.drag * v.segment<3>(3 * i);
}

}  // namespace

void totalForce(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                Eigen::VectorXd& f) {
  const int n = m.particles();
  f.resize(3 * n);
  for (int i = 0; i < n; ++i)
    f.segment<3>(3 * i) = m.fixed(i) ? Vec3::Zero() : Vec3(m.mass[i] * m.gravity);
  if (m.anyDashpot())
    springPass<true, true>(m, x, v, f);
  else
    springPass<true, false>(m, x, v, f);
  addDrag(m, v, f);
  if (m.grab >= 0 && !m.fixed(m.grab))
    f.segment<3>(3 * m.grab) += m.grab_stiffness * (m.grab_target - x.segment<3>(3 * m.grab));
}

void dissipativeForce(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                      Eigen::VectorXd& f) {
  f.setZero(x.size());
  if (m.anyDashpot()) springPass<false, true>(m, x, v, f);
  addDrag(m, v, f);
}

void acceleration(const MassSpringModel& m, const Eigen::VectorXd& x, const Eigen::VectorXd& v,
                  Eigen::VectorXd& a) {
  totalForce(m, x, v, a);
  const int n = m.particles();
  // a fixed particle's (ignored) force may overflow; inf * 0 would make its acceleration NaN
  for (int i = 0; i < n; ++i)
    a.segment<3>(3 * i) = m.fixed(i) ? Vec3::Zero() : Vec3(m.inv_mass[i] * a.segment<3>(3 * i));
}

void laplacianApply(const MassSpringModel& m, const Eigen::VectorXd& q, Eigen::VectorXd& out) {
  out.setZero(q.size());
  const int ns = m.springs();
  const double* Q = q.data();
  double* O = out.data();
  for (int s = 0; s < ns; ++s) {
    const int a = 3 * m.spring_a[s], b = 3 * m.spring_b[s];
    const double k = m.stiffness[s];
    for (int c = 0; c < 3; ++c) {
      const double d = k * (Q[b + c] - Q[a + c]);
      O[b + c] += d;
      O[a + c] -= d;
    }
  }
}

}  // namespace sim
