#include "sim/spring_runs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "sim/simd_lanes.hpp"

namespace sim {

namespace {

// A spring's force on its higher end hi (its lower end lo gets the opposite): sim/forces.cpp's
// springForce without the dashpot, operation for operation.
inline void runForce(const RunInput& in, double k, double rest, int lo, int hi, double* f) {
  const double dx = in.x[hi] - in.x[lo], dy = in.y[hi] - in.y[lo], dz = in.z[hi] - in.z[lo];
  const double l = std::sqrt(dx * dx + dy * dy + dz * dz);
  if (!(l > 0.0)) {
    f[0] = f[1] = f[2] = 0.0;
    return;
  }
  double coef = 0.0;
  coef += k * (l - rest);
  const double sc = -coef / l;
  f[0] = sc * dx, f[1] = sc * dy, f[2] = sc * dz;
}

// Spring j of run r's k and rest length: the runs' copies where current, else the model's.
inline double runStiffness(const SpringRuns::Run& r, int j, const RunInput& in) {
  return in.run_stiffness ? in.run_stiffness[r.first + j] : in.stiffness[r.s0 + r.ds * j];
}
inline double runRest(const SpringRuns::Run& r, int j, const RunInput& in) {
  return in.run_rest ? in.run_rest[r.first + j] : in.rest[r.s0 + r.ds * j];
}

// Spring j of run r summed at once: -f on its lower end, then +f on its higher.
inline void addRunSpring(const SpringRuns::Run& r, int j, const RunInput& in, Components F) {
  double f[3];
  const int lo = r.a0 + j, hi = lo + r.d;
  runForce(in, runStiffness(r, j, in), runRest(r, j, in), lo, hi, f);
  F.x[lo] -= f[0], F.y[lo] -= f[1], F.z[lo] -= f[2];
  F.x[hi] += f[0], F.y[hi] += f[1], F.z[hi] += f[2];
}

// A run whose ends are closer than kFuse gives each particle a0 + i, i < length + d, the
// difference of its two terms at once: F += f[i - d] - f[i], with f zero outside the run. Adding
// four springs' forces to their ends at once would otherwise load four particles that an
// unfinished store of the four before them covers in part, which the processor cannot forward (a
// stall a four). With d >= kFuse the store that a four's load overlaps is kFuse / 4 fours back,
// done by then, and each four goes straight to F. The forces are held a chunk at a time, the last
// d of a chunk carried to the next, so the sums do not depend on the chunk's size (the AVX-512
// path holds them in registers instead, closeRunAvx512).
constexpr int kFuse = 16;
constexpr int kChunk = 64;  // springs whose forces are held at once (on the stack)
struct Chunk {
  // the forces at [kFuse, kFuse + length); before them the previous chunk's last d (zeros for a
  // run's first chunk), after the run's last chunk d zeros
  alignas(64) double x[kChunk + 2 * kFuse], y[kChunk + 2 * kFuse], z[kChunk + 2 * kFuse];
  void start(int d) {
    for (double* c : {x, y, z}) std::fill(c + kFuse - d, c + kFuse, 0.0);
  }
  void carry(int length, int d) {
    for (double* c : {x, y, z})
      std::copy(c + kFuse + length - d, c + kFuse + length, c + kFuse - d);
  }
  // how many particles a chunk of `length` springs from spring j0 of a run of run_length reaches:
  // its own, and after the run's last springs their d higher ends (zeros after them)
  int reach(int j0, int length, int run_length, int d) {
    if (j0 + length < run_length) return length;
    for (double* c : {x, y, z}) std::fill(c + kFuse + length, c + kFuse + length + d, 0.0);
    return length + d;
  }
};

// Springs [from, to) of run r into chunk c, whose first spring is j0, one at a time.
void chunkForces(Chunk& c, const SpringRuns::Run& r, const RunInput& in, int j0, int from, int to) {
  for (int j = from; j < to; ++j) {
    double f[3];
    runForce(in, runStiffness(r, j, in), runRest(r, j, in), r.a0 + j, r.a0 + j + r.d, f);
    const int at = kFuse + j - j0;
    c.x[at] = f[0], c.y[at] = f[1], c.z[at] = f[2];
  }
}

// Particles i0 <= i < i1 of chunk c's reach (particle a0 + i): F += f[i - d] - f[i].
void addChunkDifferences(const Chunk& c, int a0, int d, int i0, int i1, Components F) {
  for (int i = i0; i < i1; ++i) {
    const int at = kFuse + i;
    F.x[a0 + i] += c.x[at - d] - c.x[at];
    F.y[a0 + i] += c.y[at - d] - c.y[at];
    F.z[a0 + i] += c.z[at - d] - c.z[at];
  }
}

void runScalar(const SpringRuns::Run& r, const RunInput& in, Components F) {
  if (r.d >= kFuse) {
    for (int j = 0; j < r.length; ++j) addRunSpring(r, j, in, F);
    return;
  }
  Chunk c;
  c.start(r.d);
  for (int j0 = 0; j0 < r.length; j0 += kChunk) {
    const int length = std::min(kChunk, r.length - j0);
    chunkForces(c, r, in, j0, j0, j0 + length);
    addChunkDifferences(c, r.a0 + j0, r.d, 0, c.reach(j0, length, r.length, r.d), F);
    c.carry(length, r.d);
  }
}

#ifdef SPRINGLAB_X86_SIMD

// The vector kernels, on the widths' operations (sim/simd_lanes.hpp: Avx2, four springs or
// particles at once; Avx512, eight): templates inlined into each width's entry points (`flatten`).
using simd::Avx2;
using simd::Avx512;
using simd::dot;
using simd::loadTriples;
using simd::minus;
using simd::storeTriples;
using simd::Xyz;

// Particles i .. i + W::kLanes - 1 of three component arrays; `m`, where given, the lanes read
// (Avx512's masked load: the others are zeros).
template <class W, class... Mask>
inline Xyz<W> loadLanes(const double* x, const double* y, const double* z, int i, Mask... m) {
  return {W::load(x + i, m...), W::load(y + i, m...), W::load(z + i, m...)};
}
// F's particles i .. i + W::kLanes - 1 plus (kAdd) or minus f (the lanes of m, where given).
template <class W, bool kAdd, class... Mask>
inline void accumulate(Components F, int i, const Xyz<W>& f, Mask... m) {
  const Xyz<W> old = loadLanes<W>(F.x, F.y, F.z, i, m...);
  W::store(F.x + i, kAdd ? W::add(old.x, f.x) : W::sub(old.x, f.x), m...);
  W::store(F.y + i, kAdd ? W::add(old.y, f.y) : W::sub(old.y, f.y), m...);
  W::store(F.z + i, kAdd ? W::add(old.z, f.z) : W::sub(old.z, f.z), m...);
}

// runForce on W::kLanes springs with ends lo and hi, k and rest lengths k and rest: its operations
// in its order, so each lane has its bits. A lane whose length is not positive gets +0 and divides
// by 1 (no trap); a masked-off lane reads zeros, so it is one of them.
template <class W>
inline Xyz<W> forceLanes(const Xyz<W>& lo, const Xyz<W>& hi, const typename W::V& k,
                         const typename W::V& rest) {
  using V = typename W::V;
  const Xyz<W> d = minus(hi, lo);
  const V l = W::sqrt(dot(d, d));
  const V zero = W::zero();
  const auto live = W::template compare<_CMP_GT_OQ>(l, zero);
  const V safe = W::select(live, W::set1(1.0), l);
  const V coef = W::add(zero, W::mul(k, W::sub(l, rest)));
  const V sc = W::div(W::negate(coef), safe);
  return {W::mulWhere(live, sc, d.x), W::mulWhere(live, sc, d.y), W::mulWhere(live, sc, d.z)};
}

// Springs j .. j + 3 of run r, their k and rest lengths from the runs' copies where current, else
// from the model's arrays through the spring index.
SPRINGLAB_AVX2 inline Xyz<Avx2> forceFour(const SpringRuns::Run& r, int j, const RunInput& in) {
  __m256d k, rest;
  if (in.run_stiffness) {
    k = Avx2::load(in.run_stiffness + r.first + j);
    rest = Avx2::load(in.run_rest + r.first + j);
  } else {
    const int s = r.s0 + r.ds * j, ds = r.ds;
    k = _mm256_set_pd(in.stiffness[s + 3 * ds], in.stiffness[s + 2 * ds], in.stiffness[s + ds],
                      in.stiffness[s]);
    rest = _mm256_set_pd(in.rest[s + 3 * ds], in.rest[s + 2 * ds], in.rest[s + ds], in.rest[s]);
  }
  return forceLanes<Avx2>(loadLanes<Avx2>(in.x, in.y, in.z, r.a0 + j),
                          loadLanes<Avx2>(in.x, in.y, in.z, r.a0 + j + r.d), k, rest);
}

// runScalar's sums, four springs (and four particles) at a time: each particle gets the same
// terms in the same order.
SPRINGLAB_AVX2 __attribute__((flatten)) void runAvx2(const SpringRuns::Run& r, const RunInput& in,
                                                     Components F) {
  if (r.d >= kFuse) {
    int j = 0;
    for (; j + 4 <= r.length; j += 4) {
      const Xyz<Avx2> f = forceFour(r, j, in);
      accumulate<Avx2, false>(F, r.a0 + j, f);
      accumulate<Avx2, true>(F, r.a0 + j + r.d, f);
    }
    for (; j < r.length; ++j) addRunSpring(r, j, in, F);
    return;
  }
  Chunk c;
  c.start(r.d);
  for (int j0 = 0; j0 < r.length; j0 += kChunk) {
    const int length = std::min(kChunk, r.length - j0);
    int j = j0;
    for (; j + 4 <= j0 + length; j += 4) {
      const Xyz<Avx2> f = forceFour(r, j, in);
      const int at = kFuse + j - j0;
      Avx2::store(c.x + at, f.x), Avx2::store(c.y + at, f.y), Avx2::store(c.z + at, f.z);
    }
    chunkForces(c, r, in, j0, j, j0 + length);  // the last few
    const int reach = c.reach(j0, length, r.length, r.d), a0 = r.a0 + j0;
    int i = 0;
    for (; i + 4 <= reach; i += 4) {
      const int at = kFuse + i;
      accumulate<Avx2, true>(
          F, a0 + i,
          minus(loadLanes<Avx2>(c.x, c.y, c.z, at - r.d), loadLanes<Avx2>(c.x, c.y, c.z, at)));
    }
    addChunkDifferences(c, a0, r.d, i, reach, F);
    c.carry(length, r.d);
  }
}

// The AVX-512 kernels (runAvx512 below): eight springs, or eight particles, at once, the last
// eight of a run masked (Avx512::firstLanes).
using Lanes = Avx512::Mask;
constexpr Lanes kAllLanes = Avx512::kAll;

// A run's k and rest lengths from spring j on, eight at a time: streamed from the copies, or for a
// uniform run the first pair broadcast.
struct RunConstants {
  const double *K, *R;
  bool uniform;
};
inline __m512d constants8(Lanes m, const double* from, int j, bool uniform) {
  return uniform ? Avx512::set1(from[0]) : Avx512::load(from + j, m);
}
// Springs j .. j + 7 of a run (the lanes of m) with ends lo + lane and hi + lane.
inline Xyz<Avx512> forceEight(Lanes m, const RunInput& in, int lo, int hi, int j,
                              const RunConstants& kr) {
  const __m512d k = constants8(m, kr.K, j, kr.uniform), rest = constants8(m, kr.R, j, kr.uniform);
  return forceLanes<Avx512>(loadLanes<Avx512>(in.x, in.y, in.z, lo, m),
                            loadLanes<Avx512>(in.x, in.y, in.z, hi, m), k, rest);
}

// Lane l of the result: f[l - D] where l >= D, else prev[8 - D + l] (the eight before f).
template <int D>
SPRINGLAB_AVX512 inline __m512d shiftIn(__m512d f, __m512d prev) {
  return _mm512_castsi512_pd(
      _mm512_alignr_epi64(_mm512_castpd_si512(f), _mm512_castpd_si512(prev), 8 - D));
}
// Particles i .. i + 7 (the lanes of m) of a run with ends D apart: F += f[p - D] - f[p], from
// this eight's springs' forces f and prev, the eight's before.
template <int D>
inline void addDifferences(Lanes m, Components F, int i, const Xyz<Avx512>& f,
                           const Xyz<Avx512>& prev) {
  const Xyz<Avx512> diff{Avx512::sub(shiftIn<D>(f.x, prev.x), f.x),
                         Avx512::sub(shiftIn<D>(f.y, prev.y), f.y),
                         Avx512::sub(shiftIn<D>(f.z, prev.z), f.z)};
  accumulate<Avx512, true>(F, i, diff, m);
}
// Springs j .. j + 7 of a run with ends D < 8 apart (the lanes of m), the particles' terms in the
// lanes of `ends`; prev: the eight before, then these.
template <int D>
inline void closeEight(Lanes m, Lanes ends, const RunInput& in, int a0, int j,
                       const RunConstants& kr, Components F, Xyz<Avx512>& prev) {
  const Xyz<Avx512> f = forceEight(m, in, a0 + j, a0 + j + D, j, kr);
  addDifferences<D>(ends, F, a0 + j, f, prev);
  prev = f;
}
// A run with ends D < 8 apart (a cloth's rows): runScalar's differences eight particles at a time,
// the eight springs' forces before held in registers.
template <int D>
SPRINGLAB_AVX512 __attribute__((flatten)) void closeRunAvx512(const RunInput& in, int a0,
                                                              int length, const RunConstants& kr,
                                                              Components F) {
  const __m512d zero = Avx512::zero();
  Xyz<Avx512> prev{zero, zero, zero};
  int j = 0;
  for (; j + 8 <= length; j += 8) closeEight<D>(kAllLanes, kAllLanes, in, a0, j, kr, F, prev);
  if (j < length) {
    closeEight<D>(Avx512::firstLanes(length - j), Avx512::firstLanes(length + D - j), in, a0, j, kr,
                  F, prev);
    j += 8;
  }
  if (length + D > j)  // the last particles' terms from the last eight
    addDifferences<D>(Avx512::firstLanes(length + D - j), F, a0 + j, Xyz<Avx512>{zero, zero, zero},
                      prev);
}
// A run with ends d >= kFuse apart: each end's terms apart, eight springs at a time.
SPRINGLAB_AVX512 __attribute__((flatten)) void farRunAvx512(const RunInput& in, int a0, int d,
                                                            int length, const RunConstants& kr,
                                                            Components F) {
  auto eight = [&](Lanes m, int j) {
    const Xyz<Avx512> f = forceEight(m, in, a0 + j, a0 + j + d, j, kr);
    accumulate<Avx512, false>(F, a0 + j, f, m);
    accumulate<Avx512, true>(F, a0 + j + d, f, m);
  };
  int j = 0;
  for (; j + 8 <= length; j += 8) eight(kAllLanes, j);
  if (j < length) eight(Avx512::firstLanes(length - j), j);
}

// runAvx2 eight springs at a time (AVX-512F), the last eight of a run masked: the same
// operations lane for lane, so the same bits, with half the instructions a spring and no scalar
// tail (up to a ninth of a cloth's springs: runs of 63 leave 7).
void runAvx512(const SpringRuns::Run& r, const RunInput& in, Components F) {
  // the model's constants, read through the spring index; 8 <= d < kFuse: none in a cloth
  if (!in.run_stiffness || (r.d >= 8 && r.d < kFuse)) return runAvx2(r, in, F);
  const RunConstants kr{in.run_stiffness + r.first, in.run_rest + r.first, r.uniform};
  using CloseRun = void (*)(const RunInput&, int, int, const RunConstants&, Components);
  static constexpr CloseRun kCloseRuns[] = {nullptr,           closeRunAvx512<1>, closeRunAvx512<2>,
                                            closeRunAvx512<3>, closeRunAvx512<4>, closeRunAvx512<5>,
                                            closeRunAvx512<6>, closeRunAvx512<7>};
  if (r.d >= kFuse)
    farRunAvx512(in, r.a0, r.d, r.length, kr, F);
  else
    kCloseRuns[r.d](in, r.a0, r.length, kr, F);
}

SPRINGLAB_AVX2 __attribute__((flatten)) bool anyPositiveAvx2(const double* first,
                                                             const double* last) {
  const __m256d zero = _mm256_setzero_pd();
  __m256d found = zero;
  const double* p = first;
  for (; p + 4 <= last; p += 4)
    found = _mm256_or_pd(found, _mm256_cmp_pd(_mm256_loadu_pd(p), zero, _CMP_GT_OQ));
  bool any = _mm256_movemask_pd(found) != 0;
  for (; p < last; ++p) any = any || *p > 0.0;
  return any;
}

// splitComponents and mergeComponents four particles at a time; they return where they stopped.
SPRINGLAB_AVX2 __attribute__((flatten)) int splitAvx2(const double* P, const BodyForces& body,
                                                      int from, int to, Components X,
                                                      Components F) {
  const __m256d gx = _mm256_set1_pd(body.gravity[0]), gy = _mm256_set1_pd(body.gravity[1]),
                gz = _mm256_set1_pd(body.gravity[2]);
  int i = from;
  for (; i + 4 <= to; i += 4) {
    const Xyz<Avx2> x = loadTriples(P + 3 * i);
    Avx2::store(X.x + i, x.x), Avx2::store(X.y + i, x.y), Avx2::store(X.z + i, x.z);
    const __m256d mass = _mm256_loadu_pd(body.mass + i),
                  fixed = _mm256_cmp_pd(_mm256_loadu_pd(body.inv_mass + i), _mm256_setzero_pd(),
                                        _CMP_EQ_OQ);  // their gravity: +0
    _mm256_storeu_pd(F.x + i, _mm256_andnot_pd(fixed, _mm256_mul_pd(mass, gx)));
    _mm256_storeu_pd(F.y + i, _mm256_andnot_pd(fixed, _mm256_mul_pd(mass, gy)));
    _mm256_storeu_pd(F.z + i, _mm256_andnot_pd(fixed, _mm256_mul_pd(mass, gz)));
  }
  return i;
}
SPRINGLAB_AVX2 __attribute__((flatten)) int mergeAvx2(Components F, const BodyForces& body,
                                                      int from, int to, double* P) {
  // four particles' 12 numbers: the wind's components and the free mask in their order
  const __m256d w0 = _mm256_setr_pd(body.wind[0], body.wind[1], body.wind[2], body.wind[0]),
                w1 = _mm256_setr_pd(body.wind[1], body.wind[2], body.wind[0], body.wind[1]),
                w2 = _mm256_setr_pd(body.wind[2], body.wind[0], body.wind[1], body.wind[2]);
  const __m256d c = _mm256_set1_pd(body.drag);
  int i = from;
  for (; i + 4 <= to; i += 4) {
    double* p = P + 3 * i;
    storeTriples(p, loadLanes<Avx2>(F.x, F.y, F.z, i));
    if (body.drag == 0.0) continue;
    const __m256d free =
        _mm256_cmp_pd(_mm256_loadu_pd(body.inv_mass + i), _mm256_setzero_pd(), _CMP_NEQ_UQ);
    const __m256d m[3] = {_mm256_permute4x64_pd(free, 0b01000000),   // 0 0 0 1
                          _mm256_permute4x64_pd(free, 0b10100101),   // 1 1 2 2
                          _mm256_permute4x64_pd(free, 0b11111110)};  // 2 3 3 3
    const __m256d w[3] = {w0, w1, w2};
    for (int k = 0; k < 3; ++k) {
      const __m256d v = _mm256_loadu_pd(body.V + 3 * i + 4 * k);
      const __m256d drag = _mm256_and_pd(_mm256_mul_pd(c, _mm256_sub_pd(v, w[k])), m[k]);
      _mm256_storeu_pd(p + 4 * k, _mm256_sub_pd(_mm256_loadu_pd(p + 4 * k), drag));
    }
  }
  return i;
}

#endif

}  // namespace

bool anyPositive(const double* first, const double* last) {
#ifdef SPRINGLAB_X86_SIMD
  if (simdEnabled()) return anyPositiveAvx2(first, last);
#endif
  return std::any_of(first, last, [](double c) { return c > 0.0; });
}

void splitComponents(const double* P, const BodyForces& body, int from, int to, Components X,
                     Components F) {
  int i = from;
#ifdef SPRINGLAB_X86_SIMD
  if (simdEnabled()) i = splitAvx2(P, body, from, to, X, F);
#endif
  for (; i < to; ++i) {
    X.x[i] = P[3 * i], X.y[i] = P[3 * i + 1], X.z[i] = P[3 * i + 2];
    const bool fixed = body.inv_mass[i] == 0.0;
    F.x[i] = fixed ? 0.0 : body.mass[i] * body.gravity[0];
    F.y[i] = fixed ? 0.0 : body.mass[i] * body.gravity[1];
    F.z[i] = fixed ? 0.0 : body.mass[i] * body.gravity[2];
  }
}

void mergeComponents(Components F, const BodyForces& body, int from, int to, double* P) {
  int i = from;
#ifdef SPRINGLAB_X86_SIMD
  if (simdEnabled()) i = mergeAvx2(F, body, from, to, P);
#endif
  for (; i < to; ++i) {
    P[3 * i] = F.x[i], P[3 * i + 1] = F.y[i], P[3 * i + 2] = F.z[i];
    if (body.drag != 0.0 && body.inv_mass[i] != 0.0)
      for (int c = 0; c < 3; ++c) P[3 * i + c] -= body.drag * (body.V[3 * i + c] - body.wind[c]);
  }
}

void addBlockSpringForces(const SpringRuns& runs, int block, const RunInput& in, Components F) {
#ifdef SPRINGLAB_X86_SIMD
  const bool simd = simdEnabled(), wide = simd && wideSimdEnabled();
#endif
  for (int k = runs.block_start[block]; k < runs.block_start[block + 1]; ++k) {
    const SpringRuns::Run& r = runs.runs[static_cast<size_t>(k)];
#ifdef SPRINGLAB_X86_SIMD
    if (simd) {
      if (wide)
        runAvx512(r, in, F);
      else
        runAvx2(r, in, F);
      continue;
    }
#endif
    runScalar(r, in, F);
  }
}

void addLooseSpringForces(const SpringRuns& runs, const std::vector<int>& spring_a,
                          const std::vector<int>& spring_b, const RunInput& in, Components F) {
  for (int s : runs.loose) {
    const int a = spring_a[static_cast<size_t>(s)], b = spring_b[static_cast<size_t>(s)];
    double f[3];
    runForce(in, in.stiffness[s], in.rest[s], a, b, f);
    F.x[b] += f[0], F.y[b] += f[1], F.z[b] += f[2];
    F.x[a] -= f[0], F.y[a] -= f[1], F.z[a] -= f[2];
  }
}

}  // namespace sim
