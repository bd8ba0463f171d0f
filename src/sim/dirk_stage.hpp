// One stage of a diagonally implicit Runge-Kutta method on a mass-spring system
// (docs/integrators.md#your-own-method): with X^ and V^ the stage's explicit part and
// gamma = a_ii h, solve V = V^ + gamma a(X^ + gamma V, V) by Newton's method, each iteration the
// sparse system (M - gamma D - gamma^2 K) dV = -r of implicit_euler's matrix (sim/implicit.hpp)
// at the iterate, to a relative residual |r| <= 1e-10 (|M (V - V^)| + gamma |f|).
#pragma once

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/implicit.hpp"
#include "sim/model.hpp"

namespace sim {

class DirkStageSolver {
 public:
  // x, v: X^ and V^ in, the stage's X and V out; kx, kv: the stage's slopes V and a(X, V).
  bool solve(const MassSpringModel& m, double gamma, Eigen::VectorXd& x, Eigen::VectorXd& v,
             Eigen::VectorXd& kx, Eigen::VectorXd& kv);
  const std::string& error() const { return error_; }
  double lastResidual() const { return residual_; }

 private:
  double residual(const MassSpringModel& m, double gamma, const Eigen::VectorXd& vhat);
  void assemble(const MassSpringModel& m, double gamma);
  FreeIndex free_;
  std::uint64_t revision_ = ~std::uint64_t{0};
  int dim_ = 0;
  std::vector<Eigen::Triplet<double>> triplets_;
  Eigen::SparseMatrix<double> A_;
  // as implicit_euler's: LDL^T while the matrix is symmetric (no dashpots) and its solution checks
  // out, else sparse LU; each analyses the constant pattern once
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu_;
  bool ldlt_analysed_ = false, lu_analysed_ = false;
  bool solveStep(const MassSpringModel& m, Eigen::VectorXd& dv);  // A_ dv = -r_
  Eigen::VectorXd x_, v_, f_, r_;  // the iterate X, V, f(X, V) and the residual (free coords)
  double residual_ = 0.0;
  std::string error_;
};

}  // namespace sim
