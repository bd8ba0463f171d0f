#include "sim/projective.hpp"

#include <algorithm>
#include <cmath>

#include "sim/contacts.hpp"
#include "sim/forces.hpp"
#include "sim/parallel.hpp"
#include "sim/residual.hpp"
#include "util/team.hpp"

namespace sim {

namespace {
constexpr int kLanes = LltColumnsSolver::kLanes;
}  // namespace

void ProjectiveSolver::factorise(const MassSpringModel& m, double hs) {
  free_.build(m);
  // the dashpots' c / h_s: at least their Jacobian (c u u^T / h_s a spring, u u^T <= I), so
  // that the iterations with them in the right-hand side converge at any c
  matrix_ = massAndLaplacian(m, free_, hs * hs, 1.0, 1.0 / hs);
  llt_.compute(matrix_);
  ok_ = llt_.info() == Eigen::Success;
  contact_weight_ = kContactWeight * matrix_.diagonal();
  factored_contacts_.clear();
  contact_.assign(free_.particle.size(), -1);
  in_factor_.assign(free_.particle.size(), 0);
  column_of_.assign(free_.particle.size(), -1);
  response_row_.clear(), contacts_.clear();
  columns_ = 0;
  if (ok_) solver_.prepare(llt_);
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
    if (contact_[k] >= 0) {
      const Vec3 f = contactForce(m, k, i);
      for (int a = 0; a < dim; ++a) lanes[a] += f[a];
    }
  }
}

// The contact of free row k (particle i, in contact_[k]'s collider) at the iterate q: its weight
// times the way from q to the collider's nearest surface point, less the sliding motion of the
// substep that Coulomb friction holds back (all of it while it is at most friction x depth).
Vec3 ProjectiveSolver::contactForce(const MassSpringModel& m, int k, int i) const {
  const Collider& c = m.colliders[contact_[k]];
  const Vec3 at = q_.segment<3>(3 * i);
  Vec3 n = c.normal;
  double depth = (c.point - at).dot(c.normal);
  if (c.shape == Collider::Shape::Sphere) {
    const Vec3 off = at - c.point;
    const double l = off.norm();
    n = l > 0.0 ? Vec3(off / l) : Vec3(0.0, 1.0, 0.0);
    depth = c.radius - l;
  }
  if (!(depth > 0.0)) return Vec3::Zero();
  const Vec3 moved = at - x_.segment<3>(3 * i), slide = moved - moved.dot(n) * n;
  const double s = slide.norm(), limit = c.friction * depth;
  const Vec3 held = s <= limit ? slide : Vec3(slide * (limit / s));
  return contact_weight_[k] * (depth * n - held);
}

// The free rows whose prediction y enters a collider (the first that it enters).
void ProjectiveSolver::findContacts(const MassSpringModel& m) {
  contacts_.clear();
  const int nf = static_cast<int>(free_.particle.size());
  for (int k = 0; k < nf; ++k) {
    const int i = free_.particle[k];
    contact_[k] = -1;
    for (size_t c = 0; c < m.colliders.size(); ++c)
      if (pushOut(m.colliders[c], x_.segment<3>(3 * i), y_.segment<3>(3 * i))) {
        contact_[k] = static_cast<int>(c);
        contacts_.push_back(k);
        break;
      }
  }
}

