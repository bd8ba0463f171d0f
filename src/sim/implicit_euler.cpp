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

// LDL^T without pivoting can lose accuracy on an indefinite K (compressed springs): its solution
// is kept only if |A v - rhs| <= kLdltResidual |rhs|. A sound solve of this matrix leaves a
// residual near 1e-15 |rhs|; 1e-10 leaves room for conditioning and still catches a broken
// factorisation, after which the pivoting sparse LU solves the system.
constexpr double kLdltResidual = 1e-10;

}  // namespace

void springJacobians(const MassSpringModel& m, int s, const Eigen::VectorXd& x,
                     const Eigen::VectorXd& v, Mat3& Kx, Mat3& Dv) {
  const int a = m.spring_a[s], b = m.spring_b[s];
  const Vec3 d = x.segment<3>(3 * b) - x.segment<3>(3 * a);
  const double l = d.norm();
  const double k = m.stiffness[s], c = m.damping[s];
  if (!(l > 0.0)) {
    Kx = -k * Mat3::Identity();  // the zero-length force -k (x_b - x_a)
    Dv.setZero();
    return;
  }
  const Vec3 u = d / l;
  const Mat3 uu = u * u.transpose();
  const Mat3 P = Mat3::Identity() - uu;
  Kx = -k * (uu + (1.0 - m.rest_length[s] / l) * P);
  Dv = -c * uu;
  if (c != 0.0) {
    // dashpot force -c (w.u) u depends on x through u: d/dx_b = -(c/l)(u w^T P + (w.u) P)
    const Vec3 w = v.segment<3>(3 * b) - v.segment<3>(3 * a);
    Kx -= (c / l) * (u * (P * w).transpose() + w.dot(u) * P);
  }
}

void ImplicitEulerSolver::refreshNumbering(const MassSpringModel& m) {
  if (revision_ == m.revision && dim_ == m.dim && free_.of_particle.size() == size_t(m.particles()))
    return;
  free_.build(m);
  revision_ = m.revision;
  dim_ = m.dim;
  ldlt_analysed_ = lu_analysed_ = false;
}

// The diagonal M + h c I (drag: -h D_drag = h c I) and the right-hand side M v + h (f - D v) with
// D's drag part, -c v.
void ImplicitEulerSolver::assembleMassAndDrag(const MassSpringModel& m, const State& in, double h) {
  const int dim = dim_;
  for (int k = 0; k < static_cast<int>(free_.particle.size()); ++k) {
    const int i = free_.particle[k];
    for (int c = 0; c < dim; ++c) {
      triplets_.emplace_back(k * dim + c, k * dim + c, m.mass[i] + h * m.drag);
      rhs_[k * dim + c] =
          m.mass[i] * in.v[3 * i + c] + h * (f_[3 * i + c] + m.drag * in.v[3 * i + c]);
    }
  }
}

// Each spring adds B = -h D - h^2 K at (b,b), (a,a) and -B at (a,b), (b,a) (K, D: d f_b / d x_b,
// d f_b / d v_b), and its dashpot's -h D v to the right-hand side; the mouse spring adds h^2 k I.
void ImplicitEulerSolver::assembleSprings(const MassSpringModel& m, const State& in, double h) {
  const int dim = dim_;
  for (int s = 0; s < m.springs(); ++s) {
    const int a = m.spring_a[s], b = m.spring_b[s];
    const int fa = free_.of_particle[a], fb = free_.of_particle[b];
    if (fa < 0 && fb < 0) continue;
    Mat3 Kx, Dv;
    springJacobians(m, s, in.x, in.v, Kx, Dv);
    const Mat3 blk = -h * Dv - h * h * Kx;
    addBlock(triplets_, fb, fb, dim, blk);
    addBlock(triplets_, fa, fa, dim, blk);
    addBlock(triplets_, fa, fb, dim, -blk);
    addBlock(triplets_, fb, fa, dim, -blk);
    if (m.damping[s] == 0.0) continue;
    const Vec3 Dw = Dv * (in.v.segment<3>(3 * b) - in.v.segment<3>(3 * a));
    for (int r = 0; r < dim; ++r) {
      if (fb >= 0) rhs_[fb * dim + r] -= h * Dw[r];
      if (fa >= 0) rhs_[fa * dim + r] += h * Dw[r];
    }
  }
  if (m.grab >= 0 && free_.of_particle[m.grab] >= 0)  // the mouse spring: K = -k I
    addBlock(triplets_, free_.of_particle[m.grab], free_.of_particle[m.grab], dim,
             h * h * m.grab_stiffness * Mat3::Identity());
}

// sol_ = A_^-1 rhs_: LDL^T when A is symmetric (no dashpots) and its solution checks out, else
// sparse LU. Both analyse the pattern once per numbering.
bool ImplicitEulerSolver::solve(const MassSpringModel& m) {
  if (!m.anyDashpot()) {
    if (!ldlt_analysed_) {
      ldlt_.analyzePattern(A_);
      ldlt_analysed_ = true;
    }
    ldlt_.factorize(A_);
    if (ldlt_.info() == Eigen::Success) {
      sol_ = ldlt_.solve(rhs_);
      const double residual = (A_ * sol_ - rhs_).norm();
      if (std::isfinite(residual) && residual <= kLdltResidual * rhs_.norm()) return true;
    }
  }
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
  return true;
}

bool ImplicitEulerSolver::step(const MassSpringModel& m, const State& in, double h, State& out) {
  refreshNumbering(m);
  const int dim = dim_;
  const int nf = static_cast<int>(free_.particle.size());
  const int n = nf * dim;
  out.x = in.x;
  out.v = in.v;
  out.t = in.t + h;
  if (n == 0) return true;

  totalForce(m, in.x, in.v, f_);
  triplets_.clear();
  triplets_.reserve(size_t(m.springs()) * 4 * dim * dim + size_t(n));
  rhs_.resize(n);
  assembleMassAndDrag(m, in, h);
  assembleSprings(m, in, h);
  A_.resize(n, n);
  A_.setFromTriplets(triplets_.begin(), triplets_.end());
  if (!solve(m)) return false;

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
