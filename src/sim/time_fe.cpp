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

constexpr int kLanes = LltColumnsSolver::kLanes;

// The two triangular solves of a group of rows, nodes[0 .. count), with L by rows (start, column,
// value: strictly lower; the diagonal apart), each row's kLanes numbers side by side.
// Forward, row by row in increasing order: y_i = (w_i - s_i) / L_ii, where the row's sum s_i is
// gathered in kPartialSums partial sums (term k into sum k mod kPartialSums) added as
// (s_0 + s_1) + (s_2 + s_3), so that four terms are in flight rather than one chain of additions.
// Backward, row by row in decreasing order: x_i = w_i / L_ii, then w_j -= L_ij x_i for the row's
// columns j (a scatter: no chain at all), its terms taken in decreasing column, so that the
// factor is read as one descending stream. Both read the one copy of L by rows; no fused
// multiply-add. Each w_j receives its terms in one order whatever the threads (the groups'
// columns are their own descendants), so the split changes no bit.
constexpr int kPartialSums = 4;
struct Rows {
  const int *start, *column;
  const double *value, *diagonal;
};

void forwardScalar(double* w, const int* nodes, int count, const Rows& L) {
  for (int q = 0; q < count; ++q) {
    const int i = nodes[q];
    double sum[kPartialSums][kLanes] = {};
    const int end = L.start[i + 1];
    int k = L.start[i];
    for (; k + kPartialSums <= end; k += kPartialSums)
      for (int p = 0; p < kPartialSums; ++p)
        for (int c = 0; c < kLanes; ++c)
          sum[p][c] += L.value[k + p] * w[kLanes * L.column[k + p] + c];
    for (; k < end; ++k)
      for (int c = 0; c < kLanes; ++c) sum[0][c] += L.value[k] * w[kLanes * L.column[k] + c];
    for (int c = 0; c < kLanes; ++c) {
      const double s = (sum[0][c] + sum[1][c]) + (sum[2][c] + sum[3][c]);
      w[kLanes * i + c] = (w[kLanes * i + c] - s) / L.diagonal[i];
    }
  }
}

void backwardScalar(double* w, const int* nodes, int count, const Rows& L) {
  for (int q = count - 1; q >= 0; --q) {
    const int i = nodes[q];
    double xi[kLanes];
    for (int c = 0; c < kLanes; ++c) w[kLanes * i + c] = xi[c] = w[kLanes * i + c] / L.diagonal[i];
    for (int k = L.start[i + 1] - 1; k >= L.start[i]; --k) {
      double* wj = w + kLanes * L.column[k];
      for (int c = 0; c < kLanes; ++c) wj[c] -= L.value[k] * xi[c];
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
#define SPRINGLAB_SOLVE_AVX2 1
// The same operations lane for lane, a row's four lanes in one register.
__attribute__((target("avx2"))) inline __m256d termAvx2(const Rows& L, const double* w, int k) {
  return _mm256_mul_pd(_mm256_set1_pd(L.value[k]), _mm256_loadu_pd(w + kLanes * L.column[k]));
}

__attribute__((target("avx2"))) void forwardAvx2(double* w, const int* nodes, int count,
                                                 const Rows& L) {
  static_assert(kPartialSums == 4);
  for (int q = 0; q < count; ++q) {
    const int i = nodes[q];
    __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0;
    const int end = L.start[i + 1];
    int k = L.start[i];
    for (; k + kPartialSums <= end; k += kPartialSums) {
      s0 = _mm256_add_pd(s0, termAvx2(L, w, k));
      s1 = _mm256_add_pd(s1, termAvx2(L, w, k + 1));
      s2 = _mm256_add_pd(s2, termAvx2(L, w, k + 2));
      s3 = _mm256_add_pd(s3, termAvx2(L, w, k + 3));
    }
    for (; k < end; ++k) s0 = _mm256_add_pd(s0, termAvx2(L, w, k));
    const __m256d s = _mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3));
    _mm256_storeu_pd(w + kLanes * i,
                     _mm256_div_pd(_mm256_sub_pd(_mm256_loadu_pd(w + kLanes * i), s),
                                   _mm256_set1_pd(L.diagonal[i])));
  }
}

__attribute__((target("avx2"))) void backwardAvx2(double* w, const int* nodes, int count,
                                                  const Rows& L) {
  for (int q = count - 1; q >= 0; --q) {
    const int i = nodes[q];
    const __m256d xi =
        _mm256_div_pd(_mm256_loadu_pd(w + kLanes * i), _mm256_set1_pd(L.diagonal[i]));
    _mm256_storeu_pd(w + kLanes * i, xi);
    // the bounds and arrays in locals: the stores through w may alias anything the compiler
    // cannot see is a local, and it reloaded them from L after every store
    const int first = L.start[i];
    const int* column = L.column;
    const double* value = L.value;
    for (int k = L.start[i + 1] - 1; k >= first; --k) {
      double* wj = w + kLanes * column[k];
      _mm256_storeu_pd(
          wj, _mm256_sub_pd(_mm256_loadu_pd(wj), _mm256_mul_pd(_mm256_set1_pd(value[k]), xi)));
    }
  }
}
#endif

void forward(double* w, const std::vector<int>& nodes, const Rows& L) {
#ifdef SPRINGLAB_SOLVE_AVX2
  if (simdEnabled()) return forwardAvx2(w, nodes.data(), static_cast<int>(nodes.size()), L);
#endif
  forwardScalar(w, nodes.data(), static_cast<int>(nodes.size()), L);
}

void backward(double* w, const std::vector<int>& nodes, const Rows& L) {
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
  order_ = llt.permutationP().indices().data();
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
  const int n = static_cast<int>(diagonal_.size()), columns = static_cast<int>(b.cols());
  if (columns < 2 || columns >= kLanes || llt_->permutationP().size() != n || b.rows() != n) {
    x = llt_->solve(b);
    return;
  }
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < kLanes; ++c) lanes(i)[c] = c < columns ? b(i, c) : 0.0;
  solveLanes();
  x.resize(n, columns);
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < columns; ++c) x(i, c) = lanes(i)[c];
}

