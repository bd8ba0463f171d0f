#include "sim/vbd.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Cholesky>

#include "sim/contacts.hpp"
#include "sim/parallel.hpp"
#include "sim/spring_hessian.hpp"
#include "util/team.hpp"

namespace sim {

namespace {
// The weights' offset (the contract's §3: sum m |g| + 1 N), so that a weightless system has a
// scale too.
constexpr double kWeightOffset = 1.0;  // N
}  // namespace

// Each free particle's springs (the other end, k, l, c) and the colours: greedy over the free
// particles in index order, each the smallest colour no free neighbour has yet (a fixed
// neighbour never moves, so it constrains nothing).
void VbdSolver::build(const MassSpringModel& m) {
  const int n = m.particles(), ns = m.springs();
  link_start_.assign(n + 1, 0);
  for (int s = 0; s < ns; ++s) ++link_start_[m.spring_a[s] + 1], ++link_start_[m.spring_b[s] + 1];
  for (int i = 0; i < n; ++i) link_start_[i + 1] += link_start_[i];
  links_.resize(link_start_[n]);
  std::vector<int> next(link_start_.begin(), link_start_.end() - 1);
  for (int s = 0; s < ns; ++s) {
    const int a = m.spring_a[s], b = m.spring_b[s];
    const double k = m.stiffness[s], l = m.rest_length[s], c = m.damping[s];
    links_[next[a]++] = Link{b, k, l, c};
    links_[next[b]++] = Link{a, k, l, c};
  }
  std::vector<int> colour(n, -1), used;
  int colours = 0;
  for (int i = 0; i < n; ++i) {
    if (m.fixed(i)) continue;
    used.assign(colours + 1, 0);
    for (int e = link_start_[i]; e < link_start_[i + 1]; ++e)
      if (colour[links_[e].other] >= 0) used[colour[links_[e].other]] = 1;
    int c = 0;
    while (used[c]) ++c;
    colour[i] = c, colours = std::max(colours, c + 1);
  }
  colour_start_.assign(colours + 1, 0);
  for (int i = 0; i < n; ++i)
    if (colour[i] >= 0) ++colour_start_[colour[i] + 1];
  for (int c = 0; c < colours; ++c) colour_start_[c + 1] += colour_start_[c];
  order_.resize(colour_start_[colours]);
  next.assign(colour_start_.begin(), colour_start_.end() - 1);
  for (int i = 0; i < n; ++i)
    if (colour[i] >= 0) order_[next[colour[i]]++] = i;
  weights_ = kWeightOffset;
  for (int i = 0; i < n; ++i) weights_ += m.mass[i] * m.gravity.norm();
  revision_ = m.revision, damping_revision_ = m.damping_revision;
  particles_ = n, springs_ = ns;
}

// Rows [from, to) of order_: the prediction y (the drag implicit, as projective's) and the
// initial guess, the paper's adaptive one (§3.7): x + h_s v + h_s^2 a~, a~ the acceleration's
// component along gravity clamped to [0, |g|]. The paper takes the previous step's (v - v_prev) /
// h; a backward Euler step makes that the acceleration at its end, a(x, v), which is what this
// takes: so the guess depends on the state alone, and a step from a restored state is the same
// bits as the original (the recording's slow motion of a blow-up replays steps).
void VbdSolver::predictRows(const MassSpringModel& m, double hs, int from, int to) {
  const double c = m.drag, gravity = m.gravity.norm();
  const Vec3 along = gravity > 0.0 ? Vec3(m.gravity / gravity) : Vec3::Zero();
  for (int p = from; p < to; ++p) {
    const int i = order_[p];
    const double mi = m.mass[i];
    const Vec3 x = x_.segment<3>(3 * i), v = v_.segment<3>(3 * i);
    const Vec3 vhat = (v + hs * (m.gravity + c * m.wind / mi)) / (1.0 + hs * c / mi);
    y_.segment<3>(3 * i) = x + hs * vhat;
    const double a = std::clamp(accelerationAt(m, i).dot(along), 0.0, gravity);
    q_.segment<3>(3 * i) = x + hs * v + (hs * hs * a) * along;
    q_before_.segment<3>(3 * i) = q_.segment<3>(3 * i);
    contact_[i] = -1;
  }
}

// Particle i's acceleration at the substep's start (x_, v_): gravity, drag, springs, dashpots and
// the mouse spring.
Vec3 VbdSolver::accelerationAt(const MassSpringModel& m, int i) const {
  const Vec3 xi = x_.segment<3>(3 * i), vi = v_.segment<3>(3 * i);
  Vec3 f = -m.drag * (vi - m.wind);
  for (int e = link_start_[i]; e < link_start_[i + 1]; ++e) {
    const Link& s = links_[e];
    const Vec3 xo = x_.segment<3>(3 * s.other);
    f += springTerms(xo, xi, s.k, s.l).force_on_b;
    const Vec3 d = xi - xo;
    const double r = d.norm();
    if (s.c == 0.0 || !(r > 0.0)) continue;
    const Vec3 u = d / r;
    f -= (s.c * (vi - v_.segment<3>(3 * s.other)).dot(u)) * u;
  }
  if (i == m.grab) f += m.grab_stiffness * (m.grab_target - xi);
  return m.gravity + f / m.mass[i];
}

// dG/dq_i at q_ (N), and with `hessian` its 3 x 3 block with each spring's PSD projection.
Vec3 VbdSolver::gradientAt(const MassSpringModel& m, int i, Eigen::Matrix3d* hessian) const {
  const double w = m.mass[i] * inv_hs2_ + m.drag * inv_hs_;
  const Vec3 qi = q_.segment<3>(3 * i), xi = x_.segment<3>(3 * i);
  Vec3 g = w * (qi - y_.segment<3>(3 * i));
  if (hessian) *hessian = w * Eigen::Matrix3d::Identity();
  for (int e = link_start_[i]; e < link_start_[i + 1]; ++e) {
    const Link& s = links_[e];
    const Vec3 qo = q_.segment<3>(3 * s.other);
    const SpringTerms t = springTerms(qo, qi, s.k, s.l);
    g -= t.force_on_b;
    if (hessian) *hessian += t.hessian;
    if (s.c == 0.0) continue;
    const Vec3 d = qi - qo;  // the dashpot at v = (q - x) / h_s: -c ((v_i - v_o) . u) u
    const double r = d.norm();
    if (!(r > 0.0)) continue;
    const Vec3 u = d / r, moved = (qi - xi) - (qo - x_.segment<3>(3 * s.other));
    g += (s.c * inv_hs_ * moved.dot(u)) * u;
    if (hessian) *hessian += (s.c * inv_hs_) * (u * u.transpose());
  }
  if (i == m.grab) {
    g -= m.grab_stiffness * (m.grab_target - qi);
    if (hessian) *hessian += m.grab_stiffness * Eigen::Matrix3d::Identity();
  }
  return g;
}

// A particle whose motion this substep enters a collider: back on its surface, its sliding held
// back by friction (sim/contacts' rules), and its collider and normal noted for the residual.
void VbdSolver::contactRow(const MassSpringModel& m, int i) {
  contact_[i] = -1;
  for (size_t c = 0; c < m.colliders.size(); ++c) {
    const auto push = pushOut(m.colliders[c], x_.segment<3>(3 * i), q_.segment<3>(3 * i));
    if (!push) continue;
    q_.segment<3>(3 * i) = holdBack(x_.segment<3>(3 * i), *push, m.colliders[c].friction);
    contact_[i] = static_cast<int>(c), normal_[i] = push->normal;
  }
}

// Rows [from, to) of order_, one colour: each particle's Newton step on its block of G.
void VbdSolver::sweepRows(const MassSpringModel& m, int from, int to) {
  Eigen::Matrix3d H;
  for (int p = from; p < to; ++p) {
    const int i = order_[p];
    const Vec3 g = gradientAt(m, i, &H);
    if (!g.allFinite() || !H.allFinite()) {  // an overflowing force: the step is not finite
      q_.segment<3>(3 * i).setConstant(std::numeric_limits<double>::quiet_NaN());  // named after
      continue;
    }
    const Eigen::LLT<Eigen::Matrix3d> llt(H);
    if (llt.info() != Eigen::Success) continue;  // singular: the particle stays
    Vec3 dx = llt.solve(-g);
    if (m.dim == 2) dx[2] = 0.0;
    if (!dx.allFinite()) continue;
    q_.segment<3>(3 * i) += dx;
    if (!m.colliders.empty()) contactRow(m, i);
  }
}

// Rows [from, to): each free particle's squared |dG/dq_i|, less what its contact can take: a push
// along the normal and, by friction, a tangential part up to friction times that push.
void VbdSolver::residualRows(const MassSpringModel& m, int from, int to) {
  for (int p = from; p < to; ++p) {
    const int i = order_[p];
    Vec3 g = gradientAt(m, i, nullptr);
    if (m.dim == 2) g[2] = 0.0;
    if (contact_[i] >= 0) {
      const Vec3 n = normal_[i];
      const double along = g.dot(n), push = std::max(along, 0.0);
      const double slide = (g - along * n).norm();
      const double left = std::max(0.0, slide - m.colliders[contact_[i]].friction * push);
      grad2_[i] = (along - push) * (along - push) + left * left;
    } else {
      grad2_[i] = g.squaredNorm();
    }
  }
}

// Rows [from, to): the iterate before the sweep, kept for the extrapolation.
void VbdSolver::keepRows(const MassSpringModel& m, int from, int to) {
  for (int p = from; p < to; ++p) q_kept_.segment<3>(3 * order_[p]) = q_.segment<3>(3 * order_[p]);
  (void)m;
}

// Rows [from, to): the sweep's iterate q^ extrapolated from the iterate before the last by
// `weight` (Chebyshev's: q = w (q^ - q_before) + q_before), which then becomes the kept one.
void VbdSolver::extrapolateRows(const MassSpringModel& m, double weight, int from, int to) {
  for (int p = from; p < to; ++p) {
    const int i = order_[p];
    for (int d = 0; d < m.dim; ++d) {
      const int j = 3 * i + d;
      q_[j] = weight * (q_[j] - q_before_[j]) + q_before_[j];
      q_before_[j] = q_kept_[j];
    }
  }
}

// Rows [from, to): v' = (q - x) / h_s, each particle's work of the drag and the dashpots (their
// forces at the end, backward Euler's), of the mouse spring and of its contact (the force that
// balanced G's gradient there), then x' = q.
void VbdSolver::finishRows(const MassSpringModel& m, double hs, int from, int to) {
  for (int p = from; p < to; ++p) {
    const int i = order_[p];
    const Vec3 qi = q_.segment<3>(3 * i), xi = x_.segment<3>(3 * i), dx = qi - xi;
    const Vec3 v = dx / hs;
    double removed = m.drag * (v - m.wind).dot(dx);
    for (int e = link_start_[i]; e < link_start_[i + 1]; ++e) {
      const Link& s = links_[e];
      if (s.c == 0.0) continue;
      const Vec3 d = qi - q_.segment<3>(3 * s.other);
      const double r = d.norm();
      if (!(r > 0.0)) continue;
      const Vec3 u = d / r, moved = dx - (q_.segment<3>(3 * s.other) - x_.segment<3>(3 * s.other));
      removed += s.c * inv_hs_ * moved.dot(u) * u.dot(dx);
    }
    work_[i] = removed;
    v_.segment<3>(3 * i) = v;
    grab_work_[i] = i == m.grab ? m.grab_stiffness * (m.grab_target - qi).dot(dx) : 0.0;  // put in
    contact_work_rows_[i] = contact_[i] >= 0 ? -gradientAt(m, i, nullptr).dot(dx) : 0.0;
  }
}

namespace {
// Chebyshev's weight of sweep k (counted from 1), `previous` sweep k - 1's (the paper's §3.8).
double chebyshevWeight(double rho, int k, double previous) {
  if (rho == 0.0 || k < kVbdChebyshevFirst) return 1.0;
  const double rho2 = rho * rho;
  return k == kVbdChebyshevFirst ? 2.0 / (2.0 - rho2) : 4.0 / (4.0 - rho2 * previous);
}
}  // namespace

void VbdSolver::substep(const MassSpringModel& m, double hs, double& dissipated, double& external) {
  const int nf = static_cast<int>(order_.size()), colours = this->colours();
  const int threads = m.springs() >= kMinSpringsPerThread ? kernelThreads() : 1;
  inv_hs_ = 1.0 / hs, inv_hs2_ = inv_hs_ * inv_hs_;
  const bool automatic = m.iterations <= 0;
  const int most = automatic ? kVbdMaxIterations : m.iterations;
  util::runTeam(threads, [&](util::TeamMember& team) {
    team.forRange(0, nf, [&](int from, int to) { predictRows(m, hs, from, to); });
    double weight = 1.0;  // every member follows the same sequence of weights and residuals
    for (int it = 1; it <= most; ++it) {
      if (rho_ != 0.0) team.forRange(0, nf, [&](int from, int to) { keepRows(m, from, to); });
      for (int c = 0; c < colours; ++c)
        team.forRange(colour_start_[c], colour_start_[c + 1],
                      [&](int from, int to) { sweepRows(m, from, to); });
      weight = chebyshevWeight(rho_, it, weight);
      if (rho_ != 0.0)
        team.forRange(0, nf, [&](int from, int to) { extrapolateRows(m, weight, from, to); });
      if (!automatic && it < most) continue;
      team.forRange(0, nf, [&](int from, int to) { residualRows(m, from, to); });
      double sum = 0.0;  // in order_, by every member: the same bits whatever the count
      for (int p = 0; p < nf; ++p) sum += grad2_[order_[p]];
      const double residual = std::sqrt(sum) / weights_;
      team.barrier();  // every member has read grad2_ before it is written again
      if (team.id() == 0) substep_residual_ = residual, last_iterations_ = it;
      if (automatic && residual <= kVbdTolerance) break;
    }
    team.forRange(0, nf, [&](int from, int to) { finishRows(m, hs, from, to); });
  });
  last_residual_ = std::max(last_residual_, substep_residual_);
  for (int p = 0; p < nf; ++p) {
    const int i = order_[p];
    dissipated += work_[i], external += grab_work_[i], contact_work_ += contact_work_rows_[i];
  }
  x_ = q_;
}

void VbdSolver::step(const MassSpringModel& m, const State& in, double h, State& out,
                     double& dissipated, double& external) {
  if (revision_ != m.revision || damping_revision_ != m.damping_revision ||
      particles_ != m.particles() || springs_ != m.springs())
    build(m);
  const int substeps = std::max(1, m.substeps);  // automatic: one (kAutomatic is 0)
  last_substeps_ = substeps, last_residual_ = 0.0, contact_work_ = 0.0;
  dissipated = external = 0.0;
  x_ = in.x, v_ = in.v, q_ = in.x, q_before_ = in.x, q_kept_ = in.x;
  const Eigen::Index n = in.x.size();
  y_.setZero(n), grad2_.setZero(m.particles());
  work_.setZero(m.particles()), grab_work_.setZero(m.particles());
  contact_work_rows_.setZero(m.particles());
  contact_.assign(m.particles(), -1), normal_.assign(m.particles(), Vec3::Zero());
  const double hs = h / substeps;
  for (int s = 0; s < substeps; ++s) substep(m, hs, dissipated, external);
  out.x = x_, out.v = v_, out.t = in.t + h;
}

}  // namespace sim
