// One spring's share of the incremental potential G (docs/integrators.md#vbd): its
// energy (1/2) k (r - l)^2, its force on the second end, and its Hessian block with the
// definiteness fix that Newton-type methods (vbd; backward_euler) need. The exact block,
//   H = k (u u^T + (1 - l/r)(I - u u^T)),
// has the eigenvalue k along the spring and k (1 - l/r) across it, negative when the spring is
// compressed (r < l); the fixed block clamps that factor at 0, the projection of H onto the
// positive semidefinite matrices (Teran et al. 2005's per-element fix, as VBD, Chen et al. 2024,
// does per spring). The block acts as [H -H; -H H] on (x_a, x_b).
#pragma once

#include <Eigen/Core>
#include <algorithm>

namespace sim {

using Mat3 = Eigen::Matrix3d;

struct SpringTerms {
  double energy = 0.0;         // J, (1/2) k (r - l)^2
  Eigen::Vector3d force_on_b;  // N, -k (r - l) u; the first end feels its negative
  Mat3 hessian;                // the PSD-projected block H
};

// The spring from xa to xb of stiffness k and rest length l. A zero-length spring (r = 0) is
// the linear one, force -k (x_b - x_a), Hessian k I.
inline SpringTerms springTerms(const Eigen::Vector3d& xa, const Eigen::Vector3d& xb, double k,
                               double l) {
  SpringTerms t;
  const Eigen::Vector3d d = xb - xa;
  const double r = d.norm();
  if (!(r > 0.0)) {
    t.energy = 0.5 * k * l * l;
    t.force_on_b = -k * d;
    t.hessian = k * Mat3::Identity();
    return t;
  }
  const Eigen::Vector3d u = d / r;
  const Mat3 uu = u * u.transpose();
  const double across = std::max(0.0, 1.0 - l / r);  // the definiteness fix
  t.energy = 0.5 * k * (r - l) * (r - l);
  t.force_on_b = -k * (r - l) * u;
  t.hessian = k * (uu + across * (Mat3::Identity() - uu));
  return t;
}

}  // namespace sim
