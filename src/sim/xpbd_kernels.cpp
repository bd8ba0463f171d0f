#include "sim/xpbd_kernels.hpp"

#include "sim/spring_runs.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SPRINGLAB_X86_SIMD 1
#endif

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

std::atomic<bool> simd_switch{true};

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

constexpr int kLanes = 4;  // doubles in an AVX2 register

// The three coordinates of the particles whose coordinate offsets (3 i) are in `at`.
struct Gathered {
  __m256d x, y, z;
};

// The coordinates of four particles, from the coordinate offsets (3 i) in `at`: one unaligned
// load of x, y, z and the next number per particle, then a 4 x 4 transpose. Eight gathers' worth
// of work for a quarter of their cost on the processors measured (docs/benchmarks.md); the caller
// guarantees one readable double past the last particle (XpbdSolver pads its arrays).
__attribute__((target("avx2"))) inline Gathered gather(const double* base, __m128i at) {
  alignas(16) int off[kLanes];
  _mm_store_si128(reinterpret_cast<__m128i*>(off), at);
  const __m256d r0 = _mm256_loadu_pd(base + off[0]), r1 = _mm256_loadu_pd(base + off[1]),
                r2 = _mm256_loadu_pd(base + off[2]), r3 = _mm256_loadu_pd(base + off[3]);
  const __m256d xz01 = _mm256_unpacklo_pd(r0, r1), y01 = _mm256_unpackhi_pd(r0, r1),
                xz23 = _mm256_unpacklo_pd(r2, r3), y23 = _mm256_unpackhi_pd(r2, r3);
  return {_mm256_permute2f128_pd(xz01, xz23, 0x20), _mm256_permute2f128_pd(y01, y23, 0x20),
          _mm256_permute2f128_pd(xz01, xz23, 0x31)};
}

// A block's new end positions, written to P only after the whole block is computed: a gather
// cannot overtake an earlier store that might alias it, so gathering from P between the stores
// of the previous springs would chain every four springs' square root and divisions behind the
// last four's (measured: the AVX2 loop was no faster than the scalar one until the stores moved
// out of it). No two springs of a colour share a particle, so the order of the stores is free.
constexpr int kBlock = 64;  // springs per block: its positions fit in L1 with room to spare
struct PendingStores {
  alignas(32) int at[2][kBlock];  // coordinate offsets 3 i of the ends a (0) and b (1)
  alignas(32) double x[2][kBlock], y[2][kBlock], z[2][kBlock];
};

__attribute__((target("avx2"))) inline void keep(PendingStores& out, int end, int k, __m128i at,
                                                 const Gathered& g) {
  _mm_store_si128(reinterpret_cast<__m128i*>(out.at[end] + k), at);
  _mm256_store_pd(out.x[end] + k, g.x), _mm256_store_pd(out.y[end] + k, g.y);
  _mm256_store_pd(out.z[end] + k, g.z);
}

inline void storeEnd(const PendingStores& in, int end, int count, double* P) {
  for (int k = 0; k < count; ++k) {
    double* p = P + in.at[end][k];
    p[0] = in.x[end][k], p[1] = in.y[end][k], p[2] = in.z[end][k];
  }
}

inline void store(const PendingStores& in, int count, double* P) {
  storeEnd(in, 0, count, P), storeEnd(in, 1, count, P);
}

