#include "sim/spring_runs.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "sim/xpbd_kernels.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SPRINGLAB_X86_SIMD 1
#endif

namespace sim {

namespace {

constexpr int kBlocks = 16;     // blocks of particles per system (a block's size: the count alone)
constexpr int kMinBlock = 256;  // particles: smaller systems have fewer blocks
constexpr int kMinRun = 4;      // springs: a shorter run is summed spring by spring
constexpr int kChunk = 64;      // springs whose forces are held at once (on the stack)

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
    if (run.length >= kMinRun) {
      run.first = r.runs.empty() ? 0 : r.runs.back().first + r.runs.back().length;
      r.runs.push_back(run);
      runBlock.push_back(keys[i].block);
    } else {
      for (size_t k = i; k < j; ++k) r.loose.push_back(keys[k].s);
    }
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
  for (const SpringRuns::Run& r : runs.runs)
    for (int j = 0; j < r.length; ++j) {
      runs.stiffness.push_back(stiffness[r.s0 + r.ds * j]);
      runs.rest.push_back(rest[r.s0 + r.ds * j]);
    }
  runs.revision = revision;
}

namespace {

struct ChunkForces {
  alignas(32) double x[kChunk], y[kChunk], z[kChunk];
};

// A spring's force on its higher end hi (its lower end lo gets the opposite): sim/forces.cpp's
// springForce without the dashpot, operation for operation.
inline void runForce(const double* X, double k, double rest, int lo, int hi, ChunkForces& f,
                     int j) {
  const double dx = X[3 * hi] - X[3 * lo], dy = X[3 * hi + 1] - X[3 * lo + 1],
               dz = X[3 * hi + 2] - X[3 * lo + 2];
  const double l = std::sqrt(dx * dx + dy * dy + dz * dz);
  if (!(l > 0.0)) {
    f.x[j] = f.y[j] = f.z[j] = 0.0;
    return;
  }
  double coef = 0.0;
  coef += k * (l - rest);
  const double sc = -coef / l;
  f.x[j] = sc * dx, f.y[j] = sc * dy, f.z[j] = sc * dz;
}

// Spring j of run r's k and rest length: the runs' copies where current, else the model's.
inline double runStiffness(const SpringRuns::Run& r, int j, const RunInput& in) {
  return in.run_stiffness ? in.run_stiffness[r.first + j] : in.stiffness[r.s0 + r.ds * j];
}
inline double runRest(const SpringRuns::Run& r, int j, const RunInput& in) {
  return in.run_rest ? in.run_rest[r.first + j] : in.rest[r.s0 + r.ds * j];
}

// Springs [j0, j1) of run r, one at a time: forces, then -f on the lower ends, +f on the higher.
void chunkScalar(const SpringRuns::Run& r, int j0, int j1, const RunInput& in, double* F) {
  ChunkForces f;
  for (int j = j0; j < j1; ++j)
    runForce(in.X, runStiffness(r, j, in), runRest(r, j, in), r.a0 + j, r.a0 + j + r.d, f, j - j0);
  for (int j = j0; j < j1; ++j) {
    double* p = F + 3 * (r.a0 + j);
    p[0] -= f.x[j - j0], p[1] -= f.y[j - j0], p[2] -= f.z[j - j0];
  }
  for (int j = j0; j < j1; ++j) {
    double* p = F + 3 * (r.a0 + j + r.d);
    p[0] += f.x[j - j0], p[1] += f.y[j - j0], p[2] += f.z[j - j0];
  }
}

#ifdef SPRINGLAB_X86_SIMD

// Four consecutive particles' x y z (12 doubles from p) as x, y and z of the four.
struct Four {
  __m256d x, y, z;
};
__attribute__((target("avx2"))) inline Four loadFour(const double* p) {
  const __m256d v0 = _mm256_loadu_pd(p), v1 = _mm256_loadu_pd(p + 4), v2 = _mm256_loadu_pd(p + 8);
  const __m256d a = _mm256_permute2f128_pd(v0, v1, 0x30);  // x0 y0 | x2 y2
  const __m256d b = _mm256_permute2f128_pd(v0, v2, 0x21);  // z0 x1 | z2 x3
  const __m256d c = _mm256_permute2f128_pd(v1, v2, 0x30);  // y1 z1 | y3 z3
  return {_mm256_blend_pd(a, b, 0b1010), _mm256_shuffle_pd(a, c, 0b0101),
          _mm256_blend_pd(b, c, 0b1010)};
}
// The inverse: four particles' x, y, z back to 12 doubles, added to (sign +1) or taken from p.
template <bool kAdd>
__attribute__((target("avx2"))) inline void accumulateFour(double* p, const Four& f) {
  const __m256d a = _mm256_unpacklo_pd(f.x, f.y);       // x0 y0 | x2 y2
  const __m256d c = _mm256_unpackhi_pd(f.y, f.z);       // y1 z1 | y3 z3
  const __m256d b = _mm256_blend_pd(f.z, f.x, 0b1010);  // z0 x1 | z2 x3
  const __m256d v[3] = {_mm256_permute2f128_pd(a, b, 0x20), _mm256_permute2f128_pd(c, a, 0x30),
                        _mm256_permute2f128_pd(b, c, 0x31)};
  for (int k = 0; k < 3; ++k) {
    const __m256d old = _mm256_loadu_pd(p + 4 * k);
    _mm256_storeu_pd(p + 4 * k, kAdd ? _mm256_add_pd(old, v[k]) : _mm256_sub_pd(old, v[k]));
  }
}

// Springs j .. j + 3 of run r: runForce's operations in its order, four lanes at once; a lane
// whose length is not positive gets 0 and divides by 1 (no trap).
__attribute__((target("avx2"))) inline void forceFour(const SpringRuns::Run& r, int j,
                                                      const RunInput& in, ChunkForces& f, int at) {
  const Four lo = loadFour(in.X + 3 * (r.a0 + j)), hi = loadFour(in.X + 3 * (r.a0 + j + r.d));
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
  _mm256_store_pd(f.x + at, _mm256_and_pd(_mm256_mul_pd(sc, dx), live));
  _mm256_store_pd(f.y + at, _mm256_and_pd(_mm256_mul_pd(sc, dy), live));
  _mm256_store_pd(f.z + at, _mm256_and_pd(_mm256_mul_pd(sc, dz), live));
}

// chunkScalar's sums, four springs at a time (each particle gets its terms in the same order).
__attribute__((target("avx2"))) void chunkAvx2(const SpringRuns::Run& r, int j0, int j1,
                                               const RunInput& in, double* F) {
  ChunkForces f;
  int j = j0;
  for (; j + 4 <= j1; j += 4) forceFour(r, j, in, f, j - j0);
  for (; j < j1; ++j)
    runForce(in.X, runStiffness(r, j, in), runRest(r, j, in), r.a0 + j, r.a0 + j + r.d, f, j - j0);
  for (const bool higher : {false, true}) {
    const int offset = higher ? r.d : 0;
    for (j = j0; j + 4 <= j1; j += 4) {
      const Four four{_mm256_load_pd(f.x + (j - j0)), _mm256_load_pd(f.y + (j - j0)),
                      _mm256_load_pd(f.z + (j - j0))};
      double* p = F + 3 * (r.a0 + j + offset);
      higher ? accumulateFour<true>(p, four) : accumulateFour<false>(p, four);
    }
    for (; j < j1; ++j) {
      double* p = F + 3 * (r.a0 + j + offset);
      const double sign = higher ? 1.0 : -1.0;  // +f or -f, exactly
      p[0] += sign * f.x[j - j0], p[1] += sign * f.y[j - j0], p[2] += sign * f.z[j - j0];
    }
  }
}

#endif

}  // namespace

void addBlockSpringForces(const SpringRuns& runs, int block, const RunInput& in, double* F) {
#ifdef SPRINGLAB_X86_SIMD
  const bool simd = simdEnabled();
#endif
  for (int k = runs.block_start[block]; k < runs.block_start[block + 1]; ++k) {
    const SpringRuns::Run& r = runs.runs[static_cast<size_t>(k)];
    for (int j0 = 0; j0 < r.length; j0 += kChunk) {
      const int j1 = std::min(r.length, j0 + kChunk);
#ifdef SPRINGLAB_X86_SIMD
      if (simd) {
        chunkAvx2(r, j0, j1, in, F);
        continue;
      }
#endif
      chunkScalar(r, j0, j1, in, F);
    }
  }
}

void addLooseSpringForces(const SpringRuns& runs, const std::vector<int>& spring_a,
                          const std::vector<int>& spring_b, const RunInput& in, double* F) {
  ChunkForces f;
  for (int s : runs.loose) {
    const int a = spring_a[static_cast<size_t>(s)], b = spring_b[static_cast<size_t>(s)];
    runForce(in.X, in.stiffness[s], in.rest[s], a, b, f, 0);
    F[3 * b] += f.x[0], F[3 * b + 1] += f.y[0], F[3 * b + 2] += f.z[0];
    F[3 * a] -= f.x[0], F[3 * a + 1] -= f.y[0], F[3 * a + 2] -= f.z[0];
  }
}

}  // namespace sim
