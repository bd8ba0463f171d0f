#include "sim/spring_runs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <tuple>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SPRINGLAB_X86_SIMD 1
// GCC 12's AVX-512 headers pass an undefined vector as the unused source of their masked
// builtins, which its uninitialised-use analysis reports once inlined (GCC bug 105593)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace sim {

namespace {

constexpr int kBlocks = 16;     // blocks of particles per system (a block's size: the count alone)
constexpr int kMinBlock = 256;  // particles: smaller systems have fewer blocks

struct Key {
  int block, d, lo, s;
};

// The runs of the sorted keys (by block, d, lower end, spring): maximal stretches of one block
// and one d whose lower ends follow one another and whose spring indices step evenly.
void scanRuns(const std::vector<Key>& keys, SpringRuns& r, std::vector<int>& runBlock) {
  size_t i = 0;
  while (i < keys.size()) {
    SpringRuns::Run run{keys[i].lo, keys[i].d, 1, keys[i].s, 0};
    size_t j = i + 1;
    for (; j < keys.size(); ++j) {
      const Key& k = keys[j];
      if (k.block != keys[i].block || k.d != run.d || k.lo != run.a0 + run.length) break;
      const int ds = k.s - keys[j - 1].s;
      if (run.length > 1 && ds != run.ds) break;
      run.ds = ds;
      ++run.length;
    }
    run.first = r.runs.empty() ? 0 : r.runs.back().first + r.runs.back().length;
    r.runs.push_back(run);
    runBlock.push_back(keys[i].block);
    i = j;
  }
}

}  // namespace

SpringRuns buildSpringRuns(const std::vector<int>& a, const std::vector<int>& b, int n) {
  SpringRuns r;
  r.block = std::max(kMinBlock, (n + kBlocks - 1) / kBlocks);
  std::vector<Key> keys;
  keys.reserve(a.size());
  for (int s = 0; s < static_cast<int>(a.size()); ++s) {
    const int lo = std::min(a[s], b[s]), d = std::abs(b[s] - a[s]);
    if (d == 0 || d >= r.block)  // a run's ends must lie in its block or the next
      r.loose.push_back(s);
    else
      keys.push_back({lo / r.block, d, lo, s});
  }
  std::sort(keys.begin(), keys.end(), [](const Key& x, const Key& y) {
    return std::tie(x.block, x.d, x.lo, x.s) < std::tie(y.block, y.d, y.lo, y.s);
  });
  std::vector<int> runBlock;
  scanRuns(keys, r, runBlock);
  std::sort(r.loose.begin(), r.loose.end());
  const int blocks = (n + r.block - 1) / r.block;
  r.block_start.assign(static_cast<size_t>(blocks) + 1, 0);
  for (int blk : runBlock) ++r.block_start[static_cast<size_t>(blk) + 1];
  for (int k = 0; k < blocks; ++k) r.block_start[k + 1] += r.block_start[k];
  return r;
}

void copyRunConstants(SpringRuns& runs, const double* stiffness, const double* rest,
                      std::uint64_t revision) {
  runs.stiffness.clear(), runs.rest.clear();
  for (SpringRuns::Run& r : runs.runs) {
    r.uniform = true;
    for (int j = 0; j < r.length; ++j) {
      runs.stiffness.push_back(stiffness[r.s0 + r.ds * j]);
      runs.rest.push_back(rest[r.s0 + r.ds * j]);
      // bitwise equal (a NaN would not be, and -0 == +0 is no identity)
      r.uniform =
          r.uniform &&
          std::memcmp(&runs.stiffness.back(), &runs.stiffness[r.first], sizeof(double)) == 0 &&
          std::memcmp(&runs.rest.back(), &runs.rest[r.first], sizeof(double)) == 0;
    }
  }
  runs.revision = revision;
}

void noteDashpots(SpringRuns& runs, const double* damping, std::int64_t count,
                  std::uint64_t damping_revision) {
  runs.dashpots = anyPositive(damping, damping + count);
  runs.dashpots_at = damping_revision;
}

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
    for (int j = j0; j < j0 + length; ++j) {
      double f[3];
      runForce(in, runStiffness(r, j, in), runRest(r, j, in), r.a0 + j, r.a0 + j + r.d, f);
      const int at = kFuse + j - j0;
      c.x[at] = f[0], c.y[at] = f[1], c.z[at] = f[2];
    }
    addChunkDifferences(c, r.a0 + j0, r.d, 0, c.reach(j0, length, r.length, r.d), F);
    c.carry(length, r.d);
  }
}

