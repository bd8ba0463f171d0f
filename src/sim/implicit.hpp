// The two mass-spring integrators that solve a sparse linear system per step. Both remove fixed
// particles from the unknowns (seed 001's selection matrix P) and keep only `dim` coordinates per
// particle (2 for planar scenes).
#pragma once

// before Eigen/MetisSupport, which uses std::cerr without including it
#include <iostream>

#include <Eigen/MetisSupport>
#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "sim/model.hpp"

namespace sim {

// Free-particle numbering shared by both solvers.
struct FreeIndex {
  std::vector<int> of_particle;  // -1 for fixed particles
  std::vector<int> particle;     // free index -> particle
  void build(const MassSpringModel& m);
};

// implicit_euler (seed 001, extended with damping; docs/integrators.md#implicit_euler): with f the
// total force, K = df/dx (elastic part incl. the geometric term k (1 - r/l)(I - u u^T), plus the
// dashpots' dependence on x) and D = df/dv, solve (M - h D - h^2 K) v' = M v + h (f - D v),
// x' = x + h v'. One Newton step of backward Euler; first order; dissipates energy.
class ImplicitEulerSolver {
 public:
  // Returns false (with error()) when the linear solve fails; `out` is then unspecified.
  bool step(const MassSpringModel& m, const State& in, double h, State& out);
  const std::string& error() const { return error_; }

 private:
  void refreshNumbering(const MassSpringModel& m);  // after a change of topology or dim
  void assembleMassAndDrag(const MassSpringModel& m, const State& in, double h);
  void assembleSprings(const MassSpringModel& m, const State& in, double h);
  bool solve(const MassSpringModel& m);  // A_ sol_ = rhs_
  FreeIndex free_;
  std::uint64_t revision_ = ~std::uint64_t{0};
  int dim_ = 0;
  std::vector<Eigen::Triplet<double>> triplets_;
  Eigen::SparseMatrix<double> A_;
  // symmetric (no dashpots): LDL^T, which copes with the indefinite K of compressed springs;
  // dashpots make K unsymmetric: sparse LU. Both analyse the constant pattern once.
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu_;
  bool ldlt_analysed_ = false, lu_analysed_ = false;
  Eigen::VectorXd f_, rhs_, sol_;
  std::string error_;
};

// time_fe (seed 003 eqs. 5-10 generalised to any network; docs/integrators.md#time_fe). Positions
// are linear in time over the step; with L the stiffness Laplacian, G(q) = sum_s k r dl/dq (the
// spring "rest" term kept by the rectangle rule at the step's start) and g gravity, the discrete
// action of one step is
//   A = (q_b - q_a)^T M (q_b - q_a) / 2h - (h/6)(q_a^T L q_a + q_a^T L q_b + q_b^T L q_b)
//       - h sum_s k r^2 / 2 + h sum_s k r l_s(q_a) + (h/2) g^T M (q_a + q_b)
// and p_a = -dA/dq_a, p_b = dA/dq_b give
//   (M/h + (h/6) L_ff) q_b = p_a + M q_a / h - (h/3)(L q_a)_f - (h/6) L_fc c + h G(q_a) + (h/2) M g
//   p_b = M (q_b - q_a)/h - (h/6)(L q_a + 2 L q_b)_f + (h/2) M g
//       = p_a - (h/2)(L q_a + L q_b)_f + h G(q_a) + h M g   (no cancellation)
// (c: the fixed particles' positions). The matrix is the same for x, y and z, so it is
// factorised once (per k, masses, topology, h) and solved with dim right-hand sides.
// Drag and dashpots enter as the impulse p_a += h F_diss(q_a, M^-1 p_a). First order, symplectic.
// The form computed: G = f_s + L q (f_s the spring forces; the fixed particles in q at c), so with
// F the total force of the explicit methods (sim/forces.hpp: springs, gravity, drag, dashpots, the
// mouse) the two lines read
//   (M/h + (h/6) L_ff) q_b = M v_a + h F + M q_a / h + (2h/3)(L q_a)_f - (h/6) L_fc c - (h/2) M g
//   p_b = M v_a + h F + (h/2) L (q_a - q_b)_f
// one force pass on the kernel threads (the spring runs) and two Laplacian products, gathered
// row by row, in place of G's and three Laplacians' serial scatter passes.
// time_fe's factorisation: LL^T in METIS's nested-dissection order (libmetis-dev), whose
// elimination tree splits at the top into two halves of the cloth, so that the two triangular
// solves run on two threads (Eigen's default, AMD, gave a tree that no split balances: a chain of
// 450 separators above a subtree of 1.5 M of the 2.3 M terms at 128^2).
using TimeFeLlt =
    Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Lower, Eigen::MetisOrdering<int>>;

// x = A^-1 b for A = P^T L L^T P factorised by a SimplicialLLT, for b of 2 or 3 columns (others:
// llt.solve): all the columns of a row in one register of four lanes, both triangular solves on
// one copy of L by rows (made by prepare), the forward solve gathering each row in four partial
// sums, the backward one scattering each row in decreasing order, and the elimination tree's
// nodes split into two groups of whole subtrees that the kernel threads solve side by side, their
// common ancestors on one thread (time_fe.cpp; docs/architecture.md#time_fes-solve). llt.solve's
// values to round-off; every number is summed in one order whatever the thread count and the path
// (AVX2 or scalar), so neither changes a bit.
// Up to four consecutive columns first .. first + count - 1 of L with one row structure below them
// (a supernode's): their rows below, row[row_begin, row_end), those that are the other group's
// common ancestors (summed apart in the forward solve) from top_begin on; their values, count a
// row, from value[values]; the dense lower triangle of the columns' own rows (count x count, by
// rows) from triangle[corner].
struct LltPanel {
  int first, count, row_begin, top_begin, row_end, values, corner;
};

class LltColumnsSolver {
 public:
  static constexpr int kLanes = 4;     // numbers a row: up to three columns, then zeros
  void prepare(const TimeFeLlt& llt);  // after each compute()
  void solve(const Eigen::MatrixXd& b, Eigen::MatrixXd& x);
  // The same solve in place, for callers that fill the right-hand side themselves: unknown k's
  // kLanes numbers (its columns, then zeros) at lanes(k), read back from there after solveLanes().
  double* lanes(int k) { return w_.data() + kLanes * static_cast<size_t>(order_[k]); }
  void solveLanes();
  // the split: the nodes of each of the two groups, ascending, and their ancestors
  const std::vector<int>& group(int g) const { return group_[g]; }
  const std::vector<int>& ancestors() const { return top_; }