// projectSpring on four springs at once: the same operations, lane by lane, in the same order.
template <bool kDamped>
__attribute__((target("avx2"))) void projectFour(const SweepArrays& sw, int j, const SweepStep& st,
                                                 const double* X, const double* P, double* lambda,
                                                 PendingStores& out, int k) {
  const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(sw.a.data() + j));
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(sw.b.data() + j));
  const __m128i ia = _mm_add_epi32(_mm_add_epi32(a, a), a),
                ib = _mm_add_epi32(_mm_add_epi32(b, b), b);
  Gathered pa = gather(P, ia), pb = gather(P, ib);
  const __m256d wa = _mm256_loadu_pd(sw.wa.data() + j), wb = _mm256_loadu_pd(sw.wb.data() + j);
  const __m256d dx = _mm256_sub_pd(pb.x, pa.x), dy = _mm256_sub_pd(pb.y, pa.y),
                dz = _mm256_sub_pd(pb.z, pa.z);
  const __m256d l2 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)),
                                   _mm256_mul_pd(dz, dz));
  const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
  const __m256d l = _mm256_sqrt_pd(l2);
  const __m256d stretched = _mm256_cmp_pd(l, zero, _CMP_GT_OQ);
  const __m256d safe_l = _mm256_blendv_pd(one, l, stretched);
  const __m256d lambda0 = st.first ? zero : _mm256_loadu_pd(lambda + j);
  const __m256d inv_k = _mm256_loadu_pd(sw.inv_k.data() + j);
  const __m256d alpha = _mm256_mul_pd(_mm256_set1_pd(st.inv_hs2), inv_k);
  __m256d num = _mm256_sub_pd(_mm256_sub_pd(_mm256_loadu_pd(sw.rest.data() + j), l),
                              _mm256_mul_pd(alpha, lambda0));
  const __m256d w = _mm256_add_pd(wa, wb);
  __m256d den = _mm256_add_pd(w, alpha);
  if constexpr (kDamped) {
    const Gathered xa = gather(X, ia), xb = gather(X, ib);
    const __m256d rx = _mm256_sub_pd(_mm256_sub_pd(pb.x, xb.x), _mm256_sub_pd(pa.x, xa.x)),
                  ry = _mm256_sub_pd(_mm256_sub_pd(pb.y, xb.y), _mm256_sub_pd(pa.y, xa.y)),
                  rz = _mm256_sub_pd(_mm256_sub_pd(pb.z, xb.z), _mm256_sub_pd(pa.z, xa.z));
    const __m256d gamma = _mm256_mul_pd(
        _mm256_mul_pd(_mm256_loadu_pd(sw.damping.data() + j), _mm256_set1_pd(st.inv_hs)), inv_k);
    const __m256d rate = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(rx, dx), _mm256_mul_pd(ry, dy)),
                                       _mm256_mul_pd(rz, dz));
    num = _mm256_sub_pd(num, _mm256_div_pd(_mm256_mul_pd(gamma, rate), safe_l));
    den = _mm256_add_pd(den, _mm256_mul_pd(gamma, w));
  }
  const __m256d dl = _mm256_blendv_pd(zero, _mm256_div_pd(num, den), stretched);
  _mm256_storeu_pd(lambda + j, _mm256_add_pd(lambda0, dl));
  const __m256d sc = _mm256_div_pd(dl, safe_l);
  const __m256d sb = _mm256_mul_pd(wb, sc), sa = _mm256_mul_pd(wa, sc);
  pb = {_mm256_add_pd(pb.x, _mm256_mul_pd(sb, dx)), _mm256_add_pd(pb.y, _mm256_mul_pd(sb, dy)),
        _mm256_add_pd(pb.z, _mm256_mul_pd(sb, dz))};
  pa = {_mm256_sub_pd(pa.x, _mm256_mul_pd(sa, dx)), _mm256_sub_pd(pa.y, _mm256_mul_pd(sa, dy)),
        _mm256_sub_pd(pa.z, _mm256_mul_pd(sa, dz))};
  keep(out, 1, k, ib, pb);
  keep(out, 0, k, ia, pa);
}

__attribute__((target("avx2"))) inline __m256d load(const std::vector<double>& v, int i) {
  return _mm256_loadu_pd(v.data() + i);
}

// The coordinate offsets 3 i of four particles.
__attribute__((target("avx2"))) inline __m128i offsets(const std::vector<int>& v, int i) {
  const __m128i k = _mm_loadu_si128(reinterpret_cast<const __m128i*>(v.data() + i));
  return _mm_add_epi32(_mm_add_epi32(k, k), k);
}