void LltColumnsSolver::solveLanes() {
  double* w = w_.data();
  const Rows rows{row_start_.data(), row_column_.data(), row_value_.data(), diagonal_.data()};
  const int threads = row_column_.size() >= kMinTermsPerThread ? std::min(kernelThreads(), 2) : 1;
  util::runTeam(threads, [&](util::TeamMember& team) {
    team.forEach(0, 2, [&](int g) { forward(w, group_[g], rows); });
    team.single([&] {
      forward(w, top_, rows);
      backward(w, top_, rows);
    });
    team.forEach(0, 2, [&](int g) { backward(w, group_[g], rows); });
  });
}

void FreeLaplacian::build(const MassSpringModel& m, const FreeIndex& free) {
  const int nf = static_cast<int>(free.particle.size()), ns = m.springs();
  // each row's neighbours in increasing spring index, the free ones (pass 0) before the fixed
  start.assign(static_cast<size_t>(nf) + 1, 0);
  for (int s = 0; s < ns; ++s) {
    const int fa = free.of_particle[m.spring_a[s]], fb = free.of_particle[m.spring_b[s]];
    if (fa >= 0) ++start[fa + 1];
    if (fb >= 0) ++start[fb + 1];
  }
  for (int k = 0; k < nf; ++k) start[k + 1] += start[k];
  other.resize(static_cast<size_t>(start[nf]));
  stiffness.resize(other.size());
  std::vector<int> next(start.begin(), start.end() - 1);
  fixed_from.resize(nf);
  for (int pass = 0; pass < 2; ++pass) {
    for (int s = 0; s < ns; ++s) {
      const int a = m.spring_a[s], b = m.spring_b[s];
      const int fa = free.of_particle[a], fb = free.of_particle[b];
      auto add = [&](int row, int neighbour, bool fixed) {
        if (row < 0 || fixed != (pass == 1)) return;
        other[next[row]] = neighbour, stiffness[next[row]] = m.stiffness[s];
        ++next[row];
      };
      add(fa, b, fb < 0);
      add(fb, a, fa < 0);
    }
    if (pass == 0) std::copy(next.begin(), next.end(), fixed_from.begin());
  }
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
  laplacian_.build(m, free_);
  revision_ = m.revision;
  h_ = h;
}