#ifdef SPRINGLAB_X86_SIMD

// Four consecutive particles' x, y, z.
struct Four {
  __m256d x, y, z;
};
// The x y z of four particles stored one after another (12 doubles from p), and back.
__attribute__((target("avx2"))) inline Four loadInterleaved(const double* p) {
  const __m256d v0 = _mm256_loadu_pd(p), v1 = _mm256_loadu_pd(p + 4), v2 = _mm256_loadu_pd(p + 8);
  const __m256d a = _mm256_permute2f128_pd(v0, v1, 0x30);  // x0 y0 | x2 y2
  const __m256d b = _mm256_permute2f128_pd(v0, v2, 0x21);  // z0 x1 | z2 x3
  const __m256d c = _mm256_permute2f128_pd(v1, v2, 0x30);  // y1 z1 | y3 z3
  return {_mm256_blend_pd(a, b, 0b1010), _mm256_shuffle_pd(a, c, 0b0101),
          _mm256_blend_pd(b, c, 0b1010)};
}
__attribute__((target("avx2"))) inline void storeInterleaved(double* p, const Four& f) {
  const __m256d a = _mm256_unpacklo_pd(f.x, f.y);       // x0 y0 | x2 y2
  const __m256d c = _mm256_unpackhi_pd(f.y, f.z);       // y1 z1 | y3 z3
  const __m256d b = _mm256_blend_pd(f.z, f.x, 0b1010);  // z0 x1 | z2 x3
  _mm256_storeu_pd(p, _mm256_permute2f128_pd(a, b, 0x20));
  _mm256_storeu_pd(p + 4, _mm256_permute2f128_pd(c, a, 0x30));
  _mm256_storeu_pd(p + 8, _mm256_permute2f128_pd(b, c, 0x31));
}

__attribute__((target("avx2"))) inline Four loadFour(const double* x, const double* y,
                                                     const double* z, int i) {
  return {_mm256_loadu_pd(x + i), _mm256_loadu_pd(y + i), _mm256_loadu_pd(z + i)};
}
// F's particles i .. i + 3 plus (kAdd) or minus f.
template <bool kAdd>
__attribute__((target("avx2"))) inline void accumulateFour(Components F, int i, const Four& f) {
  const Four old = loadFour(F.x, F.y, F.z, i);
  _mm256_storeu_pd(F.x + i, kAdd ? _mm256_add_pd(old.x, f.x) : _mm256_sub_pd(old.x, f.x));
  _mm256_storeu_pd(F.y + i, kAdd ? _mm256_add_pd(old.y, f.y) : _mm256_sub_pd(old.y, f.y));
  _mm256_storeu_pd(F.z + i, kAdd ? _mm256_add_pd(old.z, f.z) : _mm256_sub_pd(old.z, f.z));
}

// Springs j .. j + 3 of run r: runForce's operations in its order, four lanes at once; a lane
// whose length is not positive gets 0 and divides by 1 (no trap).
__attribute__((target("avx2"))) inline Four forceFour(const SpringRuns::Run& r, int j,
                                                      const RunInput& in) {
  const Four lo = loadFour(in.x, in.y, in.z, r.a0 + j),
             hi = loadFour(in.x, in.y, in.z, r.a0 + j + r.d);
  const __m256d dx = _mm256_sub_pd(hi.x, lo.x), dy = _mm256_sub_pd(hi.y, lo.y),
                dz = _mm256_sub_pd(hi.z, lo.z);
  const __m256d l = _mm256_sqrt_pd(_mm256_add_pd(
      _mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), _mm256_mul_pd(dz, dz)));
  __m256d k, rest;
  if (in.run_stiffness) {
    k = _mm256_loadu_pd(in.run_stiffness + r.first + j);
    rest = _mm256_loadu_pd(in.run_rest + r.first + j);
  } else {
    const int s = r.s0 + r.ds * j, ds = r.ds;
    k = _mm256_set_pd(in.stiffness[s + 3 * ds], in.stiffness[s + 2 * ds], in.stiffness[s + ds],
                      in.stiffness[s]);
    rest = _mm256_set_pd(in.rest[s + 3 * ds], in.rest[s + 2 * ds], in.rest[s + ds], in.rest[s]);
  }
  const __m256d live = _mm256_cmp_pd(l, _mm256_setzero_pd(), _CMP_GT_OQ);
  const __m256d safe = _mm256_blendv_pd(_mm256_set1_pd(1.0), l, live);
  const __m256d coef = _mm256_add_pd(_mm256_setzero_pd(), _mm256_mul_pd(k, _mm256_sub_pd(l, rest)));
  const __m256d sc = _mm256_div_pd(_mm256_xor_pd(coef, _mm256_set1_pd(-0.0)), safe);
  return {_mm256_and_pd(_mm256_mul_pd(sc, dx), live), _mm256_and_pd(_mm256_mul_pd(sc, dy), live),
          _mm256_and_pd(_mm256_mul_pd(sc, dz), live)};
}

