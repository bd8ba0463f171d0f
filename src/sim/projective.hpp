// projective: projective dynamics (Liu, Bargteil, O'Brien, Kavan 2013, "Fast simulation of
// mass-spring systems"; Bouaziz et al. 2014), docs/integrators.md#projective. Backward Euler on
// the springs, solved by local-global iterations on a constant matrix. One step of h is
// `substeps` substeps of h_s = h / substeps; each substep, with c the drag and w the wind,
//   v^ = (v + h_s (g + c w / m)) / (1 + h_s c / m)   (drag implicit)
//   y  = x + h_s v^                                   (the inertial prediction; q starts at y)
//   `iterations` times:
//     local:  d_s = r_s (q_b - q_a) / |q_b - q_a| for every spring (its rest-length projection)
//     global: (M/h_s^2 + L_ff) q_f = M y_f / h_s^2 + sum_s k_s A_s^T d_s - L_fc c
//             with L the stiffness Laplacian, c the fixed particles' positions; computed as the
//             correction S (q' - q) = M (y - q) / h_s^2 + f_el(q), S the matrix on the left,
//             f_el the springs' elastic forces (the same equation: sum k A^T d = f_el + L q);
//             the mouse spring's force at q and its stiffness join its particle's row
//   x' = q,  v' = (q - x) / h_s
// The global minimum of (1/2 h_s^2) |q - y|^2_M + sum_s (k_s / 2) |A_s q - d_s|^2 over q and the
// d_s on their spheres is backward Euler's step from y with the contract's spring energy
// (1/2) k (l - r)^2: M (q - y) / h_s^2 = f_el(q). As the iterations grow the step converges to it
// (tested); a few iterations are a softer, more damped version of it. The drag is taken
// implicitly in the prediction, as xpbd does, not in the matrix, so that the panel's drag slider
// does not refactorise it: the matrix depends only on k, the masses and h_s; it is factorised
// once (METIS order, time_fe's panel solve, shared by x, y and z) and every iteration is one
// force pass (the spring runs) and one pair of triangular solves. The dashpots' forces at the
// iterate join the right-hand side and their c / h_s the matrix (isotropic: more than their
// Jacobian, so the iterations converge at any c, to backward Euler's step with them); the mouse
// spring is in the iterations and, by a low-rank update, in the matrix. Colliders: a particle whose
// predicted path enters one is a contact for the substep, its weight in the matrix (a low-rank
// update while few are new to the factor, else a refactorisation) and its push out of the
// collider, held back by friction, in the iterations, so that the solve carries the support to
// the whole cloth (docs/integrators.md#projective); the contacts after the step still run.
// From the third iterate on, each iterate is extrapolated by Chebyshev's semi-iterative weights
// (Wang 2015, "A Chebyshev semi-iterative approach for accelerating projective and position-based
// dynamics", eq. 12):
//   q^(k) = w_k (q^(k) - q^(k-2)) + q^(k-2),  w_3 = 2 / (2 - rho^2),  w_k = 4 / (4 - rho^2 w_(k-1))
// with q^(k) on the right the plain iterate; it keeps the fixed point (backward Euler's step) and
// reaches a given residual in fewer iterations (docs/integrators.md#projective). Tethers (xpbd's)
// are not used: projected after a global step they tear the smooth field the solve made, and
// measured on cloth_128 they raised the stretch (docs/benchmarks.md#projective-dynamics).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include "sim/implicit.hpp"
#include "sim/model.hpp"

