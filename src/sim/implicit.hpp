// The two mass-spring integrators that solve a sparse linear system per step. Both remove fixed
// particles from the unknowns (seed 001's selection matrix P) and keep only `dim` coordinates per
// particle (2 for planar scenes).
#pragma once

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <cstdint>
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
//       = p_a - (h/2)(L q_a + L q_b)_f + h G(q_a) + h M g   (the form used: no cancellation)
// (c: the fixed particles' positions). The matrix is the same for x, y and z, so it is
// factorised once (per k, masses, topology, h) and solved with dim right-hand sides.
// Drag and dashpots enter as the impulse p_a += h F_diss(q_a, M^-1 p_a). First order, symplectic.
// x = A^-1 b for A = P^T L L^T P factorised by `llt`: the bits of llt.solve(b), with one pass over
// L for 2 or 3 columns of b at once (time_fe.cpp). `work` is scratch, kept between calls.
void solveLltColumns(const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>>& llt,
                     const Eigen::MatrixXd& b, std::vector<double>& work, Eigen::MatrixXd& x);

class TimeFeSolver {
 public:
  bool step(const MassSpringModel& m, const State& in, double h, State& out);
  const std::string& error() const { return error_; }

 private:
  void factorise(const MassSpringModel& m, double h);
  FreeIndex free_;
  std::uint64_t revision_ = ~std::uint64_t{0};
  double h_ = 0.0;
  bool ok_ = false;
  Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt_;
  Eigen::VectorXd Lqa_, Lqb_, Lc_, G_, p_, fd_, xc_;
  Eigen::MatrixXd rhs_, qb_;
  std::vector<double> work_;  // the solve's rows (time_fe.cpp)
  std::string error_;
};

}  // namespace sim