// runScalar's sums, four springs (and four particles) at a time: each particle gets the same
// terms in the same order.
__attribute__((target("avx2"))) void runAvx2(const SpringRuns::Run& r, const RunInput& in,
                                             Components F) {
  if (r.d >= kFuse) {
    int j = 0;
    for (; j + 4 <= r.length; j += 4) {
      const Four f = forceFour(r, j, in);
      accumulateFour<false>(F, r.a0 + j, f);
      accumulateFour<true>(F, r.a0 + j + r.d, f);
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
      const Four f = forceFour(r, j, in);
      const int at = kFuse + j - j0;
      _mm256_store_pd(c.x + at, f.x), _mm256_store_pd(c.y + at, f.y),
          _mm256_store_pd(c.z + at, f.z);
    }
    for (; j < j0 + length; ++j) {
      double f[3];
      runForce(in, runStiffness(r, j, in), runRest(r, j, in), r.a0 + j, r.a0 + j + r.d, f);
      const int at = kFuse + j - j0;
      c.x[at] = f[0], c.y[at] = f[1], c.z[at] = f[2];
    }
    const int reach = c.reach(j0, length, r.length, r.d), a0 = r.a0 + j0;
    int i = 0;
    for (; i + 4 <= reach; i += 4) {
      const int at = kFuse + i;
      const Four diff{_mm256_sub_pd(_mm256_loadu_pd(c.x + at - r.d), _mm256_loadu_pd(c.x + at)),
                      _mm256_sub_pd(_mm256_loadu_pd(c.y + at - r.d), _mm256_loadu_pd(c.y + at)),
                      _mm256_sub_pd(_mm256_loadu_pd(c.z + at - r.d), _mm256_loadu_pd(c.z + at))};
      accumulateFour<true>(F, a0 + i, diff);
    }
    addChunkDifferences(c, a0, r.d, i, reach, F);
    c.carry(length, r.d);
  }
}

// The AVX-512 kernels (runAvx512 below): eight springs, or eight particles, at once.
struct Eight {
  __m512d x, y, z;
};
// Lanes beyond a run's end are masked off: not read (zeros), not written.
__attribute__((target("avx512f"))) inline __mmask8 firstLanes(int count) {
  return count >= 8 ? __mmask8(0xFF) : __mmask8((1u << count) - 1u);
}
// A full eight (m == kAllLanes, a constant where the loops below call with it) is loaded and
// stored without a mask: masked stores cost this machine's kernel more (docs/benchmarks.md).
constexpr __mmask8 kAllLanes = 0xFF;
__attribute__((target("avx512f"))) inline __m512d load8(__mmask8 m, const double* p) {
  return m == kAllLanes ? _mm512_loadu_pd(p) : _mm512_maskz_loadu_pd(m, p);
}
__attribute__((target("avx512f"))) inline void store8(double* p, __mmask8 m, __m512d v) {
  if (m == kAllLanes)
    _mm512_storeu_pd(p, v);
  else
    _mm512_mask_storeu_pd(p, m, v);
}
__attribute__((target("avx512f"))) inline Eight loadEight(__mmask8 m, const double* x,
                                                          const double* y, const double* z, int i) {
  return {load8(m, x + i), load8(m, y + i), load8(m, z + i)};
}
template <bool kAdd>
__attribute__((target("avx512f"))) inline void accumulateEight(__mmask8 m, Components F, int i,
                                                               const Eight& f) {
  const Eight old = loadEight(m, F.x, F.y, F.z, i);
  store8(F.x + i, m, kAdd ? _mm512_add_pd(old.x, f.x) : _mm512_sub_pd(old.x, f.x));
  store8(F.y + i, m, kAdd ? _mm512_add_pd(old.y, f.y) : _mm512_sub_pd(old.y, f.y));
  store8(F.z + i, m, kAdd ? _mm512_add_pd(old.z, f.z) : _mm512_sub_pd(old.z, f.z));
}
// A run's k and rest lengths from spring j on, eight at a time: streamed from the copies, or for a
// uniform run the first pair broadcast.
struct RunConstants {
  const double *K, *R;
  bool uniform;
};
__attribute__((target("avx512f"))) inline __m512d constants8(__mmask8 m, const double* from, int j,
                                                             bool uniform) {
  return uniform ? _mm512_set1_pd(from[0]) : load8(m, from + j);
}

