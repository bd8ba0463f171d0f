#include <cmath>

#include "sim/forces.hpp"
#include "sim/implicit.hpp"

namespace sim {

namespace {

// P^T L^-T L^-1 P b for every column of b at once: Eigen's SimplicialLLT::solve, operation for
// operation (Eigen/src/SparseCore/TriangularSolver.h: the forward pass skips a zero, the backward
// pass sums a row then divides; no fused multiply-add), so the same bits, but with one pass over
// L for all the columns where Eigen makes one a column. L is the step's largest data (1.14 M
// numbers at 128²): reading it once instead of three times is most of the solve's time
// (docs/benchmarks.md). `work` holds the rows of the permuted right-hand side, kColumns a row.
template <int kColumns>
void solveColumnsAtOnce(const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>>& llt,
                        const Eigen::MatrixXd& b, std::vector<double>& work, Eigen::MatrixXd& x) {
  const Eigen::SparseMatrix<double>& L = llt.matrixL().nestedExpression();
  const int n = static_cast<int>(L.cols());
  const int* start = L.outerIndexPtr();
  const int* row = L.innerIndexPtr();
  const double* value = L.valuePtr();
  const auto& to = llt.permutationP().indices();
  work.resize(static_cast<size_t>(n) * kColumns);
  double* w = work.data();
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < kColumns; ++c) w[kColumns * to[i] + c] = b(i, c);
  for (int i = 0; i < n; ++i) {  // L y = P b, column i of L at a time
    double* wi = w + kColumns * i;
    bool live[kColumns];
    for (int c = 0; c < kColumns; ++c)
      if ((live[c] = wi[c] != 0.0)) wi[c] /= value[start[i]];  // the diagonal comes first
    for (int k = start[i] + 1; k < start[i + 1]; ++k) {
      double* wr = w + kColumns * row[k];
      for (int c = 0; c < kColumns; ++c)
        if (live[c]) wr[c] -= wi[c] * value[k];
    }
  }
  for (int i = n - 1; i >= 0; --i) {  // L^T z = y, row i of L^T (column i of L) at a time
    double* wi = w + kColumns * i;
    double sum[kColumns];
    for (int c = 0; c < kColumns; ++c) sum[c] = wi[c];
    for (int k = start[i] + 1; k < start[i + 1]; ++k) {
      const double* wr = w + kColumns * row[k];
      for (int c = 0; c < kColumns; ++c) sum[c] -= value[k] * wr[c];
    }
    for (int c = 0; c < kColumns; ++c) wi[c] = sum[c] / value[start[i]];
  }
  x.resize(n, kColumns);
  const auto& from = llt.permutationPinv().indices();
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < kColumns; ++c) x(from[i], c) = w[kColumns * i + c];
}

}  // namespace

void solveLltColumns(const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>>& llt,
                     const Eigen::MatrixXd& b, std::vector<double>& work, Eigen::MatrixXd& x) {
  if (b.cols() == 3 && llt.permutationP().size() == b.rows())
    solveColumnsAtOnce<3>(llt, b, work, x);
  else if (b.cols() == 2 && llt.permutationP().size() == b.rows())
    solveColumnsAtOnce<2>(llt, b, work, x);
  else
    x = llt.solve(b);
}

void TimeFeSolver::factorise(const MassSpringModel& m, double h) {
  free_.build(m);
  const int nf = static_cast<int>(free_.particle.size());
  // S = M/h + (h/6) L_ff: one scalar entry per free particle pair, shared by x, y and z
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(size_t(nf) + 4 * size_t(m.springs()));
  for (int k = 0; k < nf; ++k) t.emplace_back(k, k, m.mass[free_.particle[k]] / h);
  const double w = h / 6.0;
  for (int s = 0; s < m.springs(); ++s) {
    const int fa = free_.of_particle[m.spring_a[s]], fb = free_.of_particle[m.spring_b[s]];
    const double k = w * m.stiffness[s];
    if (fa >= 0) t.emplace_back(fa, fa, k);
    if (fb >= 0) t.emplace_back(fb, fb, k);
    if (fa >= 0 && fb >= 0) {
      t.emplace_back(fa, fb, -k);
      t.emplace_back(fb, fa, -k);
    }
  }
  Eigen::SparseMatrix<double> S(nf, nf);
  S.setFromTriplets(t.begin(), t.end());
  llt_.compute(S);
  ok_ = llt_.info() == Eigen::Success;
  revision_ = m.revision;
  h_ = h;
  // L_fc c: the Laplacian of the fixed particles' (constant) positions, free rows used
  xc_.setZero(3 * m.particles());
}

