#include <algorithm>
#include <cmath>

#include "sim/forces.hpp"
#include "sim/implicit.hpp"
#include "sim/parallel.hpp"
#include "sim/xpbd_kernels.hpp"
#include "util/team.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace sim {

namespace {

constexpr int kLanes = 4;  // a row of the solve: up to three columns, then zeros

// The two triangular solves of a group of rows, nodes[0 .. count), with L by rows (start, column,
// value: strictly lower; diagonal apart) for the forward solve and by columns (Eigen's L: the
// diagonal first) for the backward one. Eigen's order: a row's terms in increasing column (row) and
// no fused multiply-add; the forward solve skips a term whose y_j is zero (Eigen's forward pass
// skips a column whose value is zero), so even zeros keep their sign.
struct Rows {
  const int *start, *column;
  const double *value, *diagonal;
};
struct Columns {
  const int *start, *row;
  const double* value;
};

void forwardScalar(double* w, const int* nodes, int count, const Rows& L) {
  for (int q = 0; q < count; ++q) {
    const int i = nodes[q];
    double acc[kLanes];
    for (int c = 0; c < kLanes; ++c) acc[c] = w[kLanes * i + c];
    for (int k = L.start[i]; k < L.start[i + 1]; ++k) {
      const double* wj = w + kLanes * L.column[k];
      for (int c = 0; c < kLanes; ++c)
        if (wj[c] != 0.0) acc[c] -= wj[c] * L.value[k];
    }
    for (int c = 0; c < kLanes; ++c) w[kLanes * i + c] = acc[c] / L.diagonal[i];
  }
}

void backwardScalar(double* w, const int* nodes, int count, const Columns& L) {
  for (int q = count - 1; q >= 0; --q) {
    const int j = nodes[q];
    double acc[kLanes];
    for (int c = 0; c < kLanes; ++c) acc[c] = w[kLanes * j + c];
    for (int k = L.start[j] + 1; k < L.start[j + 1]; ++k) {
      const double* wr = w + kLanes * L.row[k];
      for (int c = 0; c < kLanes; ++c) acc[c] -= L.value[k] * wr[c];
    }
    for (int c = 0; c < kLanes; ++c) w[kLanes * j + c] = acc[c] / L.value[L.start[j]];
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define SPRINGLAB_SOLVE_AVX2 1
// The same operations lane for lane, the four lanes in one register: a term skipped is a term of
// +0, which leaves every sum as it was (-0 - +0 is -0).
__attribute__((target("avx2"))) void forwardAvx2(double* w, const int* nodes, int count,
                                                 const Rows& L) {
  const __m256d zero = _mm256_setzero_pd();
  for (int q = 0; q < count; ++q) {
    const int i = nodes[q];
    __m256d acc = _mm256_loadu_pd(w + kLanes * i);
    for (int k = L.start[i]; k < L.start[i + 1]; ++k) {
      const __m256d wj = _mm256_loadu_pd(w + kLanes * L.column[k]);
      const __m256d live = _mm256_cmp_pd(wj, zero, _CMP_NEQ_UQ);
      acc = _mm256_sub_pd(acc, _mm256_and_pd(live, _mm256_mul_pd(wj, _mm256_set1_pd(L.value[k]))));
    }
    _mm256_storeu_pd(w + kLanes * i, _mm256_div_pd(acc, _mm256_set1_pd(L.diagonal[i])));
  }
}

__attribute__((target("avx2"))) void backwardAvx2(double* w, const int* nodes, int count,
                                                  const Columns& L) {
  for (int q = count - 1; q >= 0; --q) {
    const int j = nodes[q];
    __m256d acc = _mm256_loadu_pd(w + kLanes * j);
    for (int k = L.start[j] + 1; k < L.start[j + 1]; ++k)
      acc = _mm256_sub_pd(
          acc, _mm256_mul_pd(_mm256_set1_pd(L.value[k]), _mm256_loadu_pd(w + kLanes * L.row[k])));
    _mm256_storeu_pd(w + kLanes * j, _mm256_div_pd(acc, _mm256_set1_pd(L.value[L.start[j]])));
  }
}
#endif

void forward(double* w, const std::vector<int>& nodes, const Rows& L) {
#ifdef SPRINGLAB_SOLVE_AVX2
  if (simdEnabled()) return forwardAvx2(w, nodes.data(), static_cast<int>(nodes.size()), L);
#endif
  forwardScalar(w, nodes.data(), static_cast<int>(nodes.size()), L);
}

void backward(double* w, const std::vector<int>& nodes, const Columns& L) {
#ifdef SPRINGLAB_SOLVE_AVX2
  if (simdEnabled()) return backwardAvx2(w, nodes.data(), static_cast<int>(nodes.size()), L);
#endif
  backwardScalar(w, nodes.data(), static_cast<int>(nodes.size()), L);
}

// Whole subtrees whose work is within this share of an even split end the search (below).
constexpr double kBalance = 0.05;
// The ancestors, solved on one thread, may take at most this share of the work.
constexpr double kMostAncestors = 0.2;
// Below this many terms in L a solve stays on one thread (the barriers would cost more).
constexpr size_t kMinTermsPerThread = 20000;

}  // namespace

void LltColumnsSolver::prepare(const TimeFeLlt& llt) {
  llt_ = &llt;
  const Eigen::SparseMatrix<double>& L = llt.matrixL().nestedExpression();
  const int n = static_cast<int>(L.cols());
  const int *start = L.outerIndexPtr(), *row = L.innerIndexPtr();
  const double* value = L.valuePtr();
  // L by rows: count, then fill column by column, so each row's columns come in increasing order
  row_start_.assign(static_cast<size_t>(n) + 1, 0);
  for (int j = 0; j < n; ++j)
    for (int k = start[j] + 1; k < start[j + 1]; ++k) ++row_start_[row[k] + 1];
  for (int i = 0; i < n; ++i) row_start_[i + 1] += row_start_[i];
  row_column_.resize(static_cast<size_t>(row_start_[n]));
  row_value_.resize(row_column_.size());
  diagonal_.resize(n);
  std::vector<int> next(row_start_.begin(), row_start_.end() - 1);
  std::vector<int> parent(n, -1);  // the elimination tree: a column's first row below the diagonal
  std::vector<double> work(n);     // the terms of a node's row and column
  for (int j = 0; j < n; ++j) {
    diagonal_[j] = value[start[j]];  // Eigen's columns start with the diagonal
    if (start[j + 1] > start[j] + 1) parent[j] = row[start[j] + 1];
    for (int k = start[j] + 1; k < start[j + 1]; ++k) {
      row_column_[next[row[k]]] = j, row_value_[next[row[k]]] = value[k];
      ++next[row[k]];
    }
    work[j] = start[j + 1] - start[j];
  }
  for (int i = 0; i < n; ++i) work[i] += row_start_[i + 1] - row_start_[i];
  split(parent, work);
  w_.assign(kLanes * static_cast<size_t>(n), 0.0);
}

// Opens subtrees from the roots down: the heaviest candidate's root goes to the ancestors and its
// children become candidates, until the candidates, dealt heaviest first to the lighter group,
// are within kBalance of an even split, or the ancestors would pass kMostAncestors of the work.
void LltColumnsSolver::split(const std::vector<int>& parent, const std::vector<double>& work) {
  const int n = static_cast<int>(parent.size());
  std::vector<double> subtree(work);  // a node's work and its descendants' (they come before it)
  std::vector<int> child_start(static_cast<size_t>(n) + 1, 0), children(n);
  for (int j = 0; j < n; ++j)
    if (parent[j] >= 0) subtree[parent[j]] += subtree[j], ++child_start[parent[j] + 1];
  for (int j = 0; j < n; ++j) child_start[j + 1] += child_start[j];
  std::vector<int> next(child_start.begin(), child_start.end() - 1), candidates;
  for (int j = 0; j < n; ++j)
    if (parent[j] >= 0)
      children[next[parent[j]]++] = j;
    else
      candidates.push_back(j);
  double total = 0.0, ancestors = 0.0;
  for (double t : work) total += t;
  top_.clear();
  std::vector<int> dealt;  // each candidate's group
  for (;;) {
    std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
      return subtree[a] != subtree[b] ? subtree[a] > subtree[b] : a < b;
    });
    double load[2] = {0.0, 0.0};
    dealt.clear();
    for (int c : candidates) {
      const int g = load[1] < load[0] ? 1 : 0;
      load[g] += subtree[c], dealt.push_back(g);
    }
    const int c = candidates.empty() ? -1 : candidates.front();
    if (c < 0 || std::max(load[0], load[1]) <= 0.5 * (1.0 + kBalance) * (load[0] + load[1]) ||
        child_start[c] == child_start[c + 1] || ancestors + work[c] > kMostAncestors * total)
      break;
    ancestors += work[c];
    top_.push_back(c);
    candidates.erase(candidates.begin());
    candidates.insert(candidates.end(), children.begin() + child_start[c],
                      children.begin() + child_start[c + 1]);
  }
  for (int g = 0; g < 2; ++g) group_[g].clear();
  std::vector<int> stack;
  for (size_t k = 0; k < candidates.size(); ++k) {
    stack.assign(1, candidates[k]);
    while (!stack.empty()) {
      const int j = stack.back();
      stack.pop_back();
      group_[dealt[k]].push_back(j);
      stack.insert(stack.end(), children.begin() + child_start[j],
                   children.begin() + child_start[j + 1]);
    }
  }
  for (int g = 0; g < 2; ++g) std::sort(group_[g].begin(), group_[g].end());
  std::sort(top_.begin(), top_.end());
}