namespace sim {

// The Chebyshev weights' spectral radius and the first iterate they extrapolate. The first two
// iterates are plain: there the iteration is far from the linear regime the weights are derived
// for (Wang 2015 waits 10 iterates; on cloth_64 mid-fall, rho = 0.9 from the second iterate on
// raised its residual 50-fold). Of rho = 0.5 to 0.9, 0.7 gave the smallest residual at 3
// iterations on cloth_64 and cloth_128 mid-swing, and within 20 % of it at 4 and 5
// (docs/integrators.md#projective).
constexpr double kChebyshevRho = 0.7;
// Automatic iterations (a scene that names none, docs/integrators.md#automatic-settings): iterate
// until the step's residual |grad G| / weights (sim/residual.hpp) is at most kAutoResidual, at
// least kAutoMinIterations and at most kAutoMaxIterations times; automatic substeps: one. The
// budget binds on every moving cloth measured (the residual after 4 iterations is 0.1 to 3 of
// the weights; 1000 do not reach 1e-3 on a falling disc). On the test's stiff 24 x 24 cloth the
// largest stretch falls with the budget, 0.107 from the converged one at 2, 0.051 at 4, 0.037
// at 6 (the former rule's), 0.021 at 12; 6 costs about 1.5 times the former rule's 4.08
// iterations on the stiff 128 x 128 swing. A cloth at rest stops at 2.
constexpr double kAutoResidual = 1e-3;
constexpr int kAutoMinIterations = 2;
constexpr int kAutoMaxIterations = 6;
constexpr int kChebyshevFirst = 3;
// A contact's weight, in multiples of its row's diagonal of M/h_s^2 + L + C/h_s: on
// cloth_on_sphere at 1 x 3, 0.01 left the least stretch (1.075; 0.03 1.082; larger weights, which
// also hold a sliding particle back within each iteration, converged less). The factor is remade
// with the substep's contacts when kLowRankColumns responses are used or more than
// kStaleContacts of its contacts have let go (docs/integrators.md#projective).
constexpr double kContactWeight = 0.01;
constexpr double kStaleContacts = 0.25;
constexpr int kLowRankColumns = 32;

class ProjectiveSolver {
 public:
  // One step of h from `in`; `dissipated` and `external` receive the step's work (J) of the
  // drag and dashpots (positive when they remove energy) and of the mouse spring. Returns false
  // (with error()) when the matrix cannot be factorised.
  bool step(const MassSpringModel& m, const State& in, double h, State& out, double& dissipated,
            double& external);
  const std::string& error() const { return error_; }
  // The spectral radius assumed by the Chebyshev weights; 0 turns the acceleration off (the
  // plain local-global iterations). kChebyshevRho unless set.
  void setChebyshevRho(double rho) { rho_ = rho; }
  // The iterations the last substep took (automatic ones vary).
  int lastIterations() const { return last_iterations_; }
  // The energy the contacts' forces took out in the last step (J, the ledger's contacts term):
  // their force at the substep's end over the mean of the predicted and the actual motion. It
  // is not in `dissipated`.
  double lastContactWork() const { return contact_work_; }
  int lastSubsteps() const { return last_substeps_; }
  // The last step's residual (docs/integrators.md#residuals): |grad G| / weights at its result,
  // G the incremental potential of a substep (its inertia from the prediction y, the springs,
  // dashpots, mouse spring and contacts in the solve), the largest over the step's substeps.
  double lastResidual() const { return residual_; }

 private:
  void factorise(const MassSpringModel& m, double hs);
  void substep(const MassSpringModel& m, double hs, double& dissipated, double& external);
  void predictRows(const MassSpringModel& m, double hs, int from, int to);
  void fillRows(const MassSpringModel& m, double hs, int from, int to);
  void forgetResponses();
  void prepareLowRank(const MassSpringModel& m);
  void solveResponses(const std::vector<int>& rows);
  void lowRankShift(const MassSpringModel& m);
  void dashpotsAt(const MassSpringModel& m, double hs);
  void takeRows(const MassSpringModel& m, double weight, int from, int to);
  void findContacts(const MassSpringModel& m);
  void factoriseContacts();
  Vec3 contactForce(const MassSpringModel& m, int k, int i) const;
  double chebyshevWeight(int k, double previous) const;
  double gradientNorm(const MassSpringModel& m);
  void finishRows(const MassSpringModel& m, double hs, int from, int to);
  FreeIndex free_;
  std::uint64_t revision_ = ~std::uint64_t{0}, damping_revision_ = ~std::uint64_t{0};
  double hs_ = 0.0;  // what the factor was made for
  bool ok_ = false;
  double rho_ = kChebyshevRho;
  int last_iterations_ = 0, last_substeps_ = 0;
  double weights_ = 1.0,
         residual_ = std::numeric_limits<double>::quiet_NaN();  // N, residualWeights(m); the last
                                                                // step's residual
  // the rows the factor lacks (the mouse spring's, contacts new to it) with their weights, each
  // row's column in response_ (-1: none) and each column's row, and the capacitance's factor
  // and last solve (prepareLowRank)
  std::vector<int> low_rows_, column_of_, response_row_, missing_;
  std::vector<double> low_weight_;
  int columns_ = 0;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> response_;
  Eigen::MatrixXd capacitance_matrix_;
  Eigen::LLT<Eigen::MatrixXd> capacitance_;
  Eigen::MatrixXd low_shift_;
  // the colliders: the matrix without contacts, each free row's collider this substep (-1: none),
  // its contact weight, and the rows whose weight the factor holds
  Eigen::SparseMatrix<double> matrix_;
  std::vector<int> contact_, factored_contacts_, contacts_;
  std::vector<char> in_factor_;
  Eigen::VectorXd contact_weight_;
  TimeFeLlt llt_;
  LltColumnsSolver solver_;
  // the substep's start, the prediction y, the iterate q and the one before it, the springs'
  // elastic forces at q (3 numbers a particle), the velocity (q - x) / h_s and the dashpots' and
  // the drag's forces at q and it, each particle's work of the drag and dashpots in the substep
  Eigen::VectorXd x_, v_, y_, q_, q_before_, force_, vq_, dash_, particle_work_;
  Eigen::VectorXd particle_contact_work_;  // each particle's contact work this substep
  double contact_work_ = 0.0;              // the step's, summed in particle order
  bool damped_ = false;                    // whether any spring has a dashpot, this step
  std::string error_;
};

}  // namespace sim