__attribute__((target("avx2"))) inline __m256d squaredLength(__m256d x, __m256d y, __m256d z) {
  return _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, x), _mm256_mul_pd(y, y)),
                       _mm256_mul_pd(z, z));
}

// intoSphere on four particles; `outside` receives which were. The comparison is intoSphere's
// "not l2 <= length^2", unordered included.
__attribute__((target("avx2"))) inline Gathered intoSphere4(const Gathered& a, __m256d length,
                                                            const Gathered& p, __m256d& outside) {
  const __m256d dx = _mm256_sub_pd(p.x, a.x), dy = _mm256_sub_pd(p.y, a.y),
                dz = _mm256_sub_pd(p.z, a.z);
  const __m256d l2 = squaredLength(dx, dy, dz);
  outside = _mm256_cmp_pd(l2, _mm256_mul_pd(length, length), _CMP_NLE_UQ);
  // the lanes inside keep p: their division is by 1, so that it raises nothing (the tests trap
  // division by zero; a particle on its anchor would be one)
  const __m256d root = _mm256_blendv_pd(_mm256_set1_pd(1.0), _mm256_sqrt_pd(l2), outside);
  const __m256d sc = _mm256_div_pd(length, root);
  return {_mm256_blendv_pd(p.x, _mm256_add_pd(a.x, _mm256_mul_pd(sc, dx)), outside),
          _mm256_blendv_pd(p.y, _mm256_add_pd(a.y, _mm256_mul_pd(sc, dy)), outside),
          _mm256_blendv_pd(p.z, _mm256_add_pd(a.z, _mm256_mul_pd(sc, dz)), outside)};
}

// projectTetherPair on pairs i .. i + 3, every branch taken in every lane and the lane's own
// result kept: the same operations as the scalar path, without its mispredicted branches.
__attribute__((target("avx2"))) void projectFourPairs(const TetherPairs& tp, int i, double* P) {
  const __m128i at_p = offsets(tp.particle, i);
  const Gathered as = gather(P, offsets(tp.anchor_s, i)), at = gather(P, offsets(tp.anchor_t, i));
  const __m256d ls = load(tp.length_s, i);
  __m256d out_s, out_t;
  const Gathered q = intoSphere4(as, ls, gather(P, at_p), out_s);
  const Gathered r = intoSphere4(at, load(tp.length_t, i), q, out_t);
  const __m256d still = _mm256_cmp_pd(
      squaredLength(_mm256_sub_pd(r.x, as.x), _mm256_sub_pd(r.y, as.y), _mm256_sub_pd(r.z, as.z)),
      _mm256_mul_pd(ls, ls), _CMP_NLE_UQ);
  const __m256d radius = load(tp.radius, i);
  const __m256d has_circle = _mm256_cmp_pd(radius, _mm256_setzero_pd(), _CMP_GE_OQ);
  // projectOnCircle
  const __m256d cx = load(tp.cx, i), cy = load(tp.cy, i), cz = load(tp.cz, i);
  const __m256d ux = load(tp.ux, i), uy = load(tp.uy, i), uz = load(tp.uz, i);
  const __m256d wx = _mm256_sub_pd(r.x, cx), wy = _mm256_sub_pd(r.y, cy),
                wz = _mm256_sub_pd(r.z, cz);
  const __m256d along = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(wx, ux), _mm256_mul_pd(wy, uy)),
                                      _mm256_mul_pd(wz, uz));
  const __m256d ox = _mm256_sub_pd(wx, _mm256_mul_pd(along, ux)),
                oy = _mm256_sub_pd(wy, _mm256_mul_pd(along, uy)),
                oz = _mm256_sub_pd(wz, _mm256_mul_pd(along, uz));
  const __m256d n = _mm256_sqrt_pd(squaredLength(ox, oy, oz));
  const __m256d off_axis = _mm256_cmp_pd(n, _mm256_setzero_pd(), _CMP_NEQ_UQ);
  const __m256d onto =
      _mm256_and_pd(_mm256_and_pd(out_t, still), _mm256_and_pd(has_circle, off_axis));
  const __m256d f = _mm256_div_pd(radius, _mm256_blendv_pd(_mm256_set1_pd(1.0), n, onto));
  const Gathered result = {_mm256_blendv_pd(r.x, _mm256_add_pd(cx, _mm256_mul_pd(f, ox)), onto),
                           _mm256_blendv_pd(r.y, _mm256_add_pd(cy, _mm256_mul_pd(f, oy)), onto),
                           _mm256_blendv_pd(r.z, _mm256_add_pd(cz, _mm256_mul_pd(f, oz)), onto)};
  PendingStores one;
  keep(one, 0, 0, at_p, result);
  storeEnd(one, 0, kLanes, P);
}

