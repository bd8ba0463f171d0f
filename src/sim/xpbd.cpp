#include "sim/xpbd.hpp"

#include "sim/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>

#include "sim/contacts.hpp"
#include "sim/forces.hpp"
#include "sim/parallel.hpp"
#include "sim/residual.hpp"
#include "util/team.hpp"

namespace sim {

namespace {

// A particle's tethers in order (the particles with other than two: sim/xpbd_kernels.hpp takes
// those with two); when a projection breaks an earlier tether, the particle goes onto the circle
// of both, so it always leaves inside every one of its spheres.
inline void projectTethers(const MassSpringModel& m, int first, int end, double* P) {
  for (int t = first; t < end; ++t) {
    double* p = P + 3 * m.tether_particle[t];
    if (!intoSphere(P + 3 * m.tether_anchor[t], m.tether_length[t], p) || t == first) continue;
    for (int s = first; s < t; ++s) {
      const double* a = P + 3 * m.tether_anchor[s];
      const double dx = p[0] - a[0], dy = p[1] - a[1], dz = p[2] - a[2];
      const double ls = m.tether_length[s];
      if (dx * dx + dy * dy + dz * dz <= ls * ls) continue;
      projectOnCircle(tetherCircle(a, P + 3 * m.tether_anchor[t], ls, m.tether_length[t]), p);
    }
  }
}

// The energy the dashpot c of the spring at sweep position j removed over a substep, at the
// substep's end (as implicit Euler evaluates it): c (u . (dx_b - dx_a))^2 / h_s with dx = p - x.
double dashpotWork(const SweepArrays& sw, int j, double c, const double* X, const double* P,
                   double inv_hs) {
  const int a = 3 * sw.a[j], b = 3 * sw.b[j];
  const Vec3 d(P[b] - P[a], P[b + 1] - P[a + 1], P[b + 2] - P[a + 2]);
  const double l = d.norm();
  if (l == 0.0 || c == 0.0) return 0.0;
  const Vec3 rel(P[b] - X[b] - P[a] + X[a], P[b + 1] - X[b + 1] - P[a + 1] + X[a + 1],
                 P[b + 2] - X[b + 2] - P[a + 2] + X[a + 2]);
  const double along = rel.dot(d) / l;
  return c * along * along * inv_hs;
}

// Springs whose ends lie the same index distance apart (b - a: a generated grid's direction) and
// that number at least kOwnColoursSprings are coloured apart from the others, one such group
// after another, so that each colour holds springs of one direction. Measured on the swinging
// cloth_128 (docs/benchmarks.md#stiff-cloth): greedy colours mixing the directions left a stretch
// of 1.119 after the sweeps, colours of one direction each 1.081 at the same cost (12 colours
// instead of 13), whatever the order of the directions.
constexpr int kOwnColoursSprings = 64;

// The springs in the order they are coloured: the groups of one index distance (at least
// kOwnColoursSprings springs, in the order each distance first appears), then the rest; within
// each, by spring index. `group_start` marks where each group begins.
std::vector<int> springsByGroup(const MassSpringModel& m, std::vector<int>& group_start) {
  const int ns = m.springs();
  std::unordered_map<int, int> count;
  for (int s = 0; s < ns; ++s) ++count[m.spring_b[s] - m.spring_a[s]];
  std::unordered_map<int, int> group;  // distance -> group, in order of first appearance
  std::vector<int> group_of(ns, -1);   // -1: the rest, the last group
  for (int s = 0; s < ns; ++s) {
    const int d = m.spring_b[s] - m.spring_a[s];
    if (count[d] >= kOwnColoursSprings) group_of[s] = group.emplace(d, group.size()).first->second;
  }
  const int groups = static_cast<int>(group.size()) + 1;
  for (int& g : group_of)
    if (g < 0) g = groups - 1;
  // a counting sort by group, stable
  group_start.assign(groups + 1, 0);
  for (int s = 0; s < ns; ++s) ++group_start[group_of[s] + 1];
  for (int g = 0; g < groups; ++g) group_start[g + 1] += group_start[g];
  std::vector<int> by(ns), next(group_start.begin(), group_start.end() - 1);
  for (int s = 0; s < ns; ++s) by[next[group_of[s]]++] = s;
  return by;
}

}  // namespace

std::vector<int> sweepColours(const MassSpringModel& m) {
  const int ns = m.springs();
  // greedy edge colouring, fixed ends included (a sweep writes + 0 to them), group by group: at
  // most 2 (degree) - 1 colours within each group. A particle's colours below 64 are bits of a
  // word, the rest (rare: a particle of more than 32 springs) in a list.
  constexpr int kBits = 64;
  std::vector<std::uint64_t> low(m.particles(), 0);
  std::vector<std::vector<int>> high(m.particles());
  auto taken = [&](int i, int c) {
    return c < kBits ? (low[i] >> c & 1) != 0
                     : std::find(high[i].begin(), high[i].end(), c) != high[i].end();
  };
  auto take = [&](int i, int c) {
    if (c < kBits)
      low[i] |= std::uint64_t{1} << c;
    else
      high[i].push_back(c);
  };
  std::vector<int> colour_of(ns);
  std::vector<int> group_start;
  const std::vector<int> by = springsByGroup(m, group_start);
  int colours = 0;
  for (size_t g = 0; g + 1 < group_start.size(); ++g) {
    const int first_colour = colours;
    for (int k = group_start[g]; k < group_start[g + 1]; ++k) {
      const int s = by[k], a = m.spring_a[s], b = m.spring_b[s];
      int c = first_colour;
      while (taken(a, c) || taken(b, c)) ++c;
      colour_of[s] = c;
      take(a, c), take(b, c);
      colours = std::max(colours, c + 1);
    }
  }
  return colour_of;
}

void XpbdSolver::colour(const MassSpringModel& m) {
  const int ns = m.springs(), n = m.particles();
  const std::vector<int> colour_of = sweepColours(m);
  const int colours = ns == 0 ? 0 : *std::max_element(colour_of.begin(), colour_of.end()) + 1;
  colour_start_.assign(colours + 1, 0);
  for (int s = 0; s < ns; ++s) ++colour_start_[colour_of[s] + 1];
  for (int c = 0; c < colours; ++c) colour_start_[c + 1] += colour_start_[c];
  order_.resize(ns);
  std::vector<int> next(colour_start_.begin(), colour_start_.end() - 1);
  for (int s = 0; s < ns; ++s) order_[next[colour_of[s]]++] = s;
  fillSweepArrays(m);
  // the tethers are sorted by particle: tether_start_ marks where each particle's run begins
  tether_start_.clear();
  const int nt = static_cast<int>(m.tether_particle.size());
  for (int t = 0; t < nt; ++t)
    if (t == 0 || m.tether_particle[t] != m.tether_particle[t - 1]) tether_start_.push_back(t);
  tether_start_.push_back(nt);
  pairs_.clear(), other_runs_.clear();
  for (size_t r = 0; r + 1 < tether_start_.size(); ++r) {
    const int t = tether_start_[r];
    if (tether_start_[r + 1] - t == 2) {
      pairs_.add(m.tether_particle[t], m.tether_anchor[t], m.tether_anchor[t + 1],
                 m.tether_length[t], m.tether_length[t + 1]);
    } else {
      other_runs_.push_back(static_cast<int>(r));
    }
  }
  pair_anchors_at_.assign(6 * static_cast<size_t>(pairs_.size()), 0.0);
  revision_ = m.revision, springs_ = ns, particles_ = n;
}

// The constant per-spring data in sweep order, so that a sweep streams through it.
void XpbdSolver::fillSweepArrays(const MassSpringModel& m) {
  const int ns = m.springs();
  sweep_.a.resize(ns), sweep_.b.resize(ns);
  sweep_.rest.resize(ns), sweep_.inv_k.resize(ns), sweep_.wa.resize(ns), sweep_.wb.resize(ns);
  sweep_.damping.resize(ns);
  for (int j = 0; j < ns; ++j) {
    const int s = order_[j];
    sweep_.a[j] = m.spring_a[s], sweep_.b[j] = m.spring_b[s];
    sweep_.rest[j] = m.rest_length[s];
    sweep_.inv_k[j] = 1.0 / m.stiffness[s];
    sweep_.damping[j] = m.damping[s];
    sweep_.wa[j] = m.inv_mass[m.spring_a[s]], sweep_.wb[j] = m.inv_mass[m.spring_b[s]];
  }
  lambda_.resize(ns);
  dash_work_.resize(ns);
}

XpbdSolver::Prediction XpbdSolver::predictionOf(const MassSpringModel& m, double hs) {
  Prediction c;
  c.hs = hs, c.drag = m.drag;
  for (int k = 0; k < 3; ++k) c.hs_gravity[k] = hs * m.gravity[k], c.wind[k] = m.wind[k];
  return c;
}

// v^ = (v + h_s (g + (F_grab + c_drag wind) / m)) / (1 + h_s c_drag / m): the drag
// -c_drag (v - wind) taken implicitly, so it is stable at any c_drag; p = x + h_s v^. The division
// is a multiplication by drag_scale_, its reciprocal computed once a step (three divisions a
// particle a substep had held the prediction to the divider's pace, 15 % of the step). v keeps v^
// until the substep's end, where the drag force -c_drag (v^ - wind) is formed again for the
// substep's work (finishParticle), so no array holds it. Particle i alone: called by the member of
// the step's team that owns i. The model's constants come in `c`, copied once a step, so that the
// compiler need not load them again after every store to the state.
void XpbdSolver::predictParticle(const MassSpringModel& m, int i, const Prediction& c) {
  if (contact_friction_.size() > 0) {
    contact_friction_[i] = -1.0;
    contact_shift_.segment<3>(3 * i).setZero();
    start_v_.segment<3>(3 * i) = v_.segment<3>(3 * i);
  }
  const double* x = x_.data() + 3 * i;
  double *v = v_.data() + 3 * i, *p = p_.data() + 3 * i;
  const double w = m.inv_mass[i];
  if (w == 0.0) {  // fixed
    std::copy(x, x + 3, p);
    return;
  }
  double u[3];
  for (int k = 0; k < 3; ++k) u[k] = v[k] + c.hs_gravity[k];
  if (i == m.grab) {
    const Eigen::Map<const Vec3> xi(x);
    Eigen::Map<Vec3>(u) += c.hs * w * (m.grab_stiffness * (m.grab_target - xi));
  }
  const double push = c.hs * w * c.drag, scale = drag_scale_[i];
  for (int k = 0; k < 3; ++k) {
    u[k] += push * c.wind[k];  // the drag's push by the air, c wind
    u[k] *= scale;
    v[k] = u[k];
    p[k] = x[k] + c.hs * u[k];
  }
}

void XpbdSolver::collide(util::TeamMember& team, const MassSpringModel& m) {
  const int n = m.particles();
  team.forEach(0, n, [&](int i) {
    if (m.fixed(i)) return;
    const Vec3 from = x_.segment<3>(3 * i);
    for (const Collider& c : m.colliders) {
      const Vec3 to = p_.segment<3>(3 * i);
      const auto push = pushOut(c, from, to);
      if (!push) continue;
      p_.segment<3>(3 * i) = push->to;
      contact_shift_.segment<3>(3 * i) += push->to - to;
      contact_normal_.segment<3>(3 * i) = push->normal;
      contact_friction_[i] = c.friction;
    }
  });
}

// Position-based Coulomb friction: the substep's sliding displacement is taken back up to
// friction times the distance the surface pushed the particle (the normal impulse times h_s / m).
void XpbdSolver::rub(util::TeamMember& team, const MassSpringModel& m) {
  const int n = m.particles();
  team.forEach(0, n, [&](int i) {
    const double mu = contact_friction_[i];
    if (!(mu > 0.0)) return;
    const Vec3 nrm = contact_normal_.segment<3>(3 * i);
    const Vec3 moved = p_.segment<3>(3 * i) - x_.segment<3>(3 * i);
    const Vec3 slide = moved - moved.dot(nrm) * nrm;
    const double s = slide.norm(),
                 limit = mu * std::max(0.0, contact_shift_.segment<3>(3 * i).dot(nrm));
    if (s == 0.0) return;
    const Vec3 back = s <= limit ? slide : Vec3(slide * (limit / s));
    p_.segment<3>(3 * i) -= back;
    contact_shift_.segment<3>(3 * i) -= back;
  });
}

// `iterations` sweeps over the springs, colour by colour, each followed by the tethers.
void XpbdSolver::project(util::TeamMember& team, const MassSpringModel& m, double hs) {
  const double inv_hs = 1.0 / hs, inv_hs2 = inv_hs * inv_hs;
  const int colours = static_cast<int>(colour_start_.size()) - 1;
  const int iterations = std::max(1, m.iterations);  // automatic: one sweep (Macklin 2019)
  const double* X = x_.data();
  double* P = p_.data();
  double* lambda = lambda_.data();
  const int* start = colour_start_.data();
  const int* tether_start = tether_start_.data();
  SweepStep step;
  step.inv_hs2 = inv_hs2, step.inv_hs = inv_hs, step.damped = damped_;
  for (int it = 0; it < iterations; ++it) {
    step.first = it == 0;
    for (int c = 0; c < colours; ++c) {
      team.forRange(start[c], start[c + 1], [&](int from, int to) {
        projectSpringBlock(sweep_, from, to, step, X, P, lambda);
      });
    }
    // one particle's tethers on one thread, in order: the same bits for any thread count
    team.forRange(0, pairs_.size(),
                  [&](int from, int to) { projectTetherPairs(pairs_, from, to, P); });
    if (!other_runs_.empty()) {
      team.forEach(0, static_cast<int>(other_runs_.size()), [&](int r) {
        projectTethers(m, tether_start[other_runs_[r]], tether_start[other_runs_[r] + 1], P);
      });
    }
    if (!m.colliders.empty()) collide(team, m);
  }
  if (m.colliders.empty()) return;
  rub(team, m);
  // friction slides along the normal of the particle's last push, which a later sweep may have
  // moved it from: one more push-out, so that every substep ends outside every collider
  collide(team, m);
}

// v' = (p - x) / h_s and the substep's work, then x = p, for particle i alone (called by the
// member that owns it). Each particle's work is summed over the step's substeps in its own slot,
// and the slots in particle order at the step's end (XpbdSolver::step), so that the sum is the
// same whatever the thread count.
void XpbdSolver::finishParticle(const MassSpringModel& m, int i, const Prediction& c) {
  const double hs = c.hs;
  Eigen::Map<Vec3> x(x_.data() + 3 * i), p(p_.data() + 3 * i);
  if (m.fixed(i)) {
    p = x;  // exactly where it was, whatever the sweeps added
    return;
  }
  const Vec3 dx = p - x;
  Eigen::Map<Vec3> v(v_.data() + 3 * i);
  // the drag's, from v^ (predictParticle): the force as the prediction took it, operation for
  // operation
  const Vec3 f(-c.drag * (v[0] - c.wind[0]), -c.drag * (v[1] - c.wind[1]),
               -c.drag * (v[2] - c.wind[2]));
  const double work = -f.dot(dx);
  v = dx / hs;
  if (contact_friction_.size() > 0 && contact_friction_[i] >= 0.0) {
    // dx / h_s still holds the approach before the contact: its part into the surface goes
    // (no bounce), as in the step's contacts (sim/contacts.hpp)
    const Eigen::Map<const Vec3> nrm(contact_normal_.data() + 3 * i);
    const double vn = v.dot(nrm);
    if (vn < 0.0) v -= vn * nrm;
    // The contact's work: its impulse, the shifts s (push-outs and friction) as m s / h_s plus
    // the normal velocity removed, over the substep's mean velocity (the trapezoid rule on its
    // power). Zero for a particle at rest on the surface, however hard the springs press it
    // there; exactly (1/2) m v_n^2 for a stop within one substep.
    const Vec3 impulse =
        m.mass[i] * (contact_shift_.segment<3>(3 * i) / hs - std::min(vn, 0.0) * nrm);
    contact_work_slots_[i] -= impulse.dot(0.5 * (start_v_.segment<3>(3 * i) + v));
  }
  particle_work_[i] += work;
  if (i == m.grab) grab_work_ += m.grab_stiffness * (m.grab_target - x).dot(dx);
  x = p;
}

// Ends a substep: the dashpots' work (each spring's in its own slot, as the particles'), then
// every particle's finish and, unless this was the step's last substep, the next one's prediction.
void XpbdSolver::finishSubstep(util::TeamMember& team, const MassSpringModel& m, double hs,
                               bool last) {
  const Prediction prediction = predictionOf(m, hs);
  if (damped_) {
    const double *X = x_.data(), *P = p_.data();
    double* D = dash_work_.data();
    team.forEach(0, m.springs(),
                 [&](int j) { D[j] += dashpotWork(sweep_, j, sweep_.damping[j], X, P, 1.0 / hs); });
  }
  team.forEach(0, m.particles(), [&](int i) {
    finishParticle(m, i, prediction);
    if (!last) predictParticle(m, i, prediction);
  });
}

// The circles of the particles with two tethers, for the anchors' current positions: computed
// again only where an anchor moved (a changed scene recolours, which forgets them).
void XpbdSolver::updateCircles(util::TeamMember& team) {
  const double* X = x_.data();
  team.forEach(0, pairs_.size(), [&](int i) {
    const double *a = X + 3 * pairs_.anchor_s[i], *b = X + 3 * pairs_.anchor_t[i];
    double* at = pair_anchors_at_.data() + 6 * i;
    const bool same = std::equal(a, a + 3, at) && std::equal(b, b + 3, at + 3);
    if (same && pairs_.radius[i] >= 0.0) return;
    std::copy(a, a + 3, at), std::copy(b, b + 3, at + 3);
    pairs_.setCircle(i, tetherCircle(a, b, pairs_.length_s[i], pairs_.length_t[i]));
  });
}

// The last substep's start x, prediction y = x + h_s v^ (v_ holds v^ until finishParticle) and
// result p after the sweeps and colliders, before self-collision, for lastSubstepResidual.
void XpbdSolver::keepLastSubstep(util::TeamMember& team, const MassSpringModel& m, double hs) {
  team.forEach(0, m.particles(), [&](int i) {
    for (int d = 0; d < 3; ++d) {
      const int j = 3 * i + d;
      kept_x_[j] = x_[j], kept_p_[j] = p_[j], kept_y_[j] = x_[j] + hs * v_[j];
    }
  });
}

// |grad G| / weights at the last substep's result (docs/integrators.md#residuals): G the backward
// Euler substep from xpbd's own prediction y (the drag and the mouse spring are in it), with the
// springs and dashpots at p and the colliders' shifts s (push-outs and friction) as the contact
// force M s / h_s^2; at its minimum the converged sweeps' constraint equations hold. The tethers
// are not in G: where they pull, the residual counts them.
double XpbdSolver::lastSubstepResidual(const MassSpringModel& m, double hs) {
  const int n = m.particles();
  elasticForce(m, kept_p_, kept_force_);  // on the kernel threads
  if (damped_) {
    kept_v_ = (kept_p_ - kept_x_) / hs;
    dissipativeForce(m, kept_p_, kept_v_, kept_dash_);
  }
  const bool contacts = contact_friction_.size() > 0;
  const double inertia = 1.0 / (hs * hs);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) {
    if (m.fixed(i)) continue;
    for (int d = 0; d < m.dim; ++d) {
      const int j = 3 * i + d;
      double g = m.mass[i] * (kept_p_[j] - kept_y_[j]) * inertia - kept_force_[j];
      if (damped_)  // the dashpots alone (kept_dash_ holds the drag too, which y has taken)
        g -= kept_dash_[j] + m.drag * (kept_v_[j] - m.wind[d]);
      if (contacts) g -= m.mass[i] * contact_shift_[j] * inertia;
      sum += g * g;
    }
  }
  return std::sqrt(sum) / residualWeights(m);
}

