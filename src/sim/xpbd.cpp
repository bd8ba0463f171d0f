#include "sim/xpbd.hpp"

#include <algorithm>
#include <cmath>

#include "sim/contacts.hpp"
#include "sim/parallel.hpp"
#include "util/team.hpp"

namespace sim {

namespace {

// The Gauss-Seidel update of the spring at sweep position j (docs/integrators.md#xpbd), with its
// dashpot c as XPBD constraint damping (Macklin et al. 2016, eq. 26): gamma = alpha~ beta~ / h_s =
// c / (k h_s), which makes the dashpot implicit and so stable at any c. On the first sweep of a
// substep lambda starts at 0 (it is not read, so it need not be cleared). A zero-length spring
// (direction undefined, the contract's force zero) gets dlambda = 0; a fixed end (w = 0) receives
// + 0, and fixed particles are put back after the sweeps in any case (finishSubstep). The
// colouring counts fixed ends too, so no two springs of a colour write the same particle.
template <bool kDamped>
inline void projectSpring(const SweepArrays& sw, int j, double inv_hs2, double inv_hs, double c,
                          bool first, const double* X, double* P, double* lambda) {
  const int ia = 3 * sw.a[j], ib = 3 * sw.b[j];
  const double wa = sw.wa[j], wb = sw.wb[j];
  const double dx = P[ib] - P[ia], dy = P[ib + 1] - P[ia + 1], dz = P[ib + 2] - P[ia + 2];
  const double l = std::sqrt(dx * dx + dy * dy + dz * dz);
  const bool stretched = l > 0.0;
  const double safe_l = stretched ? l : 1.0;
  const double lambda0 = first ? 0.0 : lambda[j];
  const double alpha = inv_hs2 * sw.inv_k[j];  // compliance 1/k over h_s^2
  double num = sw.rest[j] - l - alpha * lambda0, den = wa + wb + alpha;
  if constexpr (kDamped) {
    // grad C . (p - x): how fast the spring lengthens over this substep, times h_s
    const double rx = (P[ib] - X[ib]) - (P[ia] - X[ia]),
                 ry = (P[ib + 1] - X[ib + 1]) - (P[ia + 1] - X[ia + 1]),
                 rz = (P[ib + 2] - X[ib + 2]) - (P[ia + 2] - X[ia + 2]);
    const double gamma = c * inv_hs * sw.inv_k[j];
    num -= gamma * (rx * dx + ry * dy + rz * dz) / safe_l;
    den += gamma * (wa + wb);
  }
  const double dl = stretched ? num / den : 0.0;
  lambda[j] = lambda0 + dl;
  const double sc = dl / safe_l;  // dlambda times the unit vector, folded into one scale of d
  P[ib] += wb * sc * dx, P[ib + 1] += wb * sc * dy, P[ib + 2] += wb * sc * dz;
  P[ia] -= wa * sc * dx, P[ia + 1] -= wa * sc * dy, P[ia + 2] -= wa * sc * dz;
}

// Tether t (docs/integrators.md#tethers): a unilateral, rigid constraint |p_i - p_anchor| <=
// length; the anchor is fixed, so the whole correction moves particle i onto the sphere. Returns
// whether it moved the particle.
inline bool projectTether(const MassSpringModel& m, int t, double* P) {
  double* pi = P + 3 * m.tether_particle[t];
  const double* pa = P + 3 * m.tether_anchor[t];
  const double dx = pi[0] - pa[0], dy = pi[1] - pa[1], dz = pi[2] - pa[2];
  const double l2 = dx * dx + dy * dy + dz * dz, L = m.tether_length[t];
  if (l2 <= L * L) return false;
  const double sc = L / std::sqrt(l2);
  pi[0] = pa[0] + sc * dx, pi[1] = pa[1] + sc * dy, pi[2] = pa[2] + sc * dz;
  return true;
}

// Moves p to the nearest point of the circle where the spheres of tethers s and t meet (they do:
// the particle started inside both). Used when projecting onto one sphere left the other violated.
inline void projectOnTetherCircle(const MassSpringModel& m, int s, int t, double* P) {
  Eigen::Map<Vec3> p(P + 3 * m.tether_particle[s]);
  const Eigen::Map<const Vec3> a(P + 3 * m.tether_anchor[s]), b(P + 3 * m.tether_anchor[t]);
  const double la = m.tether_length[s], lb = m.tether_length[t];
  const Vec3 axis = b - a;
  const double d = axis.norm();
  if (d == 0.0) return;
  const Vec3 u = axis / d;
  const double along = (d * d + la * la - lb * lb) / (2.0 * d);  // the circle's centre on the axis
  const double radius = std::sqrt(std::max(0.0, la * la - along * along));
  const Vec3 centre = a + along * u;
  Vec3 off = (p - centre) - (p - centre).dot(u) * u;  // p's offset in the circle's plane
  const double n = off.norm();
  if (n == 0.0) return;  // on the axis: every point of the circle is as near
  p = centre + (radius / n) * off;
}

// A particle's tethers in order; with two, a second projection that breaks the first ends on the
// circle both allow, so the particle always leaves inside every one of its spheres.
inline void projectTethers(const MassSpringModel& m, int first, int end, double* P) {
  for (int t = first; t < end; ++t) {
    if (!projectTether(m, t, P) || t == first) continue;
    for (int s = first; s < t; ++s) {
      const Eigen::Map<const Vec3> p(P + 3 * m.tether_particle[s]), a(P + 3 * m.tether_anchor[s]);
      if ((p - a).squaredNorm() > m.tether_length[s] * m.tether_length[s])
        projectOnTetherCircle(m, s, t, P);
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

}  // namespace

void XpbdSolver::colour(const MassSpringModel& m) {
  const int ns = m.springs(), n = m.particles();
  // greedy edge colouring, fixed ends included (a sweep writes + 0 to them): at most
  // 2 (degree) - 1 colours
  std::vector<std::vector<int>> used(n);
  std::vector<int> colour_of(ns);
  int colours = 0;
  for (int s = 0; s < ns; ++s) {
    const int a = m.spring_a[s], b = m.spring_b[s];
    int c = 0;
    auto taken = [&](int i) {
      return std::find(used[i].begin(), used[i].end(), c) != used[i].end();
    };
    while (taken(a) || taken(b)) ++c;
    colour_of[s] = c;
    used[a].push_back(c);
    used[b].push_back(c);
    colours = std::max(colours, c + 1);
  }
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
  revision_ = m.revision, springs_ = ns, particles_ = n;
}

// The constant per-spring data in sweep order, so that a sweep streams through it.
void XpbdSolver::fillSweepArrays(const MassSpringModel& m) {
  const int ns = m.springs();
  sweep_.a.resize(ns), sweep_.b.resize(ns);
  sweep_.rest.resize(ns), sweep_.inv_k.resize(ns), sweep_.wa.resize(ns), sweep_.wb.resize(ns);
  for (int j = 0; j < ns; ++j) {
    const int s = order_[j];
    sweep_.a[j] = m.spring_a[s], sweep_.b[j] = m.spring_b[s];
    sweep_.rest[j] = m.rest_length[s];
    sweep_.inv_k[j] = 1.0 / m.stiffness[s];
    sweep_.wa[j] = m.inv_mass[m.spring_a[s]], sweep_.wb[j] = m.inv_mass[m.spring_b[s]];
  }
  lambda_.resize(ns);
  dash_work_.resize(ns);
}

// v^ = (v + h_s (g + (F_grab + c_drag wind) / m)) / (1 + h_s c_drag / m): the drag
// -c_drag (v - wind) taken implicitly, so it is stable at any c_drag; p = x + h_s v^. f_ keeps the
// drag force -c_drag (v^ - wind) for the substep's work. Called by every thread of the step's team:
// the particles are shared out.
void XpbdSolver::predict(util::TeamMember& team, const MassSpringModel& m, double hs) {
  const int n = m.particles();
  const bool grab = m.grab >= 0 && !m.fixed(m.grab);
  const double* X = x_.data();
  double *V = v_.data(), *P = p_.data(), *F = f_.data();
  team.forEach(0, n, [&](int i) {
    const Eigen::Map<const Vec3> x(X + 3 * i);
    Eigen::Map<Vec3> v(V + 3 * i), p(P + 3 * i), f(F + 3 * i);
    if (m.fixed(i)) {
      p = x, f.setZero();
      return;
    }
    const double w = m.inv_mass[i];
    Vec3 u = v + hs * m.gravity;
    if (grab && i == m.grab) u += hs * w * (m.grab_stiffness * (m.grab_target - x));
    u += (hs * w * m.drag) * m.wind;  // the drag's push by the air, c wind
    u /= 1.0 + hs * m.drag * w;
    v = u;
    f = -m.drag * (u - m.wind);
    p = x + hs * u;
  });
  if (m.colliders.empty()) return;
  team.forEach(0, n, [&](int i) {
    contact_friction_[i] = -1.0;
    contact_shift_.segment<3>(3 * i).setZero();
  });
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
  const int iterations = std::max(1, m.iterations);
  const bool dashpots = m.anyDashpot();
  const double* X = x_.data();
  double* P = p_.data();
  double* lambda = lambda_.data();
  const int* start = colour_start_.data();
  const int* tether_start = tether_start_.data();
  const int tethered = static_cast<int>(tether_start_.size()) - 1;
  for (int it = 0; it < iterations; ++it) {
    const bool first = it == 0;
    for (int c = 0; c < colours; ++c) {
      if (dashpots) {
        team.forEach(start[c], start[c + 1], [&](int j) {
          projectSpring<true>(sweep_, j, inv_hs2, inv_hs, m.damping[order_[j]], first, X, P,
                              lambda);
        });
      } else {
        team.forEach(start[c], start[c + 1], [&](int j) {
          projectSpring<false>(sweep_, j, inv_hs2, inv_hs, 0.0, first, X, P, lambda);
        });
      }
    }
    // one particle's tethers on one thread, in order: the same bits for any thread count
    team.forEach(0, tethered,
                 [&](int i) { projectTethers(m, tether_start[i], tether_start[i + 1], P); });
    if (!m.colliders.empty()) collide(team, m);
  }
  if (m.colliders.empty()) return;
  rub(team, m);
  // friction slides along the normal of the particle's last push, which a later sweep may have
  // moved it from: one more push-out, so that every substep ends outside every collider
  collide(team, m);
}

// v' = (p - x) / h_s and the substep's work, then x = p. The work is summed by one thread in a
// fixed order (per particle, per spring), so that it too is the same whatever the thread count.
void XpbdSolver::finishSubstep(util::TeamMember& team, const MassSpringModel& m, double hs,
                               double& dissipated, double& external) {
  const int n = m.particles(), ns = m.springs();
  const bool dashpots = m.anyDashpot();
  const double *X = x_.data(), *F = f_.data();
  double *P = p_.data(), *V = v_.data(), *W = particle_work_.data(), *D = dash_work_.data();
  team.forEach(0, n, [&](int i) {
    const Eigen::Map<const Vec3> x(X + 3 * i), f(F + 3 * i);
    Eigen::Map<Vec3> p(P + 3 * i);
    if (m.fixed(i)) {
      p = x;  // exactly where it was, whatever the sweeps added
      W[i] = 0.0;
      return;
    }
    const Vec3 dx = p - x;
    W[i] = -f.dot(dx);  // the drag's work
    Eigen::Map<Vec3> v(V + 3 * i);
    v = dx / hs;
    if (contact_friction_.size() == n && contact_friction_[i] >= 0.0) {
      // the kinetic energy the contacts' shift s removed: (m / h_s^2)(|dx - s|^2 - |dx|^2) / 2
      const Vec3 shift = contact_shift_.segment<3>(3 * i);
      W[i] -= m.mass[i] / (hs * hs) * shift.dot(dx - 0.5 * shift);
      // dx / h_s still holds the approach before the contact: its part into the surface goes
      // (no bounce), as in the step's contacts (sim/contacts.hpp)
      const Eigen::Map<const Vec3> nrm(contact_normal_.data() + 3 * i);
      const double vn = v.dot(nrm);
      if (vn < 0.0) v -= vn * nrm, W[i] += 0.5 * m.mass[i] * vn * vn;
    }
  });
  if (dashpots) {
    team.forEach(
        0, ns, [&](int j) { D[j] = dashpotWork(sweep_, j, m.damping[order_[j]], X, P, 1.0 / hs); });
  }
  team.single([&] {
    for (int i = 0; i < n; ++i) dissipated += W[i];
    if (dashpots)
      for (int j = 0; j < ns; ++j) dissipated += D[j];
    if (m.grab >= 0 && !m.fixed(m.grab)) {
      const Vec3 xg = x_.segment<3>(3 * m.grab);
      external += m.grab_stiffness * (m.grab_target - xg).dot(p_.segment<3>(3 * m.grab) - xg);
    }
    std::swap(x_, p_);
  });  // the single's barrier: every thread sees the new x_ before the next substep
}

bool XpbdSolver::step(const MassSpringModel& m, const State& in, double h, State& out,
                      double& dissipated, double& external) {
  if (revision_ != m.revision || springs_ != m.springs() || particles_ != m.particles()) colour(m);
  const int substeps = std::max(1, m.substeps);
  const double hs = h / substeps;
  const int n = m.particles();
  x_ = in.x;
  v_ = in.v;
  p_.resize(3 * n), f_.resize(3 * n), particle_work_.resize(n);
  if (!m.colliders.empty()) {
    contact_shift_.resize(3 * n), contact_normal_.resize(3 * n), contact_friction_.resize(n);
  } else {
    contact_friction_.resize(0);
  }
  double removed = 0.0, added = 0.0;
  // a small system runs on one thread: a barrier per colour would cost more than its springs
  const int threads = m.springs() >= kMinSpringsPerThread ? kernelThreads() : 1;
  util::runTeam(threads, [&](util::TeamMember& team) {
    for (int k = 0; k < substeps; ++k) {
      predict(team, m, hs);
      project(team, m, hs);
      finishSubstep(team, m, hs, removed, added);
    }
  });
  dissipated = removed, external = added;
  out.x = x_;
  out.v = v_;
  return true;
}

}  // namespace sim
