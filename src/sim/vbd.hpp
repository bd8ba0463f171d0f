// vbd: vertex block descent (Chen, Liu, Yang, Yuksel 2024, "Vertex Block Descent", ACM TOG 43(4))
// for mass-spring systems, docs/integrators.md#vbd. Each substep of h_s = h / substeps lowers the
// incremental potential of backward Euler (the contract's `backward_euler`, §3),
//   G(q) = sum_i (m_i / 2 h_s^2 + c / 2 h_s) |q_i - y_i|^2 + sum_s (k_s / 2) (|q_b - q_a| - l_s)^2
//          + (k_grab / 2) |q_g - t|^2,
// with y = x + h_s v^ the prediction with the drag implicit (v^ = (v + h_s (g + c w / m)) / (1 +
// h_s c / m), projective's: the drag's damping potential (c / 2 h_s) |q - x - h_s w|^2 and the
// inertia's (m / 2 h_s^2) |q - x - h_s v - h_s^2 g|^2 add up to this one quadratic about y), by
// Gauss-Seidel sweeps of per-particle Newton steps: particle i moves by H_i^-1 f_i, f_i = -dG/dq_i
// (with the dashpots' forces at v = (q - x) / h_s) and H_i its 3 x 3 block: (m_i / h_s^2 + c /
// h_s) I, each spring's PSD-projected Hessian (sim/spring_hessian.hpp), each dashpot's c u u^T /
// h_s (the paper's damping term, eq. 20), k_grab I. Particles of one colour (a greedy colouring of
// the spring graph) share no spring and move in parallel; every particle's update reads only
// other colours, so the result is the same bit for bit whatever the thread count. A particle whose
// step enters a collider is put back on its surface within the sweep (held back by friction, as
// sim/contacts does after a step), so that the sweeps carry the support to the rest of the system.
// The substep's start is the paper's adaptive initial guess (§3.7): x + h_s v + h_s^2 a~, a~ the
// acceleration's component along gravity, clamped to [0, |g|] (at the state: predictRows).
// Each sweep after the first is extrapolated by Chebyshev's weights (the paper's §3.8, Wang
// 2015) when rho > 0. The relative residual |grad G| / (sum m |g| + 1 N) is measured after each
// sweep; automatic iterations stop at kVbdTolerance within kVbdMaxIterations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "sim/model.hpp"

namespace sim {

// Automatic iterations (docs/integrators.md#vbd): sweep until the relative residual is at most
// kVbdTolerance, at most kVbdMaxIterations times; automatic substeps: one.
constexpr double kVbdTolerance = 1e-2;
constexpr int kVbdMaxIterations = 12;
// The Chebyshev weights' spectral radius (0: plain sweeps) and the first sweep they extrapolate
// (the paper's §3.8; as projective's, the first two sweeps stay plain: from the second, rho = 0.9
// blew a 24 x 24 cloth at 4 x 3 up). On that cloth (k = 2e4 N/m, 1 s from horizontal) rho = 0.8,
// 0.9, 0.95 left a largest stretch of 1.49, 1.41, 1.31 at 1 x 12 (plain: 1.75), 1.26, 1.25, 1.27
// at 4 x 3 (plain 1.33), 1.17, 1.14, 1.10 at 1 x 50 (plain 1.24); converged: 1.0057 (measured
// with an earlier guess; docs/integrators.md#vbd).
constexpr double kVbdChebyshevRho = 0.9;
constexpr int kVbdChebyshevFirst = 3;

class VbdSolver {
 public:
  // One step of h from `in`; `dissipated` and `external` receive the step's work (J) of the drag
  // and dashpots (positive when they remove energy) and of the mouse spring.
  void step(const MassSpringModel& m, const State& in, double h, State& out, double& dissipated,
            double& external);
  void setChebyshevRho(double rho) { rho_ = rho; }
  int lastIterations() const { return last_iterations_; }  // the last substep's sweeps
  int lastSubsteps() const { return last_substeps_; }
  // |grad G| / (sum m |g| + 1 N) after the last step's sweeps, the largest over its substeps.
  double lastResidual() const { return last_residual_; }
  // The energy the colliders took out within the sweeps in the last step (J): the implied contact
  // force over each touching particle's motion.
  double lastContactWork() const { return contact_work_; }
  int colours() const { return static_cast<int>(colour_start_.size()) - 1; }

 private:
  struct Link {  // a spring seen from one end: the other end's coordinate offset, k, l, c
    int other;
    double k, l, c;
  };
  void build(const MassSpringModel& m);
  void substep(const MassSpringModel& m, double hs, double& dissipated, double& external);
  void predictRows(const MassSpringModel& m, double hs, int from, int to);
  Vec3 accelerationAt(const MassSpringModel& m, int i) const;
  void sweepRows(const MassSpringModel& m, int from, int to);
  void contactRow(const MassSpringModel& m, int i);
  Vec3 gradientAt(const MassSpringModel& m, int i, Eigen::Matrix3d* hessian) const;
  void residualRows(const MassSpringModel& m, int from, int to);
  void keepRows(const MassSpringModel& m, int from, int to);
  void extrapolateRows(const MassSpringModel& m, double weight, int from, int to);
  void finishRows(const MassSpringModel& m, double hs, int from, int to);

  std::uint64_t revision_ = ~std::uint64_t{0}, damping_revision_ = ~std::uint64_t{0};
  int particles_ = -1, springs_ = -1;
  std::vector<int> order_, colour_start_;  // free particles by colour
  std::vector<int> link_start_;            // per particle into links_
  std::vector<Link> links_;
  double rho_ = kVbdChebyshevRho;
  int last_iterations_ = 0, last_substeps_ = 0;
  double last_residual_ = 0.0, substep_residual_ = 0.0, contact_work_ = 0.0;
  double inv_hs_ = 0.0, inv_hs2_ = 0.0, weights_ = 1.0;
  // the substep's start x, its velocity v, the prediction y, the iterate q and the one before it
  // (Chebyshev), each particle's squared gradient, work of the drag and dashpots, of the mouse
  // spring and of its contact, its contact's collider (-1: none) and normal
  Eigen::VectorXd x_, v_, y_, q_, q_before_, q_kept_, grad2_, work_, grab_work_, contact_work_rows_;
  std::vector<int> contact_;
  std::vector<Vec3> normal_;
};

}  // namespace sim
