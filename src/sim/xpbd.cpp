#include "sim/xpbd.hpp"

#include <algorithm>
#include <cmath>

#include "sim/parallel.hpp"

namespace sim {

namespace {

// The Gauss-Seidel update of spring s (docs/integrators.md#xpbd), with the spring's dashpot c as
// XPBD constraint damping (Macklin et al. 2016, eq. 26): gamma = alpha~ beta~ / h_s = c / (k h_s),
// which makes the dashpot implicit and so stable at any c. A fixed end (w = 0) is read but never
// written, so springs sharing only a fixed particle may be projected at the same time.
inline void projectSpring(const MassSpringModel& m, int s, double inv_hs2, double inv_hs,
                          const double* X, double* P, double* lambda) {
  const int ia = m.spring_a[s], ib = m.spring_b[s];
  const double wa = m.inv_mass[ia], wb = m.inv_mass[ib];
  const double w = wa + wb;
  if (w == 0.0) return;
  double* pa = P + 3 * ia;
  double* pb = P + 3 * ib;
  const double dx = pb[0] - pa[0], dy = pb[1] - pa[1], dz = pb[2] - pa[2];
  const double l = std::sqrt(dx * dx + dy * dy + dz * dz);
  if (l == 0.0) return;  // the direction is undefined: the contract's force is zero there
  const double k = m.stiffness[s];
  const double alpha = inv_hs2 / k;  // compliance 1/k over h_s^2
  double num = m.rest_length[s] - l - alpha * lambda[s], den = w + alpha;
  if (const double c = m.damping[s]; c != 0.0) {
    // grad C . (p - x): how fast the spring lengthens over this substep, times h_s
    const double* xa = X + 3 * ia;
    const double* xb = X + 3 * ib;
    const double rx = (pb[0] - xb[0]) - (pa[0] - xa[0]), ry = (pb[1] - xb[1]) - (pa[1] - xa[1]),
                 rz = (pb[2] - xb[2]) - (pa[2] - xa[2]);
    const double gamma = c * inv_hs / k;
    num -= gamma * (rx * dx + ry * dy + rz * dz) / l;
    den += gamma * w;
  }
  const double dl = num / den;
  lambda[s] += dl;
  const double sc = dl / l;  // dlambda times the unit vector, folded into one scale of d
  if (wb != 0.0) pb[0] += wb * sc * dx, pb[1] += wb * sc * dy, pb[2] += wb * sc * dz;
  if (wa != 0.0) pa[0] -= wa * sc * dx, pa[1] -= wa * sc * dy, pa[2] -= wa * sc * dz;
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

// The energy a spring's dashpot removed over a substep, at the substep's end (as implicit Euler
// evaluates it): c (u . (dx_b - dx_a))^2 / h_s with dx = p - x.
double dashpotWork(const MassSpringModel& m, const double* X, const double* P, double inv_hs) {
  double work = 0.0;
  for (int s = 0; s < m.springs(); ++s) {
    const double c = m.damping[s];
    if (c == 0.0) continue;
    const int a = 3 * m.spring_a[s], b = 3 * m.spring_b[s];
    const Vec3 d(P[b] - P[a], P[b + 1] - P[a + 1], P[b + 2] - P[a + 2]);
    const double l = d.norm();
    if (l == 0.0) continue;
    const Vec3 rel(P[b] - X[b] - P[a] + X[a], P[b + 1] - X[b + 1] - P[a + 1] + X[a + 1],
                   P[b + 2] - X[b + 2] - P[a + 2] + X[a + 2]);
    const double along = rel.dot(d) / l;
    work += c * along * along * inv_hs;
  }
  return work;
}

}  // namespace

void XpbdSolver::colour(const MassSpringModel& m) {
  const int ns = m.springs(), n = m.particles();
  // greedy edge colouring over the moving ends: at most 2 (degree) - 1 colours
  std::vector<std::vector<int>> used(n);
  std::vector<int> colour_of(ns);
  int colours = 0;
  for (int s = 0; s < ns; ++s) {
    const int a = m.spring_a[s], b = m.spring_b[s];
    int c = 0;
    auto taken = [&](int i) {
      return !m.fixed(i) && std::find(used[i].begin(), used[i].end(), c) != used[i].end();
    };
    while (taken(a) || taken(b)) ++c;
    colour_of[s] = c;
    if (!m.fixed(a)) used[a].push_back(c);
    if (!m.fixed(b)) used[b].push_back(c);
    colours = std::max(colours, c + 1);
  }
  colour_start_.assign(colours + 1, 0);
  for (int s = 0; s < ns; ++s) ++colour_start_[colour_of[s] + 1];
  for (int c = 0; c < colours; ++c) colour_start_[c + 1] += colour_start_[c];
  order_.resize(ns);
  std::vector<int> next(colour_start_.begin(), colour_start_.end() - 1);
  for (int s = 0; s < ns; ++s) order_[next[colour_of[s]]++] = s;
  // the tethers are sorted by particle: tether_start_ marks where each particle's run begins
  tether_start_.clear();
  const int nt = static_cast<int>(m.tether_particle.size());
  for (int t = 0; t < nt; ++t)
    if (t == 0 || m.tether_particle[t] != m.tether_particle[t - 1]) tether_start_.push_back(t);
  tether_start_.push_back(nt);
  revision_ = m.revision, springs_ = ns, particles_ = n;
}

// v^ = (v + h_s (g + F_grab / m)) / (1 + h_s c_drag / m): the drag -c_drag v taken implicitly,
// so it is stable at any c_drag; p = x + h_s v^. f_ keeps the drag force -c_drag v^ for the
// substep's work.
void XpbdSolver::predict(const MassSpringModel& m, double hs) {
  const int n = m.particles();
  const bool grab = m.grab >= 0 && !m.fixed(m.grab);
  Vec3 fg = Vec3::Zero();
  if (grab) fg = m.grab_stiffness * (m.grab_target - x_.segment<3>(3 * m.grab));
  f_.setZero(3 * n);
  p_ = x_;
  for (int i = 0; i < n; ++i) {
    if (m.fixed(i)) continue;
    const double w = m.inv_mass[i];
    Vec3 v = v_.segment<3>(3 * i) + hs * m.gravity;
    if (grab && i == m.grab) v += hs * w * fg;
    v /= 1.0 + hs * m.drag * w;
    v_.segment<3>(3 * i) = v;
    f_.segment<3>(3 * i) = -m.drag * v;
    p_.segment<3>(3 * i) += hs * v;
  }
}

void XpbdSolver::project(const MassSpringModel& m, double hs) {
  const double inv_hs = 1.0 / hs, inv_hs2 = inv_hs * inv_hs;
  const int colours = static_cast<int>(colour_start_.size()) - 1;
  // a small system is swept on one thread: a barrier per colour would cost more than its springs
  const int threads = m.springs() >= kMinSpringsPerThread ? kernelThreads() : 1;
  const int iterations = std::max(1, m.iterations);
  const double* X = x_.data();
  double* P = p_.data();
  double* lambda = lambda_.data();
  const int* order = order_.data();
  const int* start = colour_start_.data();
  const int* tether_start = tether_start_.data();
  const int tethered = static_cast<int>(tether_start_.size()) - 1;
#pragma omp parallel num_threads(threads) if (threads > 1)
  for (int it = 0; it < iterations; ++it) {
    for (int c = 0; c < colours; ++c) {
#pragma omp for schedule(static)
      for (int j = start[c]; j < start[c + 1]; ++j)
        projectSpring(m, order[j], inv_hs2, inv_hs, X, P, lambda);
    }
    // one particle's tethers on one thread, in order: the same bits for any thread count
#pragma omp for schedule(static)
    for (int i = 0; i < tethered; ++i) projectTethers(m, tether_start[i], tether_start[i + 1], P);
  }
}

bool XpbdSolver::step(const MassSpringModel& m, const State& in, double h, State& out,
                      double& dissipated, double& external) {
  if (revision_ != m.revision || springs_ != m.springs() || particles_ != m.particles()) colour(m);
  const int substeps = std::max(1, m.substeps);
  const double hs = h / substeps;
  const int n = m.particles();
  x_ = in.x;
  v_ = in.v;
  dissipated = external = 0.0;
  for (int k = 0; k < substeps; ++k) {
    predict(m, hs);
    lambda_.setZero(m.springs());
    project(m, hs);
    if (m.anyDashpot()) dissipated += dashpotWork(m, x_.data(), p_.data(), 1.0 / hs);
    // the work of this substep: the explicit forces over its displacement (docs/integrators.md)
    for (int i = 0; i < n; ++i) {
      if (m.fixed(i)) continue;
      const Vec3 dx = p_.segment<3>(3 * i) - x_.segment<3>(3 * i);
      dissipated -= f_.segment<3>(3 * i).dot(dx);
      v_.segment<3>(3 * i) = dx / hs;
    }
    if (m.grab >= 0 && !m.fixed(m.grab))
      external +=
          m.grab_stiffness * (m.grab_target - x_.segment<3>(3 * m.grab))
                                 .dot(p_.segment<3>(3 * m.grab) - x_.segment<3>(3 * m.grab));
    std::swap(x_, p_);
  }
  out.x = x_;
  out.v = v_;
  return true;
}

}  // namespace sim