 private:
  void split(const std::vector<int>& parent, const std::vector<double>& work);
  void buildPanels(const Eigen::SparseMatrix<double>& L);
  const TimeFeLlt* llt_ = nullptr;
  const int* order_ = nullptr;  // unknown -> row of the factor (the permutation P)
  std::vector<LltPanel> panels_;
  std::vector<int> panel_row_, panel_top_;  // panel_top_: a row's place in top_ (ancestors only)
  std::vector<double> panel_value_, panel_triangle_;
  std::vector<int> panels_of_[3];  // the panels of group 0, group 1, the ancestors, ascending
  std::vector<int> group_[2], top_;
  std::vector<double> w_;             // the permuted right-hand side, four numbers a row
  std::vector<double> top_terms_[2];  // each group's terms into the ancestors' rows
  size_t terms_ = 0;                  // L's terms below the diagonal
};

// M / mass_divisor + laplacian_scale L_ff + damping_scale C_ff over the free particles (one
// scalar entry per pair, shared by x, y and z; C the Laplacian of the dashpots' c as L is of the
// springs' k): time_fe's M/h + (h/6) L and projective's M/h^2 + L + C/h.
Eigen::SparseMatrix<double> massAndLaplacian(const MassSpringModel& m, const FreeIndex& free,
                                             double mass_divisor, double laplacian_scale,
                                             double damping_scale = 0.0);

// The stiffness Laplacian's rows of the free particles, by neighbours, for products gathered row
// by row: (L q)_i = sum_j k_ij (q_i - q_j) over every spring at i, its free neighbours first,
// then its fixed ones, whose terms -k_ij q_j also make (L_fc c)_i.
struct FreeLaplacian {
  std::vector<int> start, fixed_from, other;  // other: the neighbour's particle index
  std::vector<double> stiffness;
  void build(const MassSpringModel& m, const FreeIndex& free);
  // (L q)_i = sum_j k_ij (q_i - q_j) of free row k (particle i) added to lq, and with `fixed`,
  // the fixed neighbours' part -sum_j k_ij q_j, that is (L_fc c)_i, added to fixed[0..2].
  // Arrays and bounds in locals: the callers store through pointers the compiler cannot tell
  // apart from them.
  void row(int k, int i, const double* q, double lq[3], double* fixed) const {
    const int *neighbour = other.data(), fixedFrom = fixed_from[k], end = start[k + 1];
    const double* kij = stiffness.data();
    const double qi[3] = {q[3 * i], q[3 * i + 1], q[3 * i + 2]};
    for (int e = start[k]; e < end; ++e) {
      const double* qj = q + 3 * neighbour[e];
      for (int c = 0; c < 3; ++c) lq[c] += kij[e] * (qi[c] - qj[c]);
      if (fixed != nullptr && e >= fixedFrom)
        for (int c = 0; c < 3; ++c) fixed[c] -= kij[e] * qj[c];
    }
  }
};

class TimeFeSolver {
 public:
  bool step(const MassSpringModel& m, const State& in, double h, State& out);
  const std::string& error() const { return error_; }
  // The last step's linear solve's relative residual |A q_b - b| / |b| (A = M/h + (h/6) L_ff;
  // docs/integrators.md#residuals): round-off, as the solve is direct.
  double lastResidual() const { return residual_; }

 private:
  void factorise(const MassSpringModel& m, double h);
  void fillRightHandSide(const MassSpringModel& m, const State& in, double h, int from, int to);
  void finishRows(const MassSpringModel& m, const State& in, double h, State& out, int from,
                  int to);
  FreeIndex free_;
  FreeLaplacian laplacian_;
  std::uint64_t revision_ = ~std::uint64_t{0};
  double h_ = 0.0;
  bool ok_ = false;
  TimeFeLlt llt_;
  Eigen::VectorXd force_, change_;  // F(q_a, v_a); q_a - q_b (zero on fixed particles)
  // the right-hand side b and L_ff q_a (3 numbers a particle), each free row's |A q_b - b|^2 and
  // |b|^2, and their ratio's square root
  Eigen::VectorXd rhs_, laplacian_qa_, row_residual_, row_size_;
  double residual_ = std::numeric_limits<double>::quiet_NaN();
  LltColumnsSolver solver_;
  std::string error_;
};

}  // namespace sim