// Springs j .. j + 7 of a run (the lanes of m) with ends lo + lane and hi + lane, k and rest
// lengths k and rest: forceFour's operations. A masked-off lane reads zeros: zero length,
// so no force and a division by 1.
__attribute__((target("avx512f"))) inline Eight forceEight(__mmask8 m, const RunInput& in, int lo,
                                                           int hi, __m512d k, __m512d rest) {
  const Eight a = loadEight(m, in.x, in.y, in.z, lo), b = loadEight(m, in.x, in.y, in.z, hi);
  const __m512d dx = _mm512_sub_pd(b.x, a.x), dy = _mm512_sub_pd(b.y, a.y),
                dz = _mm512_sub_pd(b.z, a.z);
  const __m512d l = _mm512_sqrt_pd(_mm512_add_pd(
      _mm512_add_pd(_mm512_mul_pd(dx, dx), _mm512_mul_pd(dy, dy)), _mm512_mul_pd(dz, dz)));
  const __m512d zero = _mm512_setzero_pd();
  const __mmask8 live = _mm512_cmp_pd_mask(l, zero, _CMP_GT_OQ);
  const __m512d safe = _mm512_mask_blend_pd(live, _mm512_set1_pd(1.0), l);
  const __m512d coef = _mm512_add_pd(zero, _mm512_mul_pd(k, _mm512_sub_pd(l, rest)));
  const __m512d minus = _mm512_castsi512_pd(
      _mm512_xor_si512(_mm512_castpd_si512(coef), _mm512_set1_epi64(INT64_MIN)));
  const __m512d sc = _mm512_div_pd(minus, safe);
  return {_mm512_maskz_mul_pd(live, sc, dx), _mm512_maskz_mul_pd(live, sc, dy),
          _mm512_maskz_mul_pd(live, sc, dz)};
}

// Lane l of the result: f[l - D] where l >= D, else prev[8 - D + l] (the eight before f).
template <int D>
__attribute__((target("avx512f"))) inline __m512d shiftIn(__m512d f, __m512d prev) {
  return _mm512_castsi512_pd(
      _mm512_alignr_epi64(_mm512_castpd_si512(f), _mm512_castpd_si512(prev), 8 - D));
}
// Particles i .. i + 7 (the lanes of m) of a run with ends D apart: F += f[p - D] - f[p], from
// this eight's springs' forces f and prev, the eight's before.
template <int D>
__attribute__((target("avx512f"))) inline void addDifferences(__mmask8 m, Components F, int i,
                                                              const Eight& f, const Eight& prev) {
  const Eight diff{_mm512_sub_pd(shiftIn<D>(f.x, prev.x), f.x),
                   _mm512_sub_pd(shiftIn<D>(f.y, prev.y), f.y),
                   _mm512_sub_pd(shiftIn<D>(f.z, prev.z), f.z)};
  accumulateEight<true>(m, F, i, diff);
}
// Springs j .. j + 7 of a run with ends D < 8 apart (the lanes of m), the particles' terms in the
// lanes of `ends`; prev: the eight before, then these.
template <int D>
__attribute__((target("avx512f"))) inline void closeEight(__mmask8 m, __mmask8 ends,
                                                          const RunInput& in, int a0, int j,
                                                          const RunConstants& kr, Components F,
                                                          Eight& prev) {
  const Eight f = forceEight(m, in, a0 + j, a0 + j + D, constants8(m, kr.K, j, kr.uniform),
                             constants8(m, kr.R, j, kr.uniform));
  addDifferences<D>(ends, F, a0 + j, f, prev);
  prev = f;
}
// Springs j .. j + 7 (the lanes of m) of a run with ends d apart, d >= 8: each end's terms apart.
__attribute__((target("avx512f"))) inline void farEight(__mmask8 m, const RunInput& in, int a0,
                                                        int d, int j, const RunConstants& kr,
                                                        Components F) {
  const Eight f = forceEight(m, in, a0 + j, a0 + j + d, constants8(m, kr.K, j, kr.uniform),
                             constants8(m, kr.R, j, kr.uniform));
  accumulateEight<false>(m, F, a0 + j, f);
  accumulateEight<true>(m, F, a0 + j + d, f);
}
// A run with ends D < 8 apart (a cloth's rows): runScalar's differences eight particles at a time,
// the eight springs' forces before held in registers.
template <int D>
__attribute__((target("avx512f"))) void closeRunAvx512(const RunInput& in, int a0, int length,
                                                       const RunConstants& kr, Components F) {
  const __m512d zero = _mm512_setzero_pd();
  Eight prev{zero, zero, zero};
  int j = 0;
  for (; j + 8 <= length; j += 8) closeEight<D>(kAllLanes, kAllLanes, in, a0, j, kr, F, prev);
  if (j < length) {
    closeEight<D>(firstLanes(length - j), firstLanes(length + D - j), in, a0, j, kr, F, prev);
    j += 8;
  }
  if (length + D > j)  // the last particles' terms from the last eight
    addDifferences<D>(firstLanes(length + D - j), F, a0 + j, Eight{zero, zero, zero}, prev);
}

