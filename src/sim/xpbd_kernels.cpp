#include "sim/xpbd_kernels.hpp"

#include <algorithm>
#include <cmath>

#include "sim/simd_lanes.hpp"

namespace sim {

// Into the sphere of radius `length` about a (docs/integrators.md#tethers): a unilateral, rigid
// constraint |p - a| <= length whose anchor is fixed, so the whole correction moves p. Returns
// whether p was outside.
bool intoSphere(const double* a, double length, double* p) {
  const double dx = p[0] - a[0], dy = p[1] - a[1], dz = p[2] - a[2];
  const double l2 = dx * dx + dy * dy + dz * dz;
  if (l2 <= length * length) return false;
  const double sc = length / std::sqrt(l2);
  p[0] = a[0] + sc * dx, p[1] = a[1] + sc * dy, p[2] = a[2] + sc * dz;
  return true;
}

namespace {

// The Gauss-Seidel update of the spring at sweep position j (docs/integrators.md#xpbd), with its
// dashpot c as XPBD constraint damping (Macklin et al. 2016, eq. 26): gamma = alpha~ beta~ / h_s =
// c / (k h_s), which makes the dashpot implicit and so stable at any c. On the first sweep of a
// substep lambda starts at 0 (it is not read, so it need not be cleared). A zero-length spring
// (direction undefined, the contract's force zero) gets dlambda = 0; a fixed end (w = 0) receives
// + 0, and fixed particles are put back after the sweeps in any case (XpbdSolver::finishSubstep).
template <bool kDamped>
inline void projectSpring(const SweepArrays& sw, int j, const SweepStep& st, const double* X,
                          double* P, double* lambda) {
  const int ia = 3 * sw.a[j], ib = 3 * sw.b[j];
  const double wa = sw.wa[j], wb = sw.wb[j];
  const double dx = P[ib] - P[ia], dy = P[ib + 1] - P[ia + 1], dz = P[ib + 2] - P[ia + 2];
  const double l = std::sqrt(dx * dx + dy * dy + dz * dz);
  const bool stretched = l > 0.0;
  const double safe_l = stretched ? l : 1.0;
  const double lambda0 = st.first ? 0.0 : lambda[j];
  const double alpha = st.inv_hs2 * sw.inv_k[j];  // compliance 1/k over h_s^2
  double num = sw.rest[j] - l - alpha * lambda0, den = wa + wb + alpha;
  if constexpr (kDamped) {
    // grad C . (p - x): how fast the spring lengthens over this substep, times h_s
    const double rx = (P[ib] - X[ib]) - (P[ia] - X[ia]),
                 ry = (P[ib + 1] - X[ib + 1]) - (P[ia + 1] - X[ia + 1]),
                 rz = (P[ib + 2] - X[ib + 2]) - (P[ia + 2] - X[ia + 2]);
    const double gamma = sw.damping[j] * st.inv_hs * sw.inv_k[j];
    num -= gamma * (rx * dx + ry * dy + rz * dz) / safe_l;
    den += gamma * (wa + wb);
  }
  const double dl = stretched ? num / den : 0.0;
  lambda[j] = lambda0 + dl;
  const double sc = dl / safe_l;  // dlambda times the unit vector, folded into one scale of d
  P[ib] += wb * sc * dx, P[ib + 1] += wb * sc * dy, P[ib + 2] += wb * sc * dz;
  P[ia] -= wa * sc * dx, P[ia + 1] -= wa * sc * dy, P[ia + 2] -= wa * sc * dz;
}

void projectScalar(const SweepArrays& sw, int from, int to, const SweepStep& st, const double* X,
                   double* P, double* lambda) {
  if (st.damped) {
    for (int j = from; j < to; ++j) projectSpring<true>(sw, j, st, X, P, lambda);
  } else {
    for (int j = from; j < to; ++j) projectSpring<false>(sw, j, st, X, P, lambda);
  }
}

inline void projectTetherPair(const TetherPairs& tp, int i, double* P) {
  double* p = P + 3 * tp.particle[i];
  const double* as = P + 3 * tp.anchor_s[i];
  const double ls = tp.length_s[i];
  intoSphere(as, ls, p);
  if (!intoSphere(P + 3 * tp.anchor_t[i], tp.length_t[i], p)) return;
  const double dx = p[0] - as[0], dy = p[1] - as[1], dz = p[2] - as[2];
  if (dx * dx + dy * dy + dz * dz <= ls * ls) return;
  TetherCircle c;
  c.centre[0] = tp.cx[i], c.centre[1] = tp.cy[i], c.centre[2] = tp.cz[i];
  c.u[0] = tp.ux[i], c.u[1] = tp.uy[i], c.u[2] = tp.uz[i];
  c.radius = tp.radius[i];
  projectOnCircle(c, p);
}

#ifdef SPRINGLAB_X86_SIMD

// The vector paths: one kernel template over the widths' operations (sim/simd_lanes.hpp: Avx2, four
// lanes; Avx512, eight), instantiated in a function of each width's target. Both widths do the
// scalar path's operations lane by lane in its order.
using simd::Avx2;
using simd::Avx512;
using simd::dot;
using simd::gather;
using simd::minus;
using simd::Xyz;

// A block's new end positions, written to P only after the whole block is computed: a gather
// cannot overtake an earlier store that might alias it, so gathering from P between the stores
// of the previous springs would chain every group's square root and divisions behind the last
// one's (measured: the AVX2 loop was no faster than the scalar one until the stores moved out of
// it; AVX-512 groups stored at once took 1.11 times the AVX2 path's time). No two springs of a
// colour share a particle, so the order of the stores is free.
constexpr int kBlock = 64;  // springs per block: its positions fit in L1 with room to spare
struct PendingStores {
  alignas(64) int at[2][kBlock];  // coordinate offsets 3 i of the ends a (0) and b (1)
  alignas(64) double x[2][kBlock], y[2][kBlock], z[2][kBlock];
};

template <class W>
inline void keep(PendingStores& out, int end, int k, const int* at, const Xyz<W>& g) {
  std::copy(at, at + W::kLanes, out.at[end] + k);
  W::store(out.x[end] + k, g.x), W::store(out.y[end] + k, g.y), W::store(out.z[end] + k, g.z);
}

inline void storeEnd(const PendingStores& in, int end, int count, double* P) {
  for (int k = 0; k < count; ++k) {
    double* p = P + in.at[end][k];
    p[0] = in.x[end][k], p[1] = in.y[end][k], p[2] = in.z[end][k];
  }
}

// projectSpring on W::kLanes springs at once: the same operations, lane by lane, in the same
// order.
template <class W, bool kDamped>
inline void projectGroup(const SweepArrays& sw, int j, const SweepStep& st, const double* X,
                         const double* P, double* lambda, PendingStores& out, int k) {
  using V = typename W::V;
  alignas(64) int ia[W::kLanes], ib[W::kLanes];
  W::offsets(sw.a.data() + j, ia), W::offsets(sw.b.data() + j, ib);
  Xyz<W> pa = gather(W{}, P, ia), pb = gather(W{}, P, ib);
  const V wa = W::load(sw.wa.data() + j), wb = W::load(sw.wb.data() + j);
  const Xyz<W> d = minus(pb, pa);
  const V l = W::sqrt(dot(d, d));
  const V zero = W::set1(0.0), one = W::set1(1.0);
  const auto stretched = W::template compare<_CMP_GT_OQ>(l, zero);
  const V safe_l = W::select(stretched, one, l);
  const V lambda0 = st.first ? zero : W::load(lambda + j);
  const V inv_k = W::load(sw.inv_k.data() + j);
  const V alpha = W::mul(W::set1(st.inv_hs2), inv_k);
  V num = W::sub(W::sub(W::load(sw.rest.data() + j), l), W::mul(alpha, lambda0));
  const V w = W::add(wa, wb);
  V den = W::add(w, alpha);
  if constexpr (kDamped) {
    const Xyz<W> r = minus(minus(pb, gather(W{}, X, ib)), minus(pa, gather(W{}, X, ia)));
    const V gamma = W::mul(W::mul(W::load(sw.damping.data() + j), W::set1(st.inv_hs)), inv_k);
    num = W::sub(num, W::div(W::mul(gamma, dot(r, d)), safe_l));
    den = W::add(den, W::mul(gamma, w));
  }
  // the lanes of zero length divide too (their result is dropped): no trap, den > 0
  const V dl = W::select(stretched, zero, W::div(num, den));
  W::store(lambda + j, W::add(lambda0, dl));
  const V sc = W::div(dl, safe_l);
  const V sb = W::mul(wb, sc), sa = W::mul(wa, sc);
  pb = {W::add(pb.x, W::mul(sb, d.x)), W::add(pb.y, W::mul(sb, d.y)),
        W::add(pb.z, W::mul(sb, d.z))};
  pa = {W::sub(pa.x, W::mul(sa, d.x)), W::sub(pa.y, W::mul(sa, d.y)),
        W::sub(pa.z, W::mul(sa, d.z))};
  keep(out, 1, k, ib, pb);
  keep(out, 0, k, ia, pa);
}

// Springs [from, to) in blocks of groups of W::kLanes (their stores after the block); returns
// where the whole groups end.
template <class W, bool kDamped>
inline int projectGroups(const SweepArrays& sw, int from, int to, const SweepStep& st,
                         const double* X, double* P, double* lambda) {
  PendingStores pending;
  int j = from;
  while (j + W::kLanes <= to) {
    const int count = std::min(kBlock, (to - j) / W::kLanes * W::kLanes);
    for (int k = 0; k < count; k += W::kLanes)
      projectGroup<W, kDamped>(sw, j + k, st, X, P, lambda, pending, k);
    storeEnd(pending, 0, count, P), storeEnd(pending, 1, count, P);
    j += count;
  }
  return j;
}

template <bool kDamped>
SPRINGLAB_AVX2 __attribute__((flatten)) void projectAvx2(const SweepArrays& sw, int from, int to,
                                                         const SweepStep& st, const double* X,
                                                         double* P, double* lambda) {
  const int j = projectGroups<Avx2, kDamped>(sw, from, to, st, X, P, lambda);
  projectScalar(sw, j, to, st, X, P, lambda);  // the last few
}

template <bool kDamped>
SPRINGLAB_AVX512VL __attribute__((flatten)) void projectAvx512(const SweepArrays& sw, int from,
                                                               int to, const SweepStep& st,
                                                               const double* X, double* P,
                                                               double* lambda) {
  const int j = projectGroups<Avx512, kDamped>(sw, from, to, st, X, P, lambda);
  projectAvx2<kDamped>(sw, j, to, st, X, P, lambda);  // the last few
}

// intoSphere on W::kLanes particles; `outside` receives which were. The comparison is
// intoSphere's "not l2 <= length^2", unordered included.
template <class W>
inline Xyz<W> intoSphereLanes(const Xyz<W>& a, const typename W::V& length, const Xyz<W>& p,
                              typename W::Mask& outside) {
  const Xyz<W> d = minus(p, a);
  const typename W::V l2 = dot(d, d);
  outside = W::template compare<_CMP_NLE_UQ>(l2, W::mul(length, length));
  // the lanes inside keep p: their division is by 1, so that it raises nothing (the tests trap
  // division by zero; a particle on its anchor would be one)
  const typename W::V sc = W::div(length, W::select(outside, W::set1(1.0), W::sqrt(l2)));
  return {W::select(outside, p.x, W::add(a.x, W::mul(sc, d.x))),
          W::select(outside, p.y, W::add(a.y, W::mul(sc, d.y))),
          W::select(outside, p.z, W::add(a.z, W::mul(sc, d.z)))};
}

// projectTetherPair on pairs i .. i + W::kLanes - 1, every branch taken in every lane and the
// lane's own result kept: the same operations as the scalar path, without its mispredicted
// branches.
template <class W>
inline void projectPairGroup(const TetherPairs& tp, int i, double* P) {
  using V = typename W::V;
  alignas(64) int at_p[W::kLanes], at_s[W::kLanes], at_t[W::kLanes];
  W::offsets(tp.particle.data() + i, at_p);
  W::offsets(tp.anchor_s.data() + i, at_s), W::offsets(tp.anchor_t.data() + i, at_t);
  const Xyz<W> as = gather(W{}, P, at_s), at = gather(W{}, P, at_t);
  const V ls = W::load(tp.length_s.data() + i);
  typename W::Mask out_s, out_t;
  const Xyz<W> q = intoSphereLanes(as, ls, gather(W{}, P, at_p), out_s);
  const Xyz<W> r = intoSphereLanes(at, W::load(tp.length_t.data() + i), q, out_t);
  const Xyz<W> from_s = minus(r, as);
  const auto still = W::template compare<_CMP_NLE_UQ>(dot(from_s, from_s), W::mul(ls, ls));
  const V radius = W::load(tp.radius.data() + i), zero = W::set1(0.0);
  const auto has_circle = W::template compare<_CMP_GE_OQ>(radius, zero);
  // projectOnCircle
  const Xyz<W> c = {W::load(tp.cx.data() + i), W::load(tp.cy.data() + i),
                    W::load(tp.cz.data() + i)};
  const Xyz<W> u = {W::load(tp.ux.data() + i), W::load(tp.uy.data() + i),
                    W::load(tp.uz.data() + i)};
  const Xyz<W> w = minus(r, c);
  const V along = dot(w, u);
  const Xyz<W> o = {W::sub(w.x, W::mul(along, u.x)), W::sub(w.y, W::mul(along, u.y)),
                    W::sub(w.z, W::mul(along, u.z))};
  const V n = W::sqrt(dot(o, o));
  const auto off_axis = W::template compare<_CMP_NEQ_UQ>(n, zero);
  const auto onto = W::both(W::both(out_t, still), W::both(has_circle, off_axis));
  const V f = W::div(radius, W::select(onto, W::set1(1.0), n));
  const Xyz<W> result = {W::select(onto, r.x, W::add(c.x, W::mul(f, o.x))),
                         W::select(onto, r.y, W::add(c.y, W::mul(f, o.y))),
                         W::select(onto, r.z, W::add(c.z, W::mul(f, o.z)))};
  PendingStores one;
  keep(one, 0, 0, at_p, result);
  storeEnd(one, 0, W::kLanes, P);
}

// Pairs [from, to) in groups of four; returns where the whole groups end.
SPRINGLAB_AVX2 __attribute__((flatten)) int projectPairsAvx2(const TetherPairs& tp, int from,
                                                             int to, double* P) {
  int i = from;
  for (; i + Avx2::kLanes <= to; i += Avx2::kLanes) projectPairGroup<Avx2>(tp, i, P);
  return i;
}

// The same in groups of eight, then of four.
SPRINGLAB_AVX512VL __attribute__((flatten)) int projectPairsAvx512(const TetherPairs& tp, int from,
                                                                   int to, double* P) {
  int i = from;
  for (; i + Avx512::kLanes <= to; i += Avx512::kLanes) projectPairGroup<Avx512>(tp, i, P);
  return projectPairsAvx2(tp, i, to, P);
}

#endif

}  // namespace

TetherCircle tetherCircle(const double* a, const double* b, double la, double lb) {
  TetherCircle c;
  const double ax = b[0] - a[0], ay = b[1] - a[1], az = b[2] - a[2];
  const double d = std::sqrt(ax * ax + ay * ay + az * az);
  if (d == 0.0) return c;
  const double along = (d * d + la * la - lb * lb) / (2.0 * d);  // the centre's place on the axis
  c.radius = std::sqrt(std::max(0.0, la * la - along * along));
  c.u[0] = ax / d, c.u[1] = ay / d, c.u[2] = az / d;
  for (int k = 0; k < 3; ++k) c.centre[k] = a[k] + along * c.u[k];
  return c;
}

void projectOnCircle(const TetherCircle& c, double* p) {
  if (c.radius < 0.0) return;
  const double wx = p[0] - c.centre[0], wy = p[1] - c.centre[1], wz = p[2] - c.centre[2];
  const double along = wx * c.u[0] + wy * c.u[1] + wz * c.u[2];
  const double ox = wx - along * c.u[0], oy = wy - along * c.u[1], oz = wz - along * c.u[2];
  const double n = std::sqrt(ox * ox + oy * oy + oz * oz);
  if (n == 0.0) return;
  const double f = c.radius / n;
  p[0] = c.centre[0] + f * ox, p[1] = c.centre[1] + f * oy, p[2] = c.centre[2] + f * oz;
}

void TetherPairs::clear() {
  *this = TetherPairs{};
}

void TetherPairs::add(int p, int s, int t, double ls, double lt) {
  particle.push_back(p), anchor_s.push_back(s), anchor_t.push_back(t);
  length_s.push_back(ls), length_t.push_back(lt);
  for (auto* v : {&cx, &cy, &cz, &ux, &uy, &uz}) v->push_back(0.0);
  radius.push_back(-1.0);
}

void TetherPairs::setCircle(int i, const TetherCircle& c) {
  cx[i] = c.centre[0], cy[i] = c.centre[1], cz[i] = c.centre[2];
  ux[i] = c.u[0], uy[i] = c.u[1], uz[i] = c.u[2];
  radius[i] = c.radius;
}

void projectTetherPairs(const TetherPairs& tp, int from, int to, double* P) {
  int i = from;
#ifdef SPRINGLAB_X86_SIMD
  if (simdEnabled())
    i = wideSimdEnabled() ? projectPairsAvx512(tp, from, to, P) : projectPairsAvx2(tp, from, to, P);
#endif
  for (; i < to; ++i) projectTetherPair(tp, i, P);
}

void projectSpringBlock(const SweepArrays& sw, int from, int to, const SweepStep& step,
                        const double* X, double* P, double* lambda) {
#ifdef SPRINGLAB_X86_SIMD
  if (simdEnabled() && wideSimdEnabled()) {
    if (step.damped)
      projectAvx512<true>(sw, from, to, step, X, P, lambda);
    else
      projectAvx512<false>(sw, from, to, step, X, P, lambda);
    return;
  }
  if (simdEnabled()) {
    if (step.damped)
      projectAvx2<true>(sw, from, to, step, X, P, lambda);
    else
      projectAvx2<false>(sw, from, to, step, X, P, lambda);
    return;
  }
#endif
  projectScalar(sw, from, to, step, X, P, lambda);
}

}  // namespace sim