template <bool kDamped>
__attribute__((target("avx2"))) void projectAvx2(const SweepArrays& sw, int from, int to,
                                                 const SweepStep& st, const double* X, double* P,
                                                 double* lambda) {
  PendingStores pending;
  int j = from;
  while (j + kLanes <= to) {
    const int count = std::min(kBlock, (to - j) / kLanes * kLanes);
    for (int k = 0; k < count; k += kLanes)
      projectFour<kDamped>(sw, j + k, st, X, P, lambda, pending, k);
    store(pending, count, P);
    j += count;
  }
  projectScalar(sw, j, to, st, X, P, lambda);  // the last few
}

// The AVX-512 path: eight springs at a time (where the processor has AVX-512F and VL, chosen at
// run time; sim::setWideSimd(false) turns it off), again lane by lane the scalar operations.
constexpr int kWideLanes = 8;

struct Gathered8 {
  __m512d x, y, z;
};

#define SPRINGLAB_WIDE __attribute__((target("avx512f,avx512vl")))

// Particles k and k + 4 side by side in one register: x, y, z and the next number of each.
SPRINGLAB_WIDE inline __m512d loadPair(const double* base, const int* off, int k) {
  return _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_loadu_pd(base + off[k])),
                            _mm256_loadu_pd(base + off[k + 4]), 1);
}

// The coordinates of eight particles from their coordinate offsets (3 i): eight unaligned loads
// of x, y, z and the next number, particles k and k + 4 side by side in one register, then the
// 4 x 4 transpose of the AVX2 path within each half and two cross-lane permutations a coordinate.
SPRINGLAB_WIDE inline Gathered8 gather8(const double* base, const int* off) {
  const __m512d q0 = loadPair(base, off, 0), q1 = loadPair(base, off, 1),
                q2 = loadPair(base, off, 2), q3 = loadPair(base, off, 3);
  // t0 = x0 x1 z0 z1 x4 x5 z4 z5, t1 the same of y and the padding, t2 and t3 of particles 2, 3
  const __m512d t0 = _mm512_unpacklo_pd(q0, q1), t1 = _mm512_unpackhi_pd(q0, q1),
                t2 = _mm512_unpacklo_pd(q2, q3), t3 = _mm512_unpackhi_pd(q2, q3);
  const __m512i first = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13),
                second = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
  return {_mm512_permutex2var_pd(t0, first, t2), _mm512_permutex2var_pd(t1, first, t3),
          _mm512_permutex2var_pd(t0, second, t2)};
}

// A group's new end positions, kept until its block is done (PendingStores, as the AVX2 path:
// stored at once they cost 1.11 times the AVX2 path's time where kept they cost 0.95).
SPRINGLAB_WIDE inline void keep8(PendingStores& out, int end, int k, const int* at,
                                 const Gathered8& g) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.at[end] + k),
                      _mm256_load_si256(reinterpret_cast<const __m256i*>(at)));
  _mm512_storeu_pd(out.x[end] + k, g.x), _mm512_storeu_pd(out.y[end] + k, g.y);
  _mm512_storeu_pd(out.z[end] + k, g.z);
}