// runAvx2 eight springs at a time (AVX-512F), the last eight of a run masked: the same
// operations lane for lane, so the same bits, with half the instructions a spring and no scalar
// tail (up to a ninth of a cloth's springs: runs of 63 leave 7).
__attribute__((target("avx512f"))) void runAvx512(const SpringRuns::Run& r, const RunInput& in,
                                                  Components F) {
  if (!in.run_stiffness) {  // the model's constants, read through the spring index
    runAvx2(r, in, F);
    return;
  }
  const int a0 = r.a0, d = r.d, length = r.length;
  const double *K = in.run_stiffness + r.first, *R = in.run_rest + r.first;
  if (d >= kFuse) {
    const RunConstants kr{K, R, r.uniform};
    int j = 0;
    for (; j + 8 <= length; j += 8) farEight(kAllLanes, in, a0, d, j, kr, F);
    if (j < length) farEight(firstLanes(length - j), in, a0, d, j, kr, F);
    return;
  }
  using CloseRun = void (*)(const RunInput&, int, int, const RunConstants&, Components);
  static constexpr CloseRun kCloseRuns[] = {nullptr,           closeRunAvx512<1>, closeRunAvx512<2>,
                                            closeRunAvx512<3>, closeRunAvx512<4>, closeRunAvx512<5>,
                                            closeRunAvx512<6>, closeRunAvx512<7>};
  if (d < 8)
    kCloseRuns[d](in, a0, length, {K, R, r.uniform}, F);
  else
    runAvx2(r, in, F);  // 8 <= d < kFuse: none in a cloth
}

__attribute__((target("avx2"))) bool anyPositiveAvx2(const double* first, const double* last) {
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
__attribute__((target("avx2"))) int splitAvx2(const double* P, const BodyForces& body, int from,
                                              int to, Components X, Components F) {
  const __m256d gx = _mm256_set1_pd(body.gravity[0]), gy = _mm256_set1_pd(body.gravity[1]),
                gz = _mm256_set1_pd(body.gravity[2]);
  int i = from;
  for (; i + 4 <= to; i += 4) {
    const Four x = loadInterleaved(P + 3 * i);
    _mm256_storeu_pd(X.x + i, x.x), _mm256_storeu_pd(X.y + i, x.y), _mm256_storeu_pd(X.z + i, x.z);
    const __m256d mass = _mm256_loadu_pd(body.mass + i),
                  fixed = _mm256_cmp_pd(_mm256_loadu_pd(body.inv_mass + i), _mm256_setzero_pd(),
                                        _CMP_EQ_OQ);  // their gravity: +0
    _mm256_storeu_pd(F.x + i, _mm256_andnot_pd(fixed, _mm256_mul_pd(mass, gx)));
    _mm256_storeu_pd(F.y + i, _mm256_andnot_pd(fixed, _mm256_mul_pd(mass, gy)));
    _mm256_storeu_pd(F.z + i, _mm256_andnot_pd(fixed, _mm256_mul_pd(mass, gz)));
  }
  return i;
}
__attribute__((target("avx2"))) int mergeAvx2(Components F, const BodyForces& body, int from,
                                              int to, double* P) {
  // four particles' 12 numbers: the wind's components and the free mask in their order
  const __m256d w0 = _mm256_setr_pd(body.wind[0], body.wind[1], body.wind[2], body.wind[0]),
                w1 = _mm256_setr_pd(body.wind[1], body.wind[2], body.wind[0], body.wind[1]),
                w2 = _mm256_setr_pd(body.wind[2], body.wind[0], body.wind[1], body.wind[2]);
  const __m256d c = _mm256_set1_pd(body.drag);
  int i = from;
  for (; i + 4 <= to; i += 4) {
    double* p = P + 3 * i;
    storeInterleaved(p, loadFour(F.x, F.y, F.z, i));
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
