// xpbd: extended position-based dynamics with small steps (Macklin, Mueller, Chentanez 2016;
// Macklin et al. 2019 "Small steps in physics simulation"), docs/integrators.md#xpbd. Each spring
// is a distance constraint C = l - r with compliance 1/k, so its energy is exactly the contract's
// (1/2) k (l - r)^2. One step of h is `substeps` substeps of h_s = h / substeps:
//   v^ = (v + h_s (g + (F_grab(x) + c_drag wind) / m)) / (1 + h_s c_drag / m)   (drag implicit)
//   p  = x + h_s v^
//   `iterations` sweeps of Gauss-Seidel over the springs, colour by colour (lambda = 0 at first):
//     dlambda = (-C(p) - alpha~ lambda - gamma n.(dp_b - dp_a)) / ((1 + gamma)(w_a + w_b) + alpha~)
//     p_b += w_b dlambda n,  p_a -= w_a dlambda n
//   with alpha~ = 1 / (k h_s^2), gamma = c / (k h_s) (the dashpot c as constraint damping, so it
//   is implicit too), n = (p_b - p_a) / l, dp = p - x, w = 1/m;
//   after each sweep the colliders push p out (sim/contacts.hpp), and after the last one Coulomb
//   friction takes back tangential motion up to friction times the push (Macklin et al. 2014)
//   v' = (p - x) / h_s,  x' = p
// As the substeps grow the trajectory converges (first order) to the exact dynamics of the spring
// network; at a fixed h it stays stable for any k. The springs are coloured so that no two springs
// of a colour share a particle: a colour is projected on all threads at once and the result is the
// same bit for bit whatever the thread count (sim/parallel.hpp).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "sim/model.hpp"
#include "sim/self_collision.hpp"
#include "sim/xpbd_kernels.hpp"
#include "util/team.hpp"

namespace sim {

// Automatic substeps (a scene that names none, docs/integrators.md#automatic-settings): enough that
// a substep turns the system's fastest mode by at most kAutoSubstepPhase radians,
// h_s omega_max <= kAutoSubstepPhase, at most kMaxAutoSubsteps; one sweep each.
inline constexpr double kAutoSubstepPhase = 8.0;
inline constexpr int kMaxAutoSubsteps = 200;

// The colour of each spring in xpbd's sweeps (0, 1, ...; swept in that order): no two springs of a
// colour share a particle, and springs whose ends lie the same index distance b - a apart (a
// generated grid's direction), where at least 64 springs do, get colours of their own.
std::vector<int> sweepColours(const MassSpringModel& m);

class XpbdSolver {
 public:
  // One step of h from `in`; `dissipated` and `external` receive the step's work (J) of the
  // dissipative forces (positive when they remove energy) and of the mouse spring. Always true:
  // the projections cannot fail (a non-finite state is caught by the Stepper's check).
  bool step(const MassSpringModel& m, const State& in, double h, State& out, double& dissipated,
            double& external);
  // The substeps the last step took (automatic ones follow the system).
  int lastSubsteps() const { return last_substeps_; }
  int lastIterations() const { return last_iterations_; }
  // What the contacts (colliders with their friction, self-collision) took out in the last step
  // (J, the ledger's contacts term; not in `dissipated`): finishParticle's quadrature.
  double lastContactWork() const { return contact_work_; }
  // The last step's residual (docs/integrators.md#residuals): |grad G| / weights at its last
  // substep's result, G that substep's backward Euler incremental potential.
  double lastResidual() const { return residual_; }

 private:
  int substepsFor(const MassSpringModel& m, const State& in, double h);
  void colour(const MassSpringModel& m);  // springs grouped so no two of a group share a particle
  // each called for one particle by the member of the step's team that owns it
  struct Prediction {  // the model's constants of the prediction, for one substep h_s
    double hs = 0.0, drag = 0.0, hs_gravity[3] = {0, 0, 0}, wind[3] = {0, 0, 0};
  };
  static Prediction predictionOf(const MassSpringModel& m, double hs);
  void predictParticle(const MassSpringModel& m, int i, const Prediction& c);
  void finishParticle(const MassSpringModel& m, int i, const Prediction& c);
  // each called by every member of the step's team (util/team.hpp), which share the work out
  void project(util::TeamMember& team, const MassSpringModel& m, double hs);
  void collide(util::TeamMember& team,
               const MassSpringModel& m);  // free particles out of colliders
  void rub(util::TeamMember& team,
           const MassSpringModel& m);  // friction of the particles that touched
  void finishSubstep(util::TeamMember& team, const MassSpringModel& m, double hs, bool last);
  void fillSweepArrays(const MassSpringModel& m);
  void updateCircles(util::TeamMember& team);
  void keepLastSubstep(util::TeamMember& team, const MassSpringModel& m, double hs);
  double lastSubstepResidual(const MassSpringModel& m, double hs);
  std::uint64_t revision_ = ~std::uint64_t{0};
  int springs_ = -1, particles_ = -1;
  // automatic substeps: the count, and the revision and step it was chosen for
  int auto_substeps_ = 0, last_substeps_ = 0, last_iterations_ = 0;
  std::uint64_t auto_revision_ = ~std::uint64_t{0};
  double auto_h_ = 0.0;
  std::vector<int> order_;         // springs sorted by colour
  std::vector<int> colour_start_;  // colour c is order_[colour_start_[c] .. colour_start_[c+1])
  std::vector<int> tether_start_;  // a particle's tethers: [tether_start_[i], tether_start_[i+1])
  TetherPairs pairs_;              // the particles with two tethers
  std::vector<double> pair_anchors_at_;  // where pairs_' circles were computed: 6 per pair
  std::vector<int> other_runs_;          // the tether_start_ runs of other lengths
  SweepArrays sweep_;
  Eigen::VectorXd x_, v_, p_, lambda_;
  // the step's work of each particle's drag and contacts and of each spring's dashpot, before
  // their ordered sums, and the mouse spring's (one particle's: one member writes it)
  Eigen::VectorXd particle_work_, dash_work_;
  double grab_work_ = 0.0;
  Eigen::VectorXd drag_scale_;  // 1 / (1 + h_s c_drag / m) of each particle, this step
  bool damped_ = false;         // whether any spring has a dashpot, this step (read once: a scan)
  // this substep's contacts: the total correction the colliders (and their friction) made to
  // each particle, the last surface normal, its friction coefficient (-1: no contact)
  Eigen::VectorXd contact_shift_, contact_normal_, contact_friction_;
  // the velocity at the substep's start (before the prediction) where there are colliders, and
  // each particle's contact work summed over the step, before its ordered sum contact_work_
  Eigen::VectorXd start_v_, contact_work_slots_;
  double contact_work_ = 0.0;
  SelfCollision self_collision_;  // after each substep's sweeps
  // the last substep's start, prediction, result, and the springs' and dashpots' forces and the
  // velocity at the result (lastSubstepResidual)
  Eigen::VectorXd kept_x_, kept_y_, kept_p_, kept_force_, kept_dash_, kept_v_;
  double residual_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace sim