void LltColumnsSolver::solve(const Eigen::MatrixXd& b, Eigen::MatrixXd& x) {
  const TimeFeLlt& llt = *llt_;
  const int n = static_cast<int>(diagonal_.size()), columns = static_cast<int>(b.cols());
  if (columns < 2 || columns >= kLanes || llt.permutationP().size() != n || b.rows() != n) {
    x = llt.solve(b);
    return;
  }
  const auto& to = llt.permutationP().indices();
  double* w = w_.data();
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < kLanes; ++c) w[kLanes * to[i] + c] = c < columns ? b(i, c) : 0.0;
  const Eigen::SparseMatrix<double>& L = llt.matrixL().nestedExpression();
  const Rows rows{row_start_.data(), row_column_.data(), row_value_.data(), diagonal_.data()};
  const Columns byColumn{L.outerIndexPtr(), L.innerIndexPtr(), L.valuePtr()};
  const int threads = row_column_.size() >= kMinTermsPerThread ? std::min(kernelThreads(), 2) : 1;
  util::runTeam(threads, [&](util::TeamMember& team) {
    team.forEach(0, 2, [&](int g) { forward(w, group_[g], rows); });
    team.single([&] {
      forward(w, top_, rows);
      backward(w, top_, byColumn);
    });
    team.forEach(0, 2, [&](int g) { backward(w, group_[g], byColumn); });
  });
  x.resize(n, columns);
  const auto& from = llt.permutationPinv().indices();
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < columns; ++c) x(from[i], c) = w[kLanes * i + c];
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
  if (ok_) solver_.prepare(llt_);
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
  solver_.solve(rhs_, qb_);
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