namespace {

// Whether omega_max^2 ~ k/m lies beyond what Lanczos can compute without overflow (a spring of
// k = 1e308 and a gram): then xpbd, which holds any k, takes its most automatic substeps.
constexpr double kLogSafeOmegaSquared = 300.0;  // ln(1e130)
bool beyondRange(const MassSpringModel& m) {
  const double k = m.stiffness.size() ? m.stiffness.maxCoeff() : 0.0;
  const double w = m.inv_mass.size() ? m.inv_mass.maxCoeff() : 0.0;
  return k > 0.0 && w > 0.0 && !(std::log(k) + std::log(w) < kLogSafeOmegaSquared);
}

}  // namespace

// The scene's substeps, or automatic ones from omega_max at the state a new stiffness or step
// first meets (docs/integrators.md#automatic-settings): ceil(h omega_max / kAutoSubstepPhase).
int XpbdSolver::substepsFor(const MassSpringModel& m, const State& in, double h) {
  if (m.substeps != kAutomatic) return std::max(1, m.substeps);
  if (auto_revision_ != m.revision || auto_h_ != h || auto_substeps_ < 1) {
    double phase = beyondRange(m) ? kMaxAutoSubsteps : h * omegaMax(m, in) / kAutoSubstepPhase;
    if (!std::isfinite(phase)) phase = kMaxAutoSubsteps;  // a state that is not finite
    auto_substeps_ = static_cast<int>(std::clamp(std::ceil(phase), 1.0, double(kMaxAutoSubsteps)));
    auto_revision_ = m.revision, auto_h_ = h;
  }
  return auto_substeps_;
}

