// Restarted GMRES (Saad & Schultz, SIAM J. Sci. Stat. Comput. 7, 1986) for A x = b with A given
// only as its product with a vector: the implicit midpoint rule's Newton systems, whose
// matrix-vector product is a finite difference of the pendulum's O(N) vector field. Arnoldi with
// modified Gram-Schmidt, the least-squares problem kept triangular by Givens rotations. In exact
// arithmetic it finds the solution in at most n iterations (the Krylov space of an n x n matrix
// has dimension n at most) when the restart length is at least n.
#pragma once

#include <functional>

#include <Eigen/Core>

namespace sim {

// out = A d
using LinearOperator = std::function<void(const Eigen::VectorXd& d, Eigen::VectorXd& out)>;

struct GmresSettings {
  int restart = 40;          // Krylov vectors kept before a restart
  int max_iterations = 400;  // matrix-vector products in all (restarts included)
  double tolerance = 1e-10;  // stop when |b - A x| <= tolerance |b|
};

struct GmresResult {
  int iterations = 0;      // Krylov iterations (one product with A each)
  bool converged = false;  // |b - A x| <= tolerance |b| (as estimated by the rotations)
};

// Solves A x = b from x = 0; `x` is resized.
GmresResult gmres(const LinearOperator& apply, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                  const GmresSettings& settings);

}  // namespace sim
