// implicit_midpoint for pendulums (docs/integrators.md#implicit_midpoint): on
// H(phi, p) = (1/2) p^T M(phi)^-1 p + V(phi),
//   phi' = phi + h dH/dp(m),   p' = p + h (-dH/dphi(m) + Q(phi_m, phi'_m)),
// m the midpoint ((phi + phi')/2, (p + p')/2). Second order, symplectic (without damping).
//
// Solved for the midpoint z = (phi_m, p_m): G(z) = z - z0 - (h/2) X(z) = 0, X the Hamiltonian
// vector field plus damping, by Newton's method whose linear systems (I - (h/2) X'(z)) d = -G are
// solved matrix-free by GMRES, with X'(z) d from a finite difference of X. Every X evaluation is
// O(N) (the tension recursion of pendulum.cpp), so a step costs O(N) per Krylov iteration and never
// forms the 2N x 2N Jacobian: that keeps N in the hundreds or thousands usable. Converged when
// the residual of each half (angles, momenta) is below 1e-13 of its scale (GMRES: sim/gmres.hpp).
#pragma once

#include <string>

#include "sim/pendulum.hpp"

namespace sim {

class MidpointSolver {
 public:
  bool step(const PendulumModel& m, const State& in, double h, State& out);
  const std::string& error() const { return error_; }
  double lastResidual() const { return residual_; }

 private:
  // Newton stops at a relative residual of kTol, a margin below the bound docs/integrators.md
  // promises (kRequiredTol, 1e-12), so that round-off in the last iteration cannot break the
  // promise; a step that ends between the two after kMaxNewton iterations is still accepted.
  static constexpr double kTol = 1e-13;
  static constexpr double kRequiredTol = 1e-12;
  static constexpr int kMaxNewton = 40;
  // GMRES: Krylov vectors per restart and products per step (each one field evaluation, O(N));
  // Newton converges quadratically even from a direction accurate to kKrylovTolerance.
  static constexpr int kRestart = 40, kMaxKrylov = 400;
  static constexpr double kKrylovTolerance = 1e-10;

  void field(const PendulumModel& m, const Eigen::VectorXd& z, Eigen::VectorXd& out);
  void newtonDirection(const PendulumModel& m, const Eigen::VectorXd& z, const Eigen::VectorXd& X,
                       const Eigen::VectorXd& G, double h, Eigen::VectorXd& d);
  PendulumWork w_;
  Eigen::VectorXd omega_, grad_, q_, Xp_;
  std::string error_;
  int krylov_its_ = 0;  // GMRES iterations so far in this step (at most kMaxKrylov)
  double residual_ = std::numeric_limits<double>::quiet_NaN();  // before the first step
};

}  // namespace sim