// The factor of S + the contacts' weights on their rows' diagonal. A contact new to the factor
// joins the matrix by the low-rank update (prepareLowRank) until kLowRankColumns responses are
// used, when the factor is remade with the contacts of this substep. A row the factor holds that
// is out of contact only has a slightly larger diagonal (the weight is kContactWeight of it),
// which slows its iterations a little and leaves their fixed point alone (its right-hand side has
// no contact force); the factor is remade, too, when more than kStaleContacts of its rows are.
void ProjectiveSolver::factoriseContacts() {
  int held = 0, fresh = 0;
  for (int k : contacts_) {
    held += in_factor_[k];
    fresh += !in_factor_[k] && column_of_[k] < 0;
  }
  const int stale = static_cast<int>(factored_contacts_.size()) - held;
  if (columns_ + fresh < kLowRankColumns &&
      stale <= kStaleContacts * static_cast<double>(factored_contacts_.size()))
    return;
  Eigen::SparseMatrix<double> S = matrix_;
  for (int k : contacts_) S.coeffRef(k, k) += contact_weight_[k];
  llt_.factorize(S);
  ok_ = llt_.info() == Eigen::Success;
  if (ok_) solver_.prepare(llt_);
  forgetResponses();
  for (int k : factored_contacts_) in_factor_[k] = 0;
  for (int k : contacts_) in_factor_[k] = 1;
  factored_contacts_ = contacts_;
}

// The Chebyshev weight of iterate k (counted from 1), `previous` iterate k - 1's.
double ProjectiveSolver::chebyshevWeight(int k, double previous) const {
  if (rho_ == 0.0 || k < kChebyshevFirst) return 1.0;
  const double rho2 = rho_ * rho_;
  return k == kChebyshevFirst ? 2.0 / (2.0 - rho2) : 4.0 / (4.0 - rho2 * previous);
}

// |grad G| at the iterate q over the free coordinates: the norm of the right-hand side fillRows
// left in the lanes (M (y - q) / h_s^2 + the forces at q), summed in row order.
double ProjectiveSolver::gradientNorm(const MassSpringModel& m) {
  const int nf = static_cast<int>(free_.particle.size());
  double sum = 0.0;
  for (int k = 0; k < nf; ++k) {
    const double* lanes = solver_.lanes(k);
    for (int d = 0; d < m.dim; ++d) sum += lanes[d] * lanes[d];
  }
  return std::sqrt(sum);
}

// A new factor: no row's response is known.
void ProjectiveSolver::forgetResponses() {
  for (int k : response_row_) column_of_[k] = -1;
  response_row_.clear();
  columns_ = 0;
}

// The rows the factor lacks, with their weights: the mouse spring's particle (k_grab) and the
// contacts new to the factor. Each row's response z = S^-1 e_row is solved once per factor (four
// rows a solve); with them the correction of (S + E W E^T) is S's less Z (W^-1 + E^T Z)^-1 E^T
// times S's (Woodbury), so that the matrix holds the mouse spring and the new contacts without a
// refactorisation and a stiff one cannot make the iterations diverge.
void ProjectiveSolver::prepareLowRank(const MassSpringModel& m) {
  low_rows_.clear(), low_weight_.clear();
  if (m.grab >= 0 && !m.fixed(m.grab))
    low_rows_.push_back(free_.of_particle[m.grab]), low_weight_.push_back(m.grab_stiffness);
  for (int k : contacts_)
    if (!in_factor_[k]) low_rows_.push_back(k), low_weight_.push_back(contact_weight_[k]);
  missing_.clear();
  for (int k : low_rows_)
    if (column_of_[k] < 0 && std::find(missing_.begin(), missing_.end(), k) == missing_.end())
      missing_.push_back(k);
  if (columns_ + static_cast<int>(missing_.size()) > kLowRankColumns + 1) {
    // out of columns (a mouse spring moved from particle to particle): solve this substep's again
    forgetResponses();
    missing_.clear();
    for (int k : low_rows_)
      if (column_of_[k] == -1) column_of_[k] = -2, missing_.push_back(k);  // -2: listed once
  }
  solveResponses(missing_);
  const int r = static_cast<int>(low_rows_.size());
  capacitance_matrix_.resize(r, r);
  for (int a = 0; a < r; ++a)
    for (int b = 0; b < r; ++b)
      capacitance_matrix_(a, b) =
          response_(low_rows_[a], column_of_[low_rows_[b]]) + (a == b ? 1.0 / low_weight_[a] : 0.0);
  capacitance_.compute(capacitance_matrix_);
  low_shift_.setZero(r, 3);
}