SPRINGLAB_WIDE inline __m512d dot8(const Gathered8& a, __m512d x, __m512d y, __m512d z) {
  return _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(a.x, x), _mm512_mul_pd(a.y, y)),
                       _mm512_mul_pd(a.z, z));
}

// projectSpring on eight springs at once: the same operations, lane by lane, in the same order.
template <bool kDamped>
SPRINGLAB_WIDE void projectEight(const SweepArrays& sw, int j, const SweepStep& st, const double* X,
                                 const double* P, double* lambda, PendingStores& out, int k) {
  alignas(32) int ia[kWideLanes], ib[kWideLanes];
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sw.a.data() + j)),
                b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(sw.b.data() + j));
  _mm256_store_si256(reinterpret_cast<__m256i*>(ia), _mm256_add_epi32(_mm256_add_epi32(a, a), a));
  _mm256_store_si256(reinterpret_cast<__m256i*>(ib), _mm256_add_epi32(_mm256_add_epi32(b, b), b));
  Gathered8 pa = gather8(P, ia), pb = gather8(P, ib);
  const __m512d wa = _mm512_loadu_pd(sw.wa.data() + j), wb = _mm512_loadu_pd(sw.wb.data() + j);
  const __m512d dx = _mm512_sub_pd(pb.x, pa.x), dy = _mm512_sub_pd(pb.y, pa.y),
                dz = _mm512_sub_pd(pb.z, pa.z);
  const Gathered8 d = {dx, dy, dz};
  const __m512d l = _mm512_sqrt_pd(dot8(d, dx, dy, dz));
  const __m512d zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1.0);
  const __mmask8 stretched = _mm512_cmp_pd_mask(l, zero, _CMP_GT_OQ);
  const __m512d safe_l = _mm512_mask_blend_pd(stretched, one, l);
  const __m512d lambda0 = st.first ? zero : _mm512_loadu_pd(lambda + j);
  const __m512d inv_k = _mm512_loadu_pd(sw.inv_k.data() + j);
  const __m512d alpha = _mm512_mul_pd(_mm512_set1_pd(st.inv_hs2), inv_k);
  __m512d num = _mm512_sub_pd(_mm512_sub_pd(_mm512_loadu_pd(sw.rest.data() + j), l),
                              _mm512_mul_pd(alpha, lambda0));
  const __m512d w = _mm512_add_pd(wa, wb);
  __m512d den = _mm512_add_pd(w, alpha);
  if constexpr (kDamped) {
    const Gathered8 xa = gather8(X, ia), xb = gather8(X, ib);
    const __m512d rx = _mm512_sub_pd(_mm512_sub_pd(pb.x, xb.x), _mm512_sub_pd(pa.x, xa.x)),
                  ry = _mm512_sub_pd(_mm512_sub_pd(pb.y, xb.y), _mm512_sub_pd(pa.y, xa.y)),
                  rz = _mm512_sub_pd(_mm512_sub_pd(pb.z, xb.z), _mm512_sub_pd(pa.z, xa.z));
    const __m512d gamma = _mm512_mul_pd(
        _mm512_mul_pd(_mm512_loadu_pd(sw.damping.data() + j), _mm512_set1_pd(st.inv_hs)), inv_k);
    const __m512d rate = dot8({rx, ry, rz}, dx, dy, dz);
    num = _mm512_sub_pd(num, _mm512_div_pd(_mm512_mul_pd(gamma, rate), safe_l));
    den = _mm512_add_pd(den, _mm512_mul_pd(gamma, w));
  }
  // the lanes of zero length divide too (their result is dropped): no trap, den > 0
  const __m512d dl = _mm512_maskz_mov_pd(stretched, _mm512_div_pd(num, den));
  _mm512_storeu_pd(lambda + j, _mm512_add_pd(lambda0, dl));
  const __m512d sc = _mm512_div_pd(dl, safe_l);
  const __m512d sb = _mm512_mul_pd(wb, sc), sa = _mm512_mul_pd(wa, sc);
  pb = {_mm512_add_pd(pb.x, _mm512_mul_pd(sb, dx)), _mm512_add_pd(pb.y, _mm512_mul_pd(sb, dy)),
        _mm512_add_pd(pb.z, _mm512_mul_pd(sb, dz))};
  pa = {_mm512_sub_pd(pa.x, _mm512_mul_pd(sa, dx)), _mm512_sub_pd(pa.y, _mm512_mul_pd(sa, dy)),
        _mm512_sub_pd(pa.z, _mm512_mul_pd(sa, dz))};
  keep8(out, 1, k, ib, pb);
  keep8(out, 0, k, ia, pa);
}