bool XpbdSolver::step(const MassSpringModel& m, const State& in, double h, State& out,
                      double& dissipated, double& external) {
  if (revision_ != m.revision || springs_ != m.springs() || particles_ != m.particles()) colour(m);
  // the dashpots change without a new revision (the panel's damping slider): read every step
  damped_ = m.anyDashpot();
  if (damped_)
    for (int j = 0; j < m.springs(); ++j) sweep_.damping[j] = m.damping[order_[j]];
  const int substeps = substepsFor(m, in, h);
  last_substeps_ = substeps, last_iterations_ = std::max(1, m.iterations);
  const double hs = h / substeps;
  const int n = m.particles();
  // x_ and p_ end in kSweepPadding zeros that the vector kernels may read (sim/xpbd_kernels.hpp)
  x_.resize(3 * n + kSweepPadding), p_.resize(3 * n + kSweepPadding);
  x_.head(3 * n) = in.x;
  x_.tail(kSweepPadding).setZero(), p_.tail(kSweepPadding).setZero();
  v_ = in.v;
  kept_x_.resize(3 * n), kept_y_.resize(3 * n), kept_p_.resize(3 * n);
  if (!m.colliders.empty()) {
    contact_shift_.resize(3 * n), contact_normal_.resize(3 * n), contact_friction_.resize(n);
    start_v_.resize(3 * n);
  } else {
    contact_friction_.resize(0);
  }
  particle_work_.setZero(n), contact_work_slots_.setZero(n);
  drag_scale_.resize(n);
  if (damped_) dash_work_.setZero(m.springs());
  grab_work_ = 0.0;
  // a small system runs on one thread: a barrier per colour would cost more than its springs
  const int threads = m.springs() >= kMinSpringsPerThread ? kernelThreads() : 1;
  util::runTeam(threads, [&](util::TeamMember& team) {
    updateCircles(team);
    const Prediction prediction = predictionOf(m, hs);
    team.forEach(0, n, [&](int i) {
      drag_scale_[i] = 1.0 / (1.0 + hs * m.drag * m.inv_mass[i]);
      predictParticle(m, i, prediction);
    });
    for (int k = 0; k < substeps; ++k) {
      project(team, m, hs);
      if (k + 1 == substeps) keepLastSubstep(team, m, hs);
      if (m.self_thickness > 0.0)
        self_collision_.resolveSubstep(team, m, x_.data(), p_.data(), hs,
                                       contact_work_slots_.data());
      finishSubstep(team, m, hs, k + 1 == substeps);
    }
  });
  // a spring beyond Lanczos's range overflows the force pass: no residual (NaN) there
  residual_ =
      beyondRange(m) ? std::numeric_limits<double>::quiet_NaN() : lastSubstepResidual(m, hs);
  // the work in particle and spring order, on one thread
  dissipated = particle_work_.sum() + (damped_ ? dash_work_.sum() : 0.0);
  contact_work_ = contact_work_slots_.sum();
  external = grab_work_;
  out.x = x_.head(3 * n);
  out.v = v_;
  return true;
}

}  // namespace sim