// The responses of `rows` into the next columns of response_, four a solve.
void ProjectiveSolver::solveResponses(const std::vector<int>& rows) {
  const int nf = static_cast<int>(free_.particle.size());
  if (response_.rows() != nf) response_.setZero(nf, kLowRankColumns + 1);
  for (size_t first = 0; first < rows.size(); first += kLanes) {
    const int count = static_cast<int>(std::min<size_t>(kLanes, rows.size() - first));
    for (int k = 0; k < nf; ++k) std::fill_n(solver_.lanes(k), kLanes, 0.0);
    for (int b = 0; b < count; ++b) solver_.lanes(rows[first + b])[b] = 1.0;
    solver_.solveLanes();
    for (int b = 0; b < count; ++b) {
      const int row = rows[first + b], column = columns_++;
      for (int k = 0; k < nf; ++k) response_(k, column) = solver_.lanes(k)[b];
      column_of_[row] = column, response_row_.push_back(row);
    }
  }
}

// After a solve: t = (W^-1 + E^T Z)^-1 E^T delta, the multiples of the responses to take from the
// correction delta (a row of t for each low-rank row, a column for each coordinate).
void ProjectiveSolver::lowRankShift(const MassSpringModel& m) {
  const int r = static_cast<int>(low_rows_.size());
  if (r == 0) return;
  for (int a = 0; a < r; ++a)
    for (int d = 0; d < 3; ++d) low_shift_(a, d) = d < m.dim ? solver_.lanes(low_rows_[a])[d] : 0.0;
  capacitance_.solveInPlace(low_shift_);
}

// Free rows [from, to): the plain iterate q + the global solve's correction (less the low-rank
// rows' part, lowRankShift), extrapolated from the iterate before q by `weight` (1: the plain
// iterate).
void ProjectiveSolver::takeRows(const MassSpringModel& m, double weight, int from, int to) {
  double *q = q_.data(), *before = q_before_.data();
  const int r = static_cast<int>(low_rows_.size());
  for (int k = from; k < to; ++k) {
    const double* lanes = solver_.lanes(k);
    double shift[3] = {0.0, 0.0, 0.0};  // (Z t) at row k
    for (int a = 0; a < r; ++a) {
      const double z = response_(k, column_of_[low_rows_[a]]);
      for (int d = 0; d < 3; ++d) shift[d] += z * low_shift_(a, d);
    }
    for (int d = 0; d < m.dim; ++d) {
      const int j = 3 * free_.particle[k] + d;
      const double delta = lanes[d] - shift[d];
      const double next = weight * (q[j] + delta - before[j]) + before[j];
      before[j] = q[j], q[j] = next;
    }
  }
}

// Free rows [from, to): v' = (q - x) / h_s, x' = q, and each particle's work of the drag (at the
// predicted velocity v^ = (y - x) / h_s, where it acted), the dashpots and its contact (at the
// end, backward Euler's: dash_ at q and v') over the substep.
void ProjectiveSolver::finishRows(const MassSpringModel& m, double hs, int from, int to) {
  const double c = m.drag, wind[3] = {m.wind[0], m.wind[1], m.wind[2]};
  for (int k = from; k < to; ++k) {
    const int i = free_.particle[k];
    double work = 0.0, contact = 0.0;
    if (contact_[k] >= 0)  // minus the contact's force at the end times its mean way (below)
      contact = -contactForce(m, k, i).dot(0.5 * (q_.segment<3>(3 * i) + y_.segment<3>(3 * i)) -
                                           x_.segment<3>(3 * i));
    for (int d = 0; d < m.dim; ++d) {
      const int j = 3 * i + d;
      const double dx = q_[j] - x_[j], v = dx / hs, predicted = (y_[j] - x_[j]) / hs;
      double resisting = c * (predicted - wind[d]);            // minus the drag force
      if (damped_) resisting -= dash_[j] + c * (v - wind[d]);  // minus the dashpots'
      work += resisting * dx;
      x_[j] = q_[j], v_[j] = v;
    }
    particle_work_[i] = work, particle_contact_work_[i] = contact;
  }
}