SPRINGLAB_WIDE inline __m512d squaredLength8(__m512d x, __m512d y, __m512d z) {
  return _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(x, x), _mm512_mul_pd(y, y)),
                       _mm512_mul_pd(z, z));
}

// The coordinate offsets 3 i of eight particles, into `at`.
SPRINGLAB_WIDE inline void offsets8(const std::vector<int>& v, int i, int* at) {
  const __m256i k = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v.data() + i));
  _mm256_store_si256(reinterpret_cast<__m256i*>(at), _mm256_add_epi32(_mm256_add_epi32(k, k), k));
}

// intoSphere4 on eight particles.
SPRINGLAB_WIDE inline Gathered8 intoSphere8(const Gathered8& a, __m512d length, const Gathered8& p,
                                            __mmask8& outside) {
  const __m512d dx = _mm512_sub_pd(p.x, a.x), dy = _mm512_sub_pd(p.y, a.y),
                dz = _mm512_sub_pd(p.z, a.z);
  const __m512d l2 = squaredLength8(dx, dy, dz);
  outside = _mm512_cmp_pd_mask(l2, _mm512_mul_pd(length, length), _CMP_NLE_UQ);
  const __m512d root = _mm512_mask_blend_pd(outside, _mm512_set1_pd(1.0), _mm512_sqrt_pd(l2));
  const __m512d sc = _mm512_div_pd(length, root);
  return {_mm512_mask_blend_pd(outside, p.x, _mm512_add_pd(a.x, _mm512_mul_pd(sc, dx))),
          _mm512_mask_blend_pd(outside, p.y, _mm512_add_pd(a.y, _mm512_mul_pd(sc, dy))),
          _mm512_mask_blend_pd(outside, p.z, _mm512_add_pd(a.z, _mm512_mul_pd(sc, dz)))};
}

