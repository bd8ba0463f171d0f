#include "sim/dirk_stage.hpp"

#include <cmath>

#include "sim/forces.hpp"

namespace sim {

namespace {
// The contract's tolerance (docs/integrators.md#your-own-method) and a bound on the iterations:
// Newton's method from V^ converges in a few where the stage is solvable at all.
constexpr double kRelativeResidual = 1e-10;
constexpr int kMaxNewtonIterations = 50;
// LDL^T without pivoting may lose accuracy on an indefinite K (compressed springs): its step is
// kept only with |A dv + r| <= this |r|, else sparse LU solves (implicit_euler.cpp's rule).
constexpr double kLdltResidual = 1e-10;

void addBlock(std::vector<Eigen::Triplet<double>>& t, int pi, int pj, int dim,
              const Eigen::Matrix3d& block) {
  if (pi < 0 || pj < 0) return;
  for (int r = 0; r < dim; ++r)
    for (int c = 0; c < dim; ++c) t.emplace_back(pi * dim + r, pj * dim + c, block(r, c));
}
}  // namespace

// r = M (V - V^) - gamma f(X, V) on the free coordinates, relative to |M (V - V^)| + gamma |f|
double DirkStageSolver::residual(const MassSpringModel& m, double gamma,
                                 const Eigen::VectorXd& vhat) {
  totalForce(m, x_, v_, f_);
  const int dim = dim_;
  r_.resize(static_cast<Eigen::Index>(free_.particle.size()) * dim);
  double scale = 0.0;
  for (size_t k = 0; k < free_.particle.size(); ++k) {
    const int i = free_.particle[k];
    for (int c = 0; c < dim; ++c) {
      const double inertia = m.mass[i] * (v_[3 * i + c] - vhat[3 * i + c]);
      const double force = gamma * f_[3 * i + c];
      r_[k * dim + c] = inertia - force;
      scale += inertia * inertia + force * force;
    }
  }
  return scale > 0.0 ? r_.norm() / std::sqrt(scale) : r_.norm();
}

// M - gamma D - gamma^2 K at the iterate, over the free coordinates
void DirkStageSolver::assemble(const MassSpringModel& m, double gamma) {
  const int dim = dim_;
  triplets_.clear();
  for (size_t k = 0; k < free_.particle.size(); ++k)
    for (int c = 0; c < dim; ++c)
      triplets_.emplace_back(k * dim + c, k * dim + c, m.mass[free_.particle[k]] + gamma * m.drag);
  for (int s = 0; s < m.springs(); ++s) {
    const int fa = free_.of_particle[m.spring_a[s]], fb = free_.of_particle[m.spring_b[s]];
    if (fa < 0 && fb < 0) continue;
    Eigen::Matrix3d Kx, Dv;
    springJacobians(m, s, x_, v_, Kx, Dv);
    const Eigen::Matrix3d blk = -gamma * Dv - gamma * gamma * Kx;
    addBlock(triplets_, fb, fb, dim, blk), addBlock(triplets_, fa, fa, dim, blk);
    addBlock(triplets_, fa, fb, dim, -blk), addBlock(triplets_, fb, fa, dim, -blk);
  }
  if (m.grab >= 0 && free_.of_particle[m.grab] >= 0)  // the mouse spring: K = -k I
    addBlock(triplets_, free_.of_particle[m.grab], free_.of_particle[m.grab], dim,
             gamma * gamma * m.grab_stiffness * Eigen::Matrix3d::Identity());
  const auto n = static_cast<Eigen::Index>(free_.particle.size()) * dim;
  A_.resize(n, n);
  A_.setFromTriplets(triplets_.begin(), triplets_.end());
}

bool DirkStageSolver::solveStep(const MassSpringModel& m, Eigen::VectorXd& dv) {
  if (!m.anyDashpot()) {
    if (!ldlt_analysed_) ldlt_.analyzePattern(A_), ldlt_analysed_ = true;
    ldlt_.factorize(A_);
    if (ldlt_.info() == Eigen::Success) {
      dv = ldlt_.solve(-r_);
      const double residual = (A_ * dv + r_).norm();
      if (std::isfinite(residual) && residual <= kLdltResidual * r_.norm()) return true;
    }
  }
  if (!lu_analysed_) lu_.analyzePattern(A_), lu_analysed_ = true;
  lu_.factorize(A_);
  if (lu_.info() != Eigen::Success) return false;
  dv = lu_.solve(-r_);
  return true;
}

bool DirkStageSolver::solve(const MassSpringModel& m, double gamma, Eigen::VectorXd& x,
                            Eigen::VectorXd& v, Eigen::VectorXd& kx, Eigen::VectorXd& kv) {
  if (revision_ != m.revision || dim_ != m.dim) {
    free_.build(m);
    revision_ = m.revision, dim_ = m.dim, ldlt_analysed_ = lu_analysed_ = false;
  }
  const Eigen::VectorXd vhat = v;
  v_ = v, x_ = x + gamma * v_;
  const int dim = dim_;
  for (int it = 0;; ++it) {
    residual_ = residual(m, gamma, vhat);
    if (!std::isfinite(residual_)) break;
    if (residual_ <= kRelativeResidual || free_.particle.empty()) {
      x = x_, v = v_, kx = v_;
      acceleration(m, x_, v_, kv);
      return true;
    }
    if (it == kMaxNewtonIterations) break;
    assemble(m, gamma);
    Eigen::VectorXd dv;
    if (!solveStep(m, dv)) break;
    for (size_t k = 0; k < free_.particle.size(); ++k)
      for (int c = 0; c < dim; ++c) {
        const int j = 3 * free_.particle[k] + c;
        v_[j] += dv[k * dim + c];
        x_[j] = x[j] + gamma * v_[j];
      }
  }
  error_ = "a diagonally implicit stage did not converge (relative residual " +
           std::to_string(residual_) + ")";
  return false;
}

}  // namespace sim
