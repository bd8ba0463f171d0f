#include "sim/spectrum.hpp"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "sim/forces.hpp"

namespace sim {

namespace {

// Lanczos iterations at most, and the relative change of the top Ritz value that ends them
// earlier: the extreme eigenvalues converge first, well within a few dozen steps.
constexpr int kMaxLanczos = 80;
constexpr double kRitzTolerance = 1e-12;

// A self-adjoint operator in the M inner product: A = M^-1 K, <x, y>_M = x^T M y.
struct MOperator {
  int n = 0;
  std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> apply;  // y = M^-1 K x
  std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> mass;   // y = M x
};

// The largest eigenvalue of A by Lanczos with full reorthogonalisation in the M inner product
// (Golub & Van Loan, Matrix Computations, 4th ed., sec. 10.1, with <.,.>_M for the dot product).
double largestEigenvalue(const MOperator& op) {
  if (op.n == 0) return 0.0;
  std::vector<Eigen::VectorXd> v, mv;  // the M-orthonormal basis and M times it
  Eigen::VectorXd q(op.n), w, mq;
  for (int i = 0; i < op.n; ++i) q[i] = 1.0 + 0.5 * std::sin(1.7 * i);  // deterministic, generic
  op.mass(q, mq);
  q /= std::sqrt(q.dot(mq));
  std::vector<double> alpha, beta;
  double top = -std::numeric_limits<double>::infinity();
  for (int j = 0; j < std::min(kMaxLanczos, op.n); ++j) {
    v.push_back(q);
    op.mass(q, mq);
    mv.push_back(mq);
    op.apply(q, w);
    alpha.push_back(w.dot(mq));
    for (int pass = 0; pass < 2; ++pass)  // twice is enough (Kahan, "twice is enough")
      for (size_t i = 0; i < v.size(); ++i) w -= w.dot(mv[i]) * v[i];
    Eigen::VectorXd mw;
    op.mass(w, mw);
    const double b = std::sqrt(std::max(w.dot(mw), 0.0));
    const int m = static_cast<int>(alpha.size());
    Eigen::MatrixXd T = Eigen::MatrixXd::Zero(m, m);
    for (int i = 0; i < m; ++i) T(i, i) = alpha[i];
    for (int i = 0; i + 1 < m; ++i) T(i, i + 1) = T(i + 1, i) = beta[i];
    const double ritz = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(T).eigenvalues().maxCoeff();
    const bool converged = std::abs(ritz - top) <= kRitzTolerance * std::abs(ritz);
    top = ritz;
    if (converged || !(b > kRitzTolerance * std::abs(ritz))) break;  // an invariant subspace
    beta.push_back(b);
    q = w / b;
  }
  return top;
}

// Mass-spring: the free coordinates (dim per free particle); K x from each spring's 3x3 block.
MOperator massSpringOperator(const MassSpringModel& m, const State& s,
                             std::vector<Eigen::Matrix3d>& blocks, std::vector<int>& freeOf) {
  const int dim = m.dim;
  freeOf.assign(m.particles(), -1);
  int nf = 0;
  for (int i = 0; i < m.particles(); ++i)
    if (!m.fixed(i)) freeOf[i] = nf++;
  const Eigen::VectorXd still = Eigen::VectorXd::Zero(s.x.size());  // undamped: v = 0
  blocks.resize(m.springs());
  Eigen::Matrix3d dv;
  for (int k = 0; k < m.springs(); ++k) {
    springJacobians(m, k, s.x, still, blocks[k], dv);
    blocks[k] = -blocks[k];  // the Hessian is -df/dx
  }
  MOperator op;
  op.n = nf * dim;
  op.mass = [&m, &freeOf, dim](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
    y.resize(x.size());
    for (int i = 0; i < m.particles(); ++i)
      if (freeOf[i] >= 0)
        y.segment(freeOf[i] * dim, dim) = m.mass[i] * x.segment(freeOf[i] * dim, dim);
  };
  op.apply = [&m, &freeOf, &blocks, dim](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
    y = Eigen::VectorXd::Zero(x.size());
    auto at = [&](int p) {
      Eigen::Vector3d u = Eigen::Vector3d::Zero();
      if (freeOf[p] >= 0) u.head(dim) = x.segment(freeOf[p] * dim, dim);
      return u;
    };
    for (int k = 0; k < m.springs(); ++k) {
      const int a = m.spring_a[k], b = m.spring_b[k];
      const Eigen::Vector3d f = blocks[k] * (at(b) - at(a));
      if (freeOf[b] >= 0) y.segment(freeOf[b] * dim, dim) += f.head(dim);
      if (freeOf[a] >= 0) y.segment(freeOf[a] * dim, dim) -= f.head(dim);
    }
    for (int i = 0; i < m.particles(); ++i)  // M^-1
      if (freeOf[i] >= 0) y.segment(freeOf[i] * dim, dim) *= m.inv_mass[i];
  };
  return op;
}

// Pendulum: V = -sum_i m_i g.pos_i has the diagonal Hessian
// d2V/dphi_j^2 = (sum_{i>=j} m_i) R_j g.e_j with e_j = (sin phi_j, -cos phi_j)
// (docs/scenes.md#pendulums); M(phi) and M^-1 are applied in O(N) by the recursions of
// sim/pendulum.hpp.
MOperator pendulumOperator(const PendulumModel& m, const State& s, Eigen::VectorXd& hessian,
                           PendulumWork& work) {
  const int n = m.links();
  hessian.resize(n);
  double tail = 0.0;
  for (int j = n - 1; j >= 0; --j) {
    tail += m.mass[j];
    const double ge = m.gravity.x() * std::sin(s.x[j]) - m.gravity.y() * std::cos(s.x[j]);
    hessian[j] = tail * m.length[j] * ge;
  }
  MOperator op;
  op.n = n;
  op.mass = [&m, &s](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
    pendulumMomentum(m, s.x, x, y);
  };
  op.apply = [&m, &s, &hessian, &work](const Eigen::VectorXd& x, Eigen::VectorXd& y) {
    const Eigen::VectorXd kx = hessian.cwiseProduct(x);
    pendulumVelocity(m, s.x, kx, y, work);
  };
  return op;
}

}  // namespace

namespace {
// sqrt of the largest eigenvalue, 0 when none is positive
double omegaOf(double lambda) {
  return lambda > 0.0 ? std::sqrt(lambda) : 0.0;
}
}  // namespace

double omegaMax(const MassSpringModel& m, const State& s) {
  std::vector<Eigen::Matrix3d> blocks;
  std::vector<int> freeOf;
  return omegaOf(largestEigenvalue(massSpringOperator(m, s, blocks, freeOf)));
}

double omegaMax(const PendulumModel& m, const State& s) {
  Eigen::VectorXd hessian;
  PendulumWork work;
  return omegaOf(largestEigenvalue(pendulumOperator(m, s, hessian, work)));
}

}  // namespace sim
