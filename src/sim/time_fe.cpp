#include <algorithm>
#include <cmath>

#include "sim/forces.hpp"
#include "sim/implicit.hpp"
#include "sim/parallel.hpp"
#include "sim/simd.hpp"
#include "sim/simd_lanes.hpp"
#include "util/team.hpp"

namespace sim {

namespace {

constexpr int kLanes = LltColumnsSolver::kLanes;

// The two triangular solves by panels (implicit.hpp's LltPanel: up to four columns of a supernode
// of L), each row's kLanes numbers side by side. Forward, panels in increasing order (Eigen's
// right-looking order): the panel's own rows y_q = (w_q - sum_b L_qb y_b) / L_qq, then every row r
// below w_r -= L_rq y_q for q in turn, so that one load and one store of w_r serve the panel's
// columns; rows that are common ancestors of the two groups collect a group's terms in that
// group's own sums (added up before the ancestors are solved, group 0's first), so the groups
// never write the same number. Backward, panels in decreasing order: x_q = (w_q - s_q - sum_a
// L_aq x_a) / L_qq, where s_q = sum_r L_rq x_r is gathered over the rows below in kPanelColumns /
// count partial sums (row e into sum e mod that), so that about four sums are in flight. No fused
// multiply-add; the scalar path does the same operations in the same order, so the thread count
// and the path change no bit.
constexpr int kPanelColumns = 4;
struct PanelArrays {
  const int *row, *top;
  const double *value, *triangle;
};

template <int P>
void forwardPanelScalar(double* w, double* top, const LltPanel& p, const PanelArrays& a) {
  const double* corner = a.triangle + p.corner;
  double y[P][kLanes];
  for (int q = 0; q < P; ++q)
    for (int c = 0; c < kLanes; ++c) {
      double acc = w[kLanes * (p.first + q) + c];
      for (int b = 0; b < q; ++b) acc -= corner[q * P + b] * y[b][c];
      w[kLanes * (p.first + q) + c] = y[q][c] = acc / corner[q * P + q];
    }
  const double* v = a.value + p.values;
  for (int e = p.row_begin; e < p.top_begin; ++e, v += P)
    for (int c = 0; c < kLanes; ++c) {
      double x = w[kLanes * a.row[e] + c];
      for (int q = 0; q < P; ++q) x -= v[q] * y[q][c];
      w[kLanes * a.row[e] + c] = x;
    }
  for (int e = p.top_begin; e < p.row_end; ++e, v += P)
    for (int c = 0; c < kLanes; ++c) {
      double x = top[kLanes * a.top[e] + c];
      for (int q = 0; q < P; ++q) x += v[q] * y[q][c];
      top[kLanes * a.top[e] + c] = x;
    }
}

template <int P>
void backwardPanelScalar(double* w, const LltPanel& p, const PanelArrays& a) {
  constexpr int kSums = kPanelColumns / P >= 4 ? 4 : kPanelColumns / P >= 2 ? 2 : 1;
  double s[P][kSums][kLanes] = {};
  const double* v = a.value + p.values;
  const int rows = p.row_end - p.row_begin;
  for (int e = 0; e < rows; ++e)
    for (int q = 0; q < P; ++q)
      for (int c = 0; c < kLanes; ++c)
        s[q][e % kSums][c] += v[e * P + q] * w[kLanes * a.row[p.row_begin + e] + c];
  const double* corner = a.triangle + p.corner;
  double x[P][kLanes];
  for (int q = P - 1; q >= 0; --q)
    for (int c = 0; c < kLanes; ++c) {
      double sum = s[q][0][c];
      if constexpr (kSums == 2) sum = s[q][0][c] + s[q][1][c];
      if constexpr (kSums == 4) sum = (s[q][0][c] + s[q][1][c]) + (s[q][2][c] + s[q][3][c]);
      double acc = w[kLanes * (p.first + q) + c] - sum;
      for (int b = q + 1; b < P; ++b) acc -= corner[b * P + q] * x[b][c];
      w[kLanes * (p.first + q) + c] = x[q][c] = acc / corner[q * P + q];
    }
}

#ifdef SPRINGLAB_X86_SIMD
// The same operations lane for lane, a row's four lanes in one register (sim/simd_lanes.hpp).
using simd::Avx2;
template <int P>
SPRINGLAB_AVX2 void forwardPanelAvx2(double* w, double* top, const LltPanel& p,
                                     const PanelArrays& a) {
  const double* corner = a.triangle + p.corner;
  Avx2::V y[P];
  for (int q = 0; q < P; ++q) {
    Avx2::V acc = Avx2::load(w + kLanes * (p.first + q));
    for (int b = 0; b < q; ++b)
      acc = Avx2::sub(acc, Avx2::mul(Avx2::set1(corner[q * P + b]), y[b]));
    y[q] = Avx2::div(acc, Avx2::set1(corner[q * P + q]));
    Avx2::store(w + kLanes * (p.first + q), y[q]);
  }
  // bounds and arrays in locals: a store through w may alias anything else
  const int *row = a.row, *topAt = a.top, topBegin = p.top_begin, rowEnd = p.row_end;
  const double* v = a.value + p.values;
  for (int e = p.row_begin; e < topBegin; ++e, v += P) {
    double* wr = w + kLanes * row[e];
    Avx2::V x = Avx2::load(wr);
    for (int q = 0; q < P; ++q) x = Avx2::sub(x, Avx2::mul(Avx2::set1(v[q]), y[q]));
    Avx2::store(wr, x);
  }
  for (int e = topBegin; e < rowEnd; ++e, v += P) {
    double* tr = top + kLanes * topAt[e];
    Avx2::V x = Avx2::load(tr);
    for (int q = 0; q < P; ++q) x = Avx2::add(x, Avx2::mul(Avx2::set1(v[q]), y[q]));
    Avx2::store(tr, x);
  }
}

template <int P>
SPRINGLAB_AVX2 void backwardPanelAvx2(double* w, const LltPanel& p, const PanelArrays& a) {
  constexpr int kSums = kPanelColumns / P >= 4 ? 4 : kPanelColumns / P >= 2 ? 2 : 1;
  Avx2::V s[P][kSums];
  for (int q = 0; q < P; ++q)
    for (int k = 0; k < kSums; ++k) s[q][k] = Avx2::zero();
  const double* v = a.value + p.values;
  const int* row = a.row + p.row_begin;
  const int rows = p.row_end - p.row_begin;
  int e = 0;
  for (; e + kSums <= rows; e += kSums)
    for (int k = 0; k < kSums; ++k) {
      const Avx2::V xr = Avx2::load(w + kLanes * row[e + k]);
      for (int q = 0; q < P; ++q)
        s[q][k] = Avx2::add(s[q][k], Avx2::mul(Avx2::set1(v[(e + k) * P + q]), xr));
    }
  for (int k = 0; e < rows; ++e, ++k) {
    const Avx2::V xr = Avx2::load(w + kLanes * row[e]);
    for (int q = 0; q < P; ++q)
      s[q][k] = Avx2::add(s[q][k], Avx2::mul(Avx2::set1(v[e * P + q]), xr));
  }
  const double* corner = a.triangle + p.corner;
  Avx2::V x[P];
  for (int q = P - 1; q >= 0; --q) {
    Avx2::V sum = s[q][0];
    if constexpr (kSums == 2) sum = Avx2::add(s[q][0], s[q][1]);
    if constexpr (kSums == 4)
      sum = Avx2::add(Avx2::add(s[q][0], s[q][1]), Avx2::add(s[q][2], s[q][3]));
    Avx2::V acc = Avx2::sub(Avx2::load(w + kLanes * (p.first + q)), sum);
    for (int b = q + 1; b < P; ++b)
      acc = Avx2::sub(acc, Avx2::mul(Avx2::set1(corner[b * P + q]), x[b]));
    x[q] = Avx2::div(acc, Avx2::set1(corner[q * P + q]));
    Avx2::store(w + kLanes * (p.first + q), x[q]);
  }
}
#endif

template <template <int> class Kernel, class... Args>
void byWidth(int count, Args&&... args) {
  switch (count) {
    case 1:
      return Kernel<1>::run(args...);
    case 2:
      return Kernel<2>::run(args...);
    case 3:
      return Kernel<3>::run(args...);
    default:
      return Kernel<4>::run(args...);
  }
}
template <int P>
struct Forward {
  static void run(double* w, double* top, const LltPanel& p, const PanelArrays& a) {
#ifdef SPRINGLAB_X86_SIMD
    if (simdEnabled()) return forwardPanelAvx2<P>(w, top, p, a);
#endif
    forwardPanelScalar<P>(w, top, p, a);
  }
};
template <int P>
struct Backward {
  static void run(double* w, const LltPanel& p, const PanelArrays& a) {
#ifdef SPRINGLAB_X86_SIMD
    if (simdEnabled()) return backwardPanelAvx2<P>(w, p, a);
#endif
    backwardPanelScalar<P>(w, p, a);
  }
};

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
  std::vector<int> parent(n, -1);  // the elimination tree: a column's first row below the diagonal
  std::vector<double> work(n);     // the terms of a node's row and column
  for (int j = 0; j < n; ++j) {
    if (start[j + 1] > start[j] + 1) parent[j] = row[start[j] + 1];
    work[j] += start[j + 1] - start[j];
    for (int k = start[j] + 1; k < start[j + 1]; ++k) work[row[k]] += 1.0;
  }
  terms_ = static_cast<size_t>(L.nonZeros()) - static_cast<size_t>(n);
  split(parent, work);
  buildPanels(L);
  w_.assign(kLanes * static_cast<size_t>(n), 0.0);
  for (int g = 0; g < 2; ++g) top_terms_[g].assign(kLanes * top_.size(), 0.0);
}

// Cuts L's columns into panels: a panel grows while the next column is in the same group and the
// column before has the next one's rows below plus the next one itself (one supernode), up to
// kPanelColumns. Eigen's columns hold the diagonal first, then the rows below, ascending.
void LltColumnsSolver::buildPanels(const Eigen::SparseMatrix<double>& L) {
  const int n = static_cast<int>(L.cols());
  const int *start = L.outerIndexPtr(), *row = L.innerIndexPtr();
  const double* value = L.valuePtr();
  std::vector<int> where(n, 2), topAt(n, -1);  // group 0, 1, or 2: the ancestors
  for (int g = 0; g < 2; ++g)
    for (int j : group_[g]) where[j] = g;
  for (size_t t = 0; t < top_.size(); ++t) topAt[top_[t]] = static_cast<int>(t);
  auto nests = [&](int j) {  // column j's rows below are j + 1 and column j + 1's rows below
    const int below = start[j + 1] - start[j] - 1;
    return below >= 1 && row[start[j] + 1] == j + 1 && below == start[j + 2] - start[j + 1] &&
           std::equal(row + start[j] + 2, row + start[j + 1], row + start[j + 1] + 1);
  };
  panels_.clear(), panel_row_.clear(), panel_top_.clear(), panel_value_.clear();
  panel_triangle_.clear();
  for (auto& list : panels_of_) list.clear();
  for (int j = 0; j < n;) {
    int count = 1;
    while (count < kPanelColumns && j + count < n && where[j + count] == where[j] &&
           nests(j + count - 1))
      ++count;
    const int last = j + count - 1, group = where[j];
    LltPanel panel{j,
                   count,
                   static_cast<int>(panel_row_.size()),
                   0,
                   0,
                   static_cast<int>(panel_value_.size()),
                   static_cast<int>(panel_triangle_.size())};
    for (int a = 0; a < count; ++a)  // the corner: row a of the panel's columns, by rows
      for (int b = 0; b < count; ++b)
        panel_triangle_.push_back(b <= a ? value[start[j + b] + (a - b)] : 0.0);
    // the rows below: a group's own first, then the ancestors (of a group's panel)
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) panel.top_begin = static_cast<int>(panel_row_.size());
      for (int k = start[last] + 1; k < start[last + 1]; ++k) {
        const int r = row[k], offset = k - start[last];  // r's place below the panel's last row
        const bool apart = group < 2 && where[r] == 2;
        if (apart != (pass == 1)) continue;
        panel_row_.push_back(r);
        panel_top_.push_back(apart ? topAt[r] : -1);
        for (int q = 0; q < count; ++q)
          panel_value_.push_back(value[start[j + q] + (last - j - q) + offset]);
      }
    }
    panel.row_end = static_cast<int>(panel_row_.size());
    panels_of_[group].push_back(static_cast<int>(panels_.size()));
    panels_.push_back(panel);
    j += count;
  }
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
  const int n = static_cast<int>(w_.size() / kLanes), columns = static_cast<int>(b.cols());
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
  const PanelArrays arrays{panel_row_.data(), panel_top_.data(), panel_value_.data(),
                           panel_triangle_.data()};
  const int threads = terms_ >= kMinTermsPerThread ? std::min(kernelThreads(), 2) : 1;
  util::runTeam(threads, [&](util::TeamMember& team) {
    team.forEach(0, 2, [&](int g) {
      double* top = top_terms_[g].data();
      std::fill(top_terms_[g].begin(), top_terms_[g].end(), 0.0);
      for (int i : panels_of_[g]) byWidth<Forward>(panels_[i].count, w, top, panels_[i], arrays);
    });
    team.single([&] {
      for (size_t t = 0; t < top_.size(); ++t)
        for (int c = 0; c < kLanes; ++c) {
          double& wt = w[kLanes * static_cast<size_t>(top_[t]) + c];
          wt = (wt - top_terms_[0][kLanes * t + c]) - top_terms_[1][kLanes * t + c];
        }
      for (int i : panels_of_[2])
        byWidth<Forward>(panels_[i].count, w, nullptr, panels_[i], arrays);
      for (auto i = panels_of_[2].rbegin(); i != panels_of_[2].rend(); ++i)
        byWidth<Backward>(panels_[*i].count, w, panels_[*i], arrays);
    });
    team.forEach(0, 2, [&](int g) {
      for (auto i = panels_of_[g].rbegin(); i != panels_of_[g].rend(); ++i)
        byWidth<Backward>(panels_[*i].count, w, panels_[*i], arrays);
    });
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

Eigen::SparseMatrix<double> massAndLaplacian(const MassSpringModel& m, const FreeIndex& free,
                                             double mass_divisor, double laplacian_scale,
                                             double damping_scale) {
  const bool damped = damping_scale != 0.0 && m.damping.size() == m.springs();
  const int nf = static_cast<int>(free.particle.size());
  std::vector<Eigen::Triplet<double>> t;
  t.reserve(size_t(nf) + 4 * size_t(m.springs()));
  for (int k = 0; k < nf; ++k) t.emplace_back(k, k, m.mass[free.particle[k]] / mass_divisor);
  for (int s = 0; s < m.springs(); ++s) {
    const int fa = free.of_particle[m.spring_a[s]], fb = free.of_particle[m.spring_b[s]];
    const double k =
        laplacian_scale * m.stiffness[s] + (damped ? damping_scale * m.damping[s] : 0.0);
    if (fa >= 0) t.emplace_back(fa, fa, k);
    if (fb >= 0) t.emplace_back(fb, fb, k);
    if (fa >= 0 && fb >= 0) {
      t.emplace_back(fa, fb, -k);
      t.emplace_back(fb, fa, -k);
    }
  }
  Eigen::SparseMatrix<double> S(nf, nf);
  S.setFromTriplets(t.begin(), t.end());
  return S;
}

void TimeFeSolver::factorise(const MassSpringModel& m, double h) {
  free_.build(m);
  const Eigen::SparseMatrix<double> S = massAndLaplacian(m, free_, h, h / 6.0);
  llt_.compute(S);
  ok_ = llt_.info() == Eigen::Success;
  if (ok_) solver_.prepare(llt_);
  laplacian_.build(m, free_);
  revision_ = m.revision;
  h_ = h;
}

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
    laplacian_.row(k, i, x, lq, lc);
    double* lanes = solver_.lanes(k);
    for (int c = dim; c < LltColumnsSolver::kLanes; ++c) lanes[c] = 0.0;
    for (int c = 0; c < dim; ++c) {
      const int j = 3 * i + c;
      lanes[c] = mi * v[j] + h * F[j] + mi * x[j] / h + (2.0 * h / 3.0) * lq[c] -
                 (h / 6.0) * lc[c] - 0.5 * h * mi * g[c];
      rhs_[j] = lanes[c], laplacian_qa_[j] = lq[c] - lc[c];  // b, and (L_ff q_a)_i
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
    laplacian_.row(k, i, dq, ld, nullptr);
    double residual = 0.0, size = 0.0;  // |(A q_b - b)_i|^2, |b_i|^2
    for (int c = 0; c < dim; ++c) {
      const int j = 3 * i + c;
      vb[j] = (mass[i] * v[j] + h * F[j] + (h / 2.0) * ld[c]) / mass[i];
      // A q_b = M q_b / h + (h/6) L_ff q_b, with L_ff q_b = L_ff q_a - L_ff (q_a - q_b)
      const double r = mass[i] * out.x[j] / h + (h / 6.0) * (laplacian_qa_[j] - ld[c]) - rhs_[j];
      residual += r * r, size += rhs_[j] * rhs_[j];
    }
    row_residual_[k] = residual, row_size_[k] = size;
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
  out.t = in.t + h;
  if (nf == 0) {
    out.x = in.x, out.v = in.v;
    residual_ = 0.0;
    return true;
  }
  totalForce(m, in.x, in.v, force_);  // on the kernel threads
  const Eigen::Index size = in.x.size();
  out.x.resize(size), out.v.resize(size), change_.resize(size);
  rhs_.resize(size), laplacian_qa_.resize(size), row_residual_.resize(nf), row_size_.resize(nf);
  const int threads = m.springs() >= kMinSpringsPerThread ? kernelThreads() : 1;
  util::runTeam(threads, [&](util::TeamMember& team) {
    // q_b and v_b start as q_a and v_a (the fixed particles, the coordinates past dim)
    team.forRange(0, static_cast<int>(size), [&](int from, int to) {
      out.x.segment(from, to - from) = in.x.segment(from, to - from);
      out.v.segment(from, to - from) = in.v.segment(from, to - from);
      change_.segment(from, to - from).setZero();
    });
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
  const double size2 = row_size_.sum();  // in row order: the same whatever the thread count
  residual_ = size2 > 0.0 ? std::sqrt(row_residual_.sum() / size2) : 0.0;
  return true;
}

}  // namespace sim