bool TimeFeSolver::step(const MassSpringModel& m, const State& in, double h, State& out) {
  if (revision_ != m.revision || h_ != h || free_.of_particle.size() != size_t(m.particles()))
    factorise(m, h);
  if (!ok_) {
    error_ = "time_fe: the matrix M/h + (h/6) L is not positive definite";
    return false;
  }
  const int n = m.particles();
  const int nf = static_cast<int>(free_.particle.size());
  const int dim = m.dim;
  out.x = in.x;
  out.v = in.v;
  out.t = in.t + h;
  if (nf == 0) return true;

  // fixed particles' positions only (they enter as constants)
  for (int i = 0; i < n; ++i)
    xc_.segment<3>(3 * i) = m.fixed(i) ? Vec3(in.x.segment<3>(3 * i)) : Vec3::Zero();
  laplacianApply(m, xc_, Lc_);
  laplacianApply(m, in.x, Lqa_);

  // G(q_a) = sum_s k r dl/dq: +k r u on b, -k r u on a
  G_.setZero(3 * n);
  for (int s = 0; s < m.springs(); ++s) {
    const int a = m.spring_a[s], b = m.spring_b[s];
    const Vec3 d = in.x.segment<3>(3 * b) - in.x.segment<3>(3 * a);
    const double l = d.norm();
    if (l == 0.0) continue;  // the rest term's gradient is undefined at l = 0: contributes nothing
    const Vec3 g = (m.stiffness[s] * m.rest_length[s] / l) * d;
    G_.segment<3>(3 * b) += g;
    G_.segment<3>(3 * a) -= g;
  }

  // p_a = M v, plus the dissipative impulse evaluated at the step's start
  p_.resize(3 * n);
  for (int i = 0; i < n; ++i) p_.segment<3>(3 * i) = m.mass[i] * in.v.segment<3>(3 * i);
  const bool dissipative = m.drag != 0.0 || m.anyDashpot();
  if (dissipative) {
    dissipativeForce(m, in.x, in.v, fd_);
    p_ += h * fd_;
  }
  if (m.grab >= 0 && !m.fixed(m.grab))  // the mouse spring: an impulse, like the dissipation
    p_.segment<3>(3 * m.grab) +=
        h * m.grab_stiffness * (m.grab_target - in.x.segment<3>(3 * m.grab));

  rhs_.resize(nf, dim);
  for (int k = 0; k < nf; ++k) {
    const int i = free_.particle[k];
    const double mi = m.mass[i];
    for (int c = 0; c < dim; ++c) {
      const int j = 3 * i + c;
      rhs_(k, c) = p_[j] + mi * in.x[j] / h - (h / 3.0) * Lqa_[j] - (h / 6.0) * Lc_[j] + h * G_[j] +
                   0.5 * h * mi * m.gravity[c];
    }
  }
  solveLltColumns(llt_, rhs_, work_, qb_);
  for (int k = 0; k < nf; ++k) {
    const int i = free_.particle[k];
    for (int c = 0; c < dim; ++c) out.x[3 * i + c] = qb_(k, c);
  }
  laplacianApply(m, out.x, Lqb_);
  for (int k = 0; k < nf; ++k) {
    const int i = free_.particle[k];
    const double mi = m.mass[i];
    for (int c = 0; c < dim; ++c) {
      const int j = 3 * i + c;
      // eq. for p_b minus eq. for p_a: the same value without the cancellation in
      // M (q_b - q_a) / h, so momentum is conserved to round-off
      const double pb = p_[j] - (h / 2.0) * (Lqa_[j] + Lqb_[j]) + h * G_[j] + h * mi * m.gravity[c];
      out.v[j] = pb / mi;
    }
  }
  return true;
}

}  // namespace sim