namespace {

// (L q)_i = sum_j k_ij (q_i - q_j) of free row k (particle i), and with `fixed`, the fixed
// neighbours' part -sum_j k_ij q_j, that is (L_fc c)_i. Arrays and bounds in locals: the callers
// store through pointers the compiler cannot tell apart from them.
inline void laplacianRow(const FreeLaplacian& L, int k, int i, const double* q, double lq[3],
                         double* fixed) {
  const int *other = L.other.data(), fixedFrom = L.fixed_from[k], end = L.start[k + 1];
  const double* stiffness = L.stiffness.data();
  const double qi[3] = {q[3 * i], q[3 * i + 1], q[3 * i + 2]};
  for (int e = L.start[k]; e < end; ++e) {
    const double* qj = q + 3 * other[e];
    for (int c = 0; c < 3; ++c) lq[c] += stiffness[e] * (qi[c] - qj[c]);
    if (fixed != nullptr && e >= fixedFrom)
      for (int c = 0; c < 3; ++c) fixed[c] -= stiffness[e] * qj[c];
  }
}

}  // namespace

// Unknown k's right-hand side (implicit.hpp) into the solver's lanes, for free rows [from, to);
// force_ holds F(q_a, v_a).
void TimeFeSolver::fillRightHandSide(const MassSpringModel& m, const State& in, double h, int from,
                                     int to) {
  const double *x = in.x.data(), *v = in.v.data(), *F = force_.data(), *mass = m.mass.data();
  const double g[3] = {m.gravity[0], m.gravity[1], m.gravity[2]};
  const int dim = m.dim, *particle = free_.particle.data();
  for (int k = from; k < to; ++k) {
    const int i = particle[k];
    const double mi = mass[i];
    double lq[3] = {0.0, 0.0, 0.0}, lc[3] = {0.0, 0.0, 0.0};  // (L q_a)_i, (L_fc c)_i
    laplacianRow(laplacian_, k, i, x, lq, lc);
    double* lanes = solver_.lanes(k);
    for (int c = dim; c < LltColumnsSolver::kLanes; ++c) lanes[c] = 0.0;
    for (int c = 0; c < dim; ++c) {
      const int j = 3 * i + c;
      lanes[c] = mi * v[j] + h * F[j] + mi * x[j] / h + (2.0 * h / 3.0) * lq[c] -
                 (h / 6.0) * lc[c] - 0.5 * h * mi * g[c];
    }
  }
}

// Free rows [from, to) once q_b is known: p_b = M v_a + h F + (h/2) L (q_a - q_b), gathered row
// by row from change_ = q_a - q_b (zero on the fixed particles).
void TimeFeSolver::finishRows(const MassSpringModel& m, const State& in, double h, State& out,
                              int from, int to) {
  const double *v = in.v.data(), *F = force_.data(), *dq = change_.data(), *mass = m.mass.data();
  const int dim = m.dim, *particle = free_.particle.data();
  double* vb = out.v.data();
  for (int k = from; k < to; ++k) {
    const int i = particle[k];
    double ld[3] = {0.0, 0.0, 0.0};
    laplacianRow(laplacian_, k, i, dq, ld, nullptr);
    for (int c = 0; c < dim; ++c) {
      const int j = 3 * i + c;
      vb[j] = (mass[i] * v[j] + h * F[j] + (h / 2.0) * ld[c]) / mass[i];
    }
  }
}

bool TimeFeSolver::step(const MassSpringModel& m, const State& in, double h, State& out) {
  if (revision_ != m.revision || h_ != h || free_.of_particle.size() != size_t(m.particles()))
    factorise(m, h);
  if (!ok_) {
    error_ = "time_fe: the matrix M/h + (h/6) L is not positive definite";
    return false;
  }
  const int nf = static_cast<int>(free_.particle.size());
  out.x = in.x;
  out.v = in.v;
  out.t = in.t + h;
  if (nf == 0) return true;
  totalForce(m, in.x, in.v, force_);  // on the kernel threads
  change_.setZero(in.x.size());
  const int threads = m.springs() >= kMinSpringsPerThread ? kernelThreads() : 1;
  util::runTeam(threads, [&](util::TeamMember& team) {
    team.forRange(0, nf, [&](int from, int to) { fillRightHandSide(m, in, h, from, to); });
  });
  solver_.solveLanes();
  util::runTeam(threads, [&](util::TeamMember& team) {
    team.forRange(0, nf, [&](int from, int to) {
      for (int k = from; k < to; ++k) {
        const int i = free_.particle[k];
        const double* lanes = solver_.lanes(k);
        for (int c = 0; c < m.dim; ++c) {
          out.x[3 * i + c] = lanes[c];
          change_[3 * i + c] = in.x[3 * i + c] - lanes[c];
        }
      }
    });
    team.forRange(0, nf, [&](int from, int to) { finishRows(m, in, h, out, from, to); });
  });
  return true;
}

}  // namespace sim