// projectFourPairs on pairs i .. i + 7.
SPRINGLAB_WIDE void projectEightPairs(const TetherPairs& tp, int i, double* P) {
  alignas(32) int at_p[kWideLanes], at_s[kWideLanes], at_t[kWideLanes];
  offsets8(tp.particle, i, at_p), offsets8(tp.anchor_s, i, at_s), offsets8(tp.anchor_t, i, at_t);
  const Gathered8 as = gather8(P, at_s), at = gather8(P, at_t);
  const __m512d ls = _mm512_loadu_pd(tp.length_s.data() + i);
  __mmask8 out_s, out_t;
  const Gathered8 q = intoSphere8(as, ls, gather8(P, at_p), out_s);
  const Gathered8 r = intoSphere8(at, _mm512_loadu_pd(tp.length_t.data() + i), q, out_t);
  const __mmask8 still = _mm512_cmp_pd_mask(
      squaredLength8(_mm512_sub_pd(r.x, as.x), _mm512_sub_pd(r.y, as.y), _mm512_sub_pd(r.z, as.z)),
      _mm512_mul_pd(ls, ls), _CMP_NLE_UQ);
  const __m512d radius = _mm512_loadu_pd(tp.radius.data() + i), zero = _mm512_setzero_pd();
  const __mmask8 has_circle = _mm512_cmp_pd_mask(radius, zero, _CMP_GE_OQ);
  // projectOnCircle
  const __m512d cx = _mm512_loadu_pd(tp.cx.data() + i), cy = _mm512_loadu_pd(tp.cy.data() + i),
                cz = _mm512_loadu_pd(tp.cz.data() + i);
  const __m512d ux = _mm512_loadu_pd(tp.ux.data() + i), uy = _mm512_loadu_pd(tp.uy.data() + i),
                uz = _mm512_loadu_pd(tp.uz.data() + i);
  const __m512d wx = _mm512_sub_pd(r.x, cx), wy = _mm512_sub_pd(r.y, cy),
                wz = _mm512_sub_pd(r.z, cz);
  const __m512d along = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(wx, ux), _mm512_mul_pd(wy, uy)),
                                      _mm512_mul_pd(wz, uz));
  const __m512d ox = _mm512_sub_pd(wx, _mm512_mul_pd(along, ux)),
                oy = _mm512_sub_pd(wy, _mm512_mul_pd(along, uy)),
                oz = _mm512_sub_pd(wz, _mm512_mul_pd(along, uz));
  const __m512d n = _mm512_sqrt_pd(squaredLength8(ox, oy, oz));
  const __mmask8 off_axis = _mm512_cmp_pd_mask(n, zero, _CMP_NEQ_UQ);
  const __mmask8 onto = out_t & still & has_circle & off_axis;
  const __m512d f = _mm512_div_pd(radius, _mm512_mask_blend_pd(onto, _mm512_set1_pd(1.0), n));
  const Gathered8 result = {
      _mm512_mask_blend_pd(onto, r.x, _mm512_add_pd(cx, _mm512_mul_pd(f, ox))),
      _mm512_mask_blend_pd(onto, r.y, _mm512_add_pd(cy, _mm512_mul_pd(f, oy))),
      _mm512_mask_blend_pd(onto, r.z, _mm512_add_pd(cz, _mm512_mul_pd(f, oz)))};
  PendingStores one;
  keep8(one, 0, 0, at_p, result);
  storeEnd(one, 0, kWideLanes, P);
}

// Blocks of groups of eight (their stores after the block), then the AVX2 path for the last few.
template <bool kDamped>
void projectWide(const SweepArrays& sw, int from, int to, const SweepStep& st, const double* X,
                 double* P, double* lambda) {
  PendingStores pending;
  int j = from;
  while (j + kWideLanes <= to) {
    const int count = std::min(kBlock, (to - j) / kWideLanes * kWideLanes);
    for (int k = 0; k < count; k += kWideLanes)
      projectEight<kDamped>(sw, j + k, st, X, P, lambda, pending, k);
    store(pending, count, P);
    j += count;
  }
  projectAvx2<kDamped>(sw, j, to, st, X, P, lambda);
}

#endif

}  // namespace

bool simdAvailable() {
#ifdef SPRINGLAB_X86_SIMD
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
#else
  return false;
#endif
}

bool simdEnabled() {
  return simd_switch.load(std::memory_order_relaxed) && simdAvailable();
}

void setSimd(bool on) {
  simd_switch.store(on, std::memory_order_relaxed);
}

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
  if (simdEnabled() && wideSimdEnabled())
    for (; i + kWideLanes <= to; i += kWideLanes) projectEightPairs(tp, i, P);
  if (simdEnabled())
    for (; i + kLanes <= to; i += kLanes) projectFourPairs(tp, i, P);
#endif
  for (; i < to; ++i) projectTetherPair(tp, i, P);
}

void projectSpringBlock(const SweepArrays& sw, int from, int to, const SweepStep& step,
                        const double* X, double* P, double* lambda) {
#ifdef SPRINGLAB_X86_SIMD
  if (simdEnabled() && wideSimdEnabled()) {
    if (step.damped)
      projectWide<true>(sw, from, to, step, X, P, lambda);
    else
      projectWide<false>(sw, from, to, step, X, P, lambda);
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
