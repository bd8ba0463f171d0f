#include "sim/projective.hpp"

#include <algorithm>
#include <cmath>

#include "sim/forces.hpp"
#include "sim/parallel.hpp"
#include "util/team.hpp"

namespace sim {

namespace {
constexpr int kLanes = LltColumnsSolver::kLanes;
}  // namespace

void ProjectiveSolver::factorise(const MassSpringModel& m, double hs) {
  free_.build(m);
  // the dashpots' c / h_s: at least their Jacobian (c u u^T / h_s a spring, u u^T <= I), so
  // that the iterations with them in the right-hand side converge at any c
  const Eigen::SparseMatrix<double> S = massAndLaplacian(m, free_, hs * hs, 1.0, 1.0 / hs);
  llt_.compute(S);
  ok_ = llt_.info() == Eigen::Success;
  if (ok_) solver_.prepare(llt_);
  ++factor_count_;
  revision_ = m.revision, damping_revision_ = m.damping_revision;
  hs_ = hs;
}

// Free rows [from, to): the prediction y (implicit drag), and the iterate q starts there.
void ProjectiveSolver::predictRows(const MassSpringModel& m, double hs, int from, int to) {
  const double c = m.drag, g[3] = {m.gravity[0], m.gravity[1], m.gravity[2]};
  const double wind[3] = {m.wind[0], m.wind[1], m.wind[2]};
  for (int k = from; k < to; ++k) {
    const int i = free_.particle[k];
    const double mi = m.mass[i];
    for (int d = 0; d < m.dim; ++d) {
      const int j = 3 * i + d;
      const double force = c * wind[d];  // the wind's part of the drag (the rest is implicit)
      const double vhat = (v_[j] + hs * (g[d] + force / mi)) / (1.0 + hs * c / mi);
      y_[j] = q_[j] = x_[j] + hs * vhat;
    }
  }
}

// Free rows [from, to) of the global step's right-hand side into the solver's lanes, in the form
// of a correction: with S = M/h_s^2 + L_ff and d_s = r_s u_s, sum_s k_s A_s^T d_s is f_el(q) + L q
// (f_el the springs' elastic forces -k (l - r) u), and L q - L_fc c = L_ff q_f, so the global step
// S q' = M y / h_s^2 + sum_s k_s A_s^T d_s - L_fc c is S (q' - q) = M (y - q) / h_s^2 + f_el(q):
// the local step is the force pass on the spring runs (force_), and no Laplacian product is left.
// The mouse spring's force at q joins its particle's row (and its stiffness the matrix, by
// prepareGrab and grabShift): in the iterations, not the prediction, so that their fixed point
// takes it implicitly (an explicit k_grab at h_s = 1/60 s overshoots by h_s^2 k_grab / m,
// thousands of times the distance, on a light cloth particle).
void ProjectiveSolver::fillRows(const MassSpringModel& m, double hs, int from, int to) {
  const double inertia = 1.0 / (hs * hs), c = m.drag, wind[3] = {m.wind[0], m.wind[1], m.wind[2]};
  const double *q = q_.data(), *y = y_.data(), *f = force_.data(), *mass = m.mass.data();
  const int *particle = free_.particle.data(), dim = m.dim;
  for (int k = from; k < to; ++k) {
    const int i = particle[k];
    double* lanes = solver_.lanes(k);
    const double weight = mass[i] * inertia;
    for (int a = 0; a < dim; ++a) lanes[a] = weight * (y[3 * i + a] - q[3 * i + a]) + f[3 * i + a];
    for (int a = dim; a < kLanes; ++a) lanes[a] = 0.0;
    if (damped_)  // the dashpots alone at q, v = (q - x) / h_s (dash_ holds them with the drag)
      for (int a = 0; a < dim; ++a) lanes[a] += dash_[3 * i + a] + c * (vq_[3 * i + a] - wind[a]);
    if (i == m.grab)
      for (int a = 0; a < dim; ++a)
        lanes[a] += m.grab_stiffness * (m.grab_target[a] - q[3 * i + a]);
  }
}

// The Chebyshev weight of iterate k (counted from 1), `previous` iterate k - 1's.
double ProjectiveSolver::chebyshevWeight(int k, double previous) const {
  if (rho_ == 0.0 || k < kChebyshevFirst) return 1.0;
  const double rho2 = rho_ * rho_;
  return k == kChebyshevFirst ? 2.0 / (2.0 - rho2) : 4.0 / (4.0 - rho2 * previous);
}

// The mouse spring's response z = S^-1 e_g (g its particle's free row), solved once for each
// grabbed particle and factor: with it the correction of (S + k_grab e_g e_g^T) is S's minus
// z k_grab delta_g / (1 + k_grab z_g) (Sherman-Morrison), so the matrix holds the mouse spring
// without a refactorisation and a stiff one cannot make the iterations diverge.
void ProjectiveSolver::prepareGrab(const MassSpringModel& m) {
  const int row = m.grab >= 0 && !m.fixed(m.grab) ? free_.of_particle[m.grab] : -1;
  if (row < 0 || (row == grab_row_ && grab_factor_ == factor_count_)) {
    if (row < 0) grab_row_ = -1;
    return;
  }
  const int nf = static_cast<int>(free_.particle.size());
  for (int k = 0; k < nf; ++k) std::fill_n(solver_.lanes(k), kLanes, 0.0);
  solver_.lanes(row)[0] = 1.0;
  solver_.solveLanes();
  grab_response_.resize(nf);
  for (int k = 0; k < nf; ++k) grab_response_[k] = solver_.lanes(k)[0];
  grab_row_ = row, grab_factor_ = factor_count_;
}

// After a solve: the multiples of z to take from the correction, k_grab delta_g / (1 + k_grab z_g).
void ProjectiveSolver::grabShift(const MassSpringModel& m) {
  shift_[0] = shift_[1] = shift_[2] = 0.0;
  if (grab_row_ < 0) return;
  const double* delta = solver_.lanes(grab_row_);
  const double k = m.grab_stiffness, scale = k / (1.0 + k * grab_response_[grab_row_]);
  for (int d = 0; d < m.dim; ++d) shift_[d] = scale * delta[d];
}

// Free rows [from, to): the plain iterate q + the global solve's correction (less the mouse
// spring's part, grabShift), extrapolated from the iterate before q by `weight` (1: the plain
// iterate).
void ProjectiveSolver::takeRows(const MassSpringModel& m, double weight, int from, int to) {
  double *q = q_.data(), *before = q_before_.data();
  for (int k = from; k < to; ++k) {
    const double* lanes = solver_.lanes(k);
    const double z = grab_row_ >= 0 ? grab_response_[k] : 0.0;
    for (int d = 0; d < m.dim; ++d) {
      const int j = 3 * free_.particle[k] + d;
      const double delta = grab_row_ >= 0 ? lanes[d] - z * shift_[d] : lanes[d];
      const double next = weight * (q[j] + delta - before[j]) + before[j];
      before[j] = q[j], q[j] = next;
    }
  }
}

// Free rows [from, to): v' = (q - x) / h_s, x' = q, and each particle's work of the drag (at the
// predicted velocity v^ = (y - x) / h_s, where it acted) and the dashpots (at the end, backward
// Euler's: dash_ at q and v') over the substep.
void ProjectiveSolver::finishRows(const MassSpringModel& m, double hs, int from, int to) {
  const double c = m.drag, wind[3] = {m.wind[0], m.wind[1], m.wind[2]};
  for (int k = from; k < to; ++k) {
    const int i = free_.particle[k];
    double work = 0.0;
    for (int d = 0; d < m.dim; ++d) {
      const int j = 3 * i + d;
      const double dx = q_[j] - x_[j], v = dx / hs, predicted = (y_[j] - x_[j]) / hs;
      double resisting = c * (predicted - wind[d]);            // minus the drag force
      if (damped_) resisting -= dash_[j] + c * (v - wind[d]);  // minus the dashpots'
      work += resisting * dx;
      x_[j] = q_[j], v_[j] = v;
    }
    particle_work_[i] = work;
  }
}

void ProjectiveSolver::substep(const MassSpringModel& m, double hs, double& dissipated,
                               double& external) {
  const int nf = static_cast<int>(free_.particle.size());
  q_ = q_before_ = x_;  // the fixed particles' rows stay at their positions
  prepareGrab(m);
  const int threads = m.springs() >= kMinSpringsPerThread ? kernelThreads() : 1;
  const int iterations = std::max(1, m.iterations);
  double weight = 1.0;
  for (int it = 0; it < iterations; ++it) {
    if (it > 0) weight = chebyshevWeight(it, weight);
    util::runTeam(threads, [&](util::TeamMember& team) {
      if (it == 0)
        team.forRange(0, nf, [&](int from, int to) { predictRows(m, hs, from, to); });
      else
        team.forRange(0, nf, [&](int from, int to) { takeRows(m, weight, from, to); });
    });
    elasticForce(m, q_, force_);  // on the kernel threads
    dashpotsAt(m, hs);
    util::runTeam(threads, [&](util::TeamMember& team) {
      team.forRange(0, nf, [&](int from, int to) { fillRows(m, hs, from, to); });
    });
    solver_.solveLanes();
    grabShift(m);
  }
  weight = chebyshevWeight(iterations, weight);
  const int grab = m.grab >= 0 && !m.fixed(m.grab) ? m.grab : -1;
  util::runTeam(threads, [&](util::TeamMember& team) {
    team.forRange(0, nf, [&](int from, int to) { takeRows(m, weight, from, to); });
  });
  dashpotsAt(m, hs);  // at the end, for the ledger
  util::runTeam(threads, [&](util::TeamMember& team) {
    team.single([&] {  // the mouse spring's force at the end (backward Euler's) over the substep
      if (grab < 0) return;
      const Vec3 force = m.grab_stiffness * (m.grab_target - q_.segment<3>(3 * grab));
      external += force.dot(q_.segment<3>(3 * grab) - x_.segment<3>(3 * grab));
    });
    team.forRange(0, nf, [&](int from, int to) { finishRows(m, hs, from, to); });
  });
  for (int k = 0; k < nf; ++k) dissipated += particle_work_[free_.particle[k]];
}

// With dashpots: dash_ = their and the drag's forces at the iterate q and v = (q - x) / h_s.
void ProjectiveSolver::dashpotsAt(const MassSpringModel& m, double hs) {
  if (!damped_) return;
  vq_ = (q_ - x_) / hs;
  dissipativeForce(m, q_, vq_, dash_);
}

bool ProjectiveSolver::step(const MassSpringModel& m, const State& in, double h, State& out,
                            double& dissipated, double& external) {
  const int substeps = std::max(1, m.substeps);
  const double hs = h / substeps;
  if (revision_ != m.revision || damping_revision_ != m.damping_revision || hs_ != hs ||
      free_.of_particle.size() != size_t(m.particles()))
    factorise(m, hs);
  dissipated = external = 0.0;
  if (!ok_) {
    error_ = "projective: the matrix M / h^2 + L is not positive definite";
    return false;
  }
  x_ = in.x, v_ = in.v;
  y_.resize(in.x.size()), particle_work_.setZero(m.particles());
  damped_ = m.anyDashpot();
  if (!free_.particle.empty())
    for (int s = 0; s < substeps; ++s) substep(m, hs, dissipated, external);
  out.x = x_, out.v = v_, out.t = in.t + h;
  return true;
}

}  // namespace sim