void ProjectiveSolver::substep(const MassSpringModel& m, double hs, double& dissipated,
                               double& external) {
  const int nf = static_cast<int>(free_.particle.size());
  const int threads = m.springs() >= kMinSpringsPerThread ? kernelThreads() : 1;
  q_ = q_before_ = x_;  // the fixed particles' rows stay at their positions
  util::runTeam(threads, [&](util::TeamMember& team) {
    team.forRange(0, nf, [&](int from, int to) { predictRows(m, hs, from, to); });
  });
  if (!m.colliders.empty()) {
    findContacts(m);
    factoriseContacts();
  }
  prepareLowRank(m);
  // automatic (m.iterations == 0): until the residual is kAutoResidual, within
  // kAutoMinIterations..kAutoMaxIterations solves (docs/integrators.md#automatic-settings)
  const bool automatic = m.iterations <= 0;
  const int most = automatic ? kAutoMaxIterations : m.iterations;
  int iterations = 0;
  double weight = 1.0;
  for (;;) {
    // -grad G at the iterate q into the lanes: the global step's right-hand side, whose norm is
    // the residual of q, so that the residual of the step's result costs one force pass more
    elasticForce(m, q_, force_);  // on the kernel threads
    dashpotsAt(m, hs);
    util::runTeam(threads, [&](util::TeamMember& team) {
      team.forRange(0, nf, [&](int from, int to) { fillRows(m, hs, from, to); });
    });
    const double residual = gradientNorm(m) / weights_;
    if (iterations == most ||
        (automatic && iterations >= kAutoMinIterations && residual <= kAutoResidual)) {
      residual_ = std::max(residual_, residual);
      break;
    }
    solver_.solveLanes();
    lowRankShift(m);
    weight = chebyshevWeight(++iterations, weight);
    util::runTeam(threads, [&](util::TeamMember& team) {
      team.forRange(0, nf, [&](int from, int to) { takeRows(m, weight, from, to); });
    });
  }
  last_iterations_ = iterations;
  const int grab = m.grab >= 0 && !m.fixed(m.grab) ? m.grab : -1;
  // dash_ holds the dashpots at the end, for the ledger (the last pass above was at q)
  util::runTeam(threads, [&](util::TeamMember& team) {
    team.single([&] {  // the mouse spring's force at the end (backward Euler's) over the substep
      if (grab < 0) return;
      const Vec3 force = m.grab_stiffness * (m.grab_target - q_.segment<3>(3 * grab));
      external += force.dot(q_.segment<3>(3 * grab) - x_.segment<3>(3 * grab));
    });
    team.forRange(0, nf, [&](int from, int to) { finishRows(m, hs, from, to); });
  });
  for (int k = 0; k < nf; ++k) {
    dissipated += particle_work_[free_.particle[k]];
    contact_work_ += particle_contact_work_[free_.particle[k]];
  }
}

// With dashpots: dash_ = their and the drag's forces at the iterate q and v = (q - x) / h_s.
void ProjectiveSolver::dashpotsAt(const MassSpringModel& m, double hs) {
  if (!damped_) return;
  vq_ = (q_ - x_) / hs;
  dissipativeForce(m, q_, vq_, dash_);
}

bool ProjectiveSolver::step(const MassSpringModel& m, const State& in, double h, State& out,
                            double& dissipated, double& external) {
  const int substeps = std::max(1, m.substeps);  // automatic: one (kAutomatic is 0)
  last_substeps_ = substeps;
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
  particle_contact_work_.setZero(m.particles()), contact_work_ = 0.0;
  damped_ = m.anyDashpot();
  weights_ = residualWeights(m), residual_ = 0.0;
  if (!free_.particle.empty())
    for (int s = 0; s < substeps; ++s) substep(m, hs, dissipated, external);
  out.x = x_, out.v = v_, out.t = in.t + h;
  return true;
}

}  // namespace sim
