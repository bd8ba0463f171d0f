#include "sim/gmres.hpp"

#include <Eigen/Dense>
#include <cmath>

namespace sim {

namespace {

// One restart cycle from x: at most `budget` Arnoldi steps on the residual r = b - A x, then
// x += V y. Returns the iterations made; sets `done` when the residual reached `target`.
int gmresCycle(const LinearOperator& apply, const Eigen::VectorXd& b, Eigen::VectorXd& x,
               int restart, int budget, double target, bool& done) {
  const Eigen::Index n = b.size();
  Eigen::VectorXd r;
  apply(x, r);
  r = b - r;
  const double beta = r.norm();
  done = beta <= target;
  if (done) return 0;
  Eigen::MatrixXd V(n, restart + 1), H = Eigen::MatrixXd::Zero(restart + 1, restart);
  Eigen::VectorXd cs(restart), sn(restart), g = Eigen::VectorXd::Zero(restart + 1);
  V.col(0) = r / beta;
  g[0] = beta;
  int k = 0;
  for (; k < restart && k < budget; ++k) {
    Eigen::VectorXd w;
    apply(V.col(k), w);
    for (int i = 0; i <= k; ++i) {
      H(i, k) = V.col(i).dot(w);
      w -= H(i, k) * V.col(i);
    }
    H(k + 1, k) = w.norm();
    const bool breakdown = !(H(k + 1, k) > 0.0);  // the Krylov space is invariant: x is exact
    if (!breakdown) V.col(k + 1) = w / H(k + 1, k);
    for (int i = 0; i < k; ++i) {  // the earlier rotations on the new column
      const double t = cs[i] * H(i, k) + sn[i] * H(i + 1, k);
      H(i + 1, k) = -sn[i] * H(i, k) + cs[i] * H(i + 1, k);
      H(i, k) = t;
    }
    const double den = std::hypot(H(k, k), H(k + 1, k));
    cs[k] = den > 0.0 ? H(k, k) / den : 1.0;
    sn[k] = den > 0.0 ? H(k + 1, k) / den : 0.0;
    H(k, k) = den;
    H(k + 1, k) = 0.0;
    g[k + 1] = -sn[k] * g[k];  // |g[k + 1]| is the residual norm after this step
    g[k] = cs[k] * g[k];
    if (std::abs(g[k + 1]) <= target || breakdown) {
      ++k;
      break;
    }
  }
  // y solves the k x k upper-triangular least-squares system
  const Eigen::VectorXd y = H.topLeftCorner(k, k).triangularView<Eigen::Upper>().solve(g.head(k));
  x += V.leftCols(k) * y;
  done = std::abs(g[k]) <= target;
  return k;
}

}  // namespace

GmresResult gmres(const LinearOperator& apply, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                  const GmresSettings& settings) {
  GmresResult result;
  x = Eigen::VectorXd::Zero(b.size());
  const double target = settings.tolerance * b.norm();
  while (result.iterations < settings.max_iterations) {
    bool done = false;
    result.iterations += gmresCycle(apply, b, x, settings.restart,
                                    settings.max_iterations - result.iterations, target, done);
    if (done) {
      result.converged = true;
      break;
    }
  }
  return result;
}

}  // namespace sim
