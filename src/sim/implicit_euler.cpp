#include <cmath>

#include "sim/forces.hpp"
#include "sim/implicit.hpp"

namespace sim {

void FreeIndex::build(const MassSpringModel& m) {
  of_particle.assign(m.particles(), -1);
  particle.clear();
  for (int i = 0; i < m.particles(); ++i) {
    if (m.fixed(i)) continue;
    of_particle[i] = static_cast<int>(particle.size());
    particle.push_back(i);
  }
}

namespace {

using Mat3 = Eigen::Matrix3d;

// Adds `block` at rows of particle pi, columns of particle pj (free indices; -1 = fixed: skipped).
void addBlock(std::vector<Eigen::Triplet<double>>& t, int pi, int pj, int dim, const Mat3& block) {
  if (pi < 0 || pj < 0) return;
  for (int r = 0; r < dim; ++r)
    for (int c = 0; c < dim; ++c) t.emplace_back(pi * dim + r, pj * dim + c, block(r, c));
}

}  // namespace

bool ImplicitEulerSolver::step(const MassSpringModel& m, const State& in, double h, State& out) {
  if (revision_ != m.revision || dim_ != m.dim ||
      free_.of_particle.size() != size_t(m.particles())) {
    free_.build(m);
    revision_ = m.revision;
    dim_ = m.dim;
    ldlt_analysed_ = lu_analysed_ = false;
  }
  const int dim = dim_;
  const int nf = static_cast<int>(free_.particle.size());
  const int n = nf * dim;
  out.x = in.x;
  out.v = in.v;
  out.t = in.t + h;
  if (n == 0) return true;

  totalForce(m, in.x, in.v, f_);

  // A = M - h D - h^2 K, assembled block by block; each spring contributes G at (b,b), (a,a) and
  // -G at (a,b), (b,a), where G = d f_b / d x_b (and likewise for D).
  triplets_.clear();
  triplets_.reserve(size_t(m.springs()) * 4 * dim * dim + size_t(n));
  rhs_.resize(n);
  for (int k = 0; k < nf; ++k) {
    const int i = free_.particle[k];
    for (int c = 0; c < dim; ++c) {
      triplets_.emplace_back(k * dim + c, k * dim + c,
                             m.mass[i] + h * m.drag);  // -h D_drag = h c I
      // M v + h (f - D v): the drag part of D v is -c v
      rhs_[k * dim + c] =
          m.mass[i] * in.v[3 * i + c] + h * (f_[3 * i + c] + m.drag * in.v[3 * i + c]);
    }
  }
  const double h2 = h * h;
  for (int s = 0; s < m.springs(); ++s) {
    const int a = m.spring_a[s], b = m.spring_b[s];
    const int fa = free_.of_particle[a], fb = free_.of_particle[b];
    if (fa < 0 && fb < 0) continue;
    const Vec3 d = in.x.segment<3>(3 * b) - in.x.segment<3>(3 * a);
    const double l = d.norm();
    const double k = m.stiffness[s], c = m.damping[s];
    Mat3 Kx, Dv;  // d f_b / d x_b and d f_b / d v_b
    if (l > 0.0) {
      const Vec3 u = d / l;
      const Mat3 uu = u * u.transpose();
      const Mat3 P = Mat3::Identity() - uu;
      Kx = -k * (uu + (1.0 - m.rest_length[s] / l) * P);
      Dv = -c * uu;
      if (c != 0.0) {
        // dashpot force -c (w.u) u depends on x through u: d/dx_b = -(c/l)(u w^T P + (w.u) P)
        const Vec3 w = in.v.segment<3>(3 * b) - in.v.segment<3>(3 * a);
        Kx -= (c / l) * (u * (P * w).transpose() + w.dot(u) * P);
      }
    } else {
      Kx = -k * Mat3::Identity();  // the zero-length force -k (x_b - x_a)
      Dv.setZero();
    }
    const Mat3 blk = -h * Dv - h2 * Kx;
    addBlock(triplets_, fb, fb, dim, blk);
    addBlock(triplets_, fa, fa, dim, blk);
    addBlock(triplets_, fa, fb, dim, -blk);
    addBlock(triplets_, fb, fa, dim, -blk);
    if (c != 0.0) {
      // -h D v term of the right-hand side (only dashpots; drag handled above)
      const Vec3 Dw = Dv * (in.v.segment<3>(3 * b) - in.v.segment<3>(3 * a));
      for (int r = 0; r < dim; ++r) {
        if (fb >= 0) rhs_[fb * dim + r] -= h * Dw[r];
        if (fa >= 0) rhs_[fa * dim + r] += h * Dw[r];
      }
    }
  }
  if (m.grab >= 0 && free_.of_particle[m.grab] >= 0)  // the mouse spring: K = -k I
    addBlock(triplets_, free_.of_particle[m.grab], free_.of_particle[m.grab], dim,
             h2 * m.grab_stiffness * Mat3::Identity());
  A_.resize(n, n);
  A_.setFromTriplets(triplets_.begin(), triplets_.end());

  bool solved = false;
  if (!m.anyDashpot()) {
    if (!ldlt_analysed_) {
      ldlt_.analyzePattern(A_);
      ldlt_analysed_ = true;
    }
    ldlt_.factorize(A_);
    if (ldlt_.info() == Eigen::Success) {
      sol_ = ldlt_.solve(rhs_);
      // LDL^T without pivoting can lose accuracy on an indefinite matrix: verify, else use LU
      const double res = (A_ * sol_ - rhs_).norm();
      solved = std::isfinite(res) && res <= 1e-10 * (rhs_.norm() + 1e-300) + 1e-300;
    }
  }
  if (!solved) {
    if (!lu_analysed_) {
      lu_.analyzePattern(A_);
      lu_analysed_ = true;
    }
    lu_.factorize(A_);
    if (lu_.info() != Eigen::Success) {
      error_ = "implicit_euler: the matrix M - h D - h^2 K is singular";
      return false;
    }
    sol_ = lu_.solve(rhs_);
  }
  for (int k = 0; k < nf; ++k) {
    const int i = free_.particle[k];
    for (int c = 0; c < dim; ++c) {
      out.v[3 * i + c] = sol_[k * dim + c];
      out.x[3 * i + c] = in.x[3 * i + c] + h * sol_[k * dim + c];
    }
  }
  return true;
}

}  // namespace sim
