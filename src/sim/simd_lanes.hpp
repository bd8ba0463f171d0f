// The vector operations of the hand-vectorised kernels (xpbd's sweeps, sim/xpbd_kernels.cpp; the
// spring runs, sim/spring_runs.cpp; time_fe's solves, sim/time_fe.cpp), for those .cpp files only:
// it brings in the intrinsics and silences, for the file that includes it, the warnings below.
// Which width runs is sim/simd.hpp's choice, made at run time.
//
// A width is a struct of operations under one set of names, Avx2 (four doubles a vector) and Avx512
// (eight), so that a kernel is written once, as a template over the width, and instantiated in a
// function of that width's target whose calls are all inlined into it (`flatten`): the template
// itself then needs no target attribute (docs/architecture.md#threads). Each arithmetic operation
// is one IEEE-754 instruction, correctly rounded, and none is fused (-ffp-contract=off: the AVX-512
// targets have fused multiply-adds, the AVX2 one has none), so a kernel that does the scalar code's
// operations in its order gives the scalar code's bits in every lane
// (docs/architecture.md#determinism).
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(SPRINGLAB_NO_SIMD)
#include <immintrin.h>

#include <cstdint>

#define SPRINGLAB_X86_SIMD 1

// vectors passed between functions that are all inlined into one: no calling convention to keep
#pragma GCC diagnostic ignored "-Wpsabi"
// GCC 12's AVX-512 headers pass _mm512_undefined_pd() as the unused source of their masked
// builtins, which its uninitialised-use analysis reports once inlined (GCC bug 105593)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// The widths' targets. Avx512's operations need AVX-512F alone, so they inline into the spring
// runs' kernels (built for AVX-512F) and xpbd's (built for AVX-512F and VL, which
// sim::wideSimdAvailable requires of the processor for both).
#define SPRINGLAB_AVX2 __attribute__((target("avx2")))
#define SPRINGLAB_AVX512 __attribute__((target("avx512f")))
#define SPRINGLAB_AVX512VL __attribute__((target("avx512f,avx512vl")))

namespace sim::simd {

struct Avx2 {
  static constexpr int kLanes = 4;
  using V = __m256d;
  using Mask = __m256d;  // all ones in the lanes where true
  SPRINGLAB_AVX2 static V load(const double* p) { return _mm256_loadu_pd(p); }
  SPRINGLAB_AVX2 static void store(double* p, V a) { _mm256_storeu_pd(p, a); }
  SPRINGLAB_AVX2 static V set1(double a) { return _mm256_set1_pd(a); }
  SPRINGLAB_AVX2 static V zero() { return _mm256_setzero_pd(); }
  SPRINGLAB_AVX2 static V add(V a, V b) { return _mm256_add_pd(a, b); }
  SPRINGLAB_AVX2 static V sub(V a, V b) { return _mm256_sub_pd(a, b); }
  SPRINGLAB_AVX2 static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  SPRINGLAB_AVX2 static V div(V a, V b) { return _mm256_div_pd(a, b); }
  SPRINGLAB_AVX2 static V sqrt(V a) { return _mm256_sqrt_pd(a); }
  // -a: the sign bit flipped, as C++'s unary minus (0 - a would turn -0 into +0)
  SPRINGLAB_AVX2 static V negate(V a) { return _mm256_xor_pd(a, _mm256_set1_pd(-0.0)); }
  template <int kPredicate>
  SPRINGLAB_AVX2 static Mask compare(V a, V b) {
    return _mm256_cmp_pd(a, b, kPredicate);
  }
  SPRINGLAB_AVX2 static Mask both(Mask a, Mask b) { return _mm256_and_pd(a, b); }
  SPRINGLAB_AVX2 static V select(Mask m, V if_false, V if_true) {
    return _mm256_blendv_pd(if_false, if_true, m);
  }
  // a b in the lanes of m, +0 in the others
  SPRINGLAB_AVX2 static V mulWhere(Mask m, V a, V b) {
    return _mm256_and_pd(_mm256_mul_pd(a, b), m);
  }
  // the coordinate offsets 3 i of the particles v[0 .. kLanes), into `at`
  SPRINGLAB_AVX2 static void offsets(const int* v, int* at) {
    const __m128i k = _mm_loadu_si128(reinterpret_cast<const __m128i*>(v));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(at), _mm_add_epi32(_mm_add_epi32(k, k), k));
  }
};

struct Avx512 {
  static constexpr int kLanes = 8;
  using V = __m512d;
  using Mask = __mmask8;
  static constexpr Mask kAll = 0xFF;
  SPRINGLAB_AVX512 static V load(const double* p) { return _mm512_loadu_pd(p); }
  SPRINGLAB_AVX512 static void store(double* p, V a) { _mm512_storeu_pd(p, a); }
  // The lanes of m only (the others read as zeros, not written): a run's last eight. A full eight
  // (m == kAll, a constant where a loop calls with it) goes without a mask, which costs the
  // spring runs' kernel more on the machines measured (docs/benchmarks.md).
  SPRINGLAB_AVX512 static V load(const double* p, Mask m) {
    return m == kAll ? _mm512_loadu_pd(p) : _mm512_maskz_loadu_pd(m, p);
  }
  SPRINGLAB_AVX512 static void store(double* p, V a, Mask m) {
    if (m == kAll)
      _mm512_storeu_pd(p, a);
    else
      _mm512_mask_storeu_pd(p, m, a);
  }
  SPRINGLAB_AVX512 static Mask firstLanes(int count) {
    return count >= kLanes ? kAll : Mask((1u << count) - 1u);
  }
  SPRINGLAB_AVX512 static V set1(double a) { return _mm512_set1_pd(a); }
  SPRINGLAB_AVX512 static V zero() { return _mm512_setzero_pd(); }
  SPRINGLAB_AVX512 static V add(V a, V b) { return _mm512_add_pd(a, b); }
  SPRINGLAB_AVX512 static V sub(V a, V b) { return _mm512_sub_pd(a, b); }
  SPRINGLAB_AVX512 static V mul(V a, V b) { return _mm512_mul_pd(a, b); }
  SPRINGLAB_AVX512 static V div(V a, V b) { return _mm512_div_pd(a, b); }
  SPRINGLAB_AVX512 static V sqrt(V a) { return _mm512_sqrt_pd(a); }
  // AVX-512F has no xor of doubles (that is AVX-512DQ): the sign bit flipped as integers
  SPRINGLAB_AVX512 static V negate(V a) {
    return _mm512_castsi512_pd(
        _mm512_xor_si512(_mm512_castpd_si512(a), _mm512_set1_epi64(INT64_MIN)));
  }
  template <int kPredicate>
  SPRINGLAB_AVX512 static Mask compare(V a, V b) {
    return _mm512_cmp_pd_mask(a, b, kPredicate);
  }
  SPRINGLAB_AVX512 static Mask both(Mask a, Mask b) { return a & b; }
  SPRINGLAB_AVX512 static V select(Mask m, V if_false, V if_true) {
    return _mm512_mask_blend_pd(m, if_false, if_true);
  }
  SPRINGLAB_AVX512 static V mulWhere(Mask m, V a, V b) { return _mm512_maskz_mul_pd(m, a, b); }
  SPRINGLAB_AVX512 static void offsets(const int* v, int* at) {
    const __m256i k = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(at),
                        _mm256_add_epi32(_mm256_add_epi32(k, k), k));
  }
};

// The three coordinates of a lane's particle (or spring).
template <class W>
struct Xyz {
  typename W::V x, y, z;
};

// a . b and a - b, lane by lane, in the scalar code's order: (x x + y y) + z z.
template <class W>
inline typename W::V dot(const Xyz<W>& a, const Xyz<W>& b) {
  return W::add(W::add(W::mul(a.x, b.x), W::mul(a.y, b.y)), W::mul(a.z, b.z));
}
template <class W>
inline Xyz<W> minus(const Xyz<W>& a, const Xyz<W>& b) {
  return {W::sub(a.x, b.x), W::sub(a.y, b.y), W::sub(a.z, b.z)};
}

// Particles stored as x y z triples (a state's arrays) into lanes by component, a particle a lane,
// and back: with the operations above, what a width has to have for the kernels that use it.

// The coordinates of four particles from their coordinate offsets (3 i) in an array of x y z
// triples: one unaligned load of x, y, z and the next number per particle, then a 4 x 4 transpose.
// Eight gathers' worth of work for a quarter of their cost on the processors measured
// (docs/benchmarks.md#vectorised-sweeps); the caller guarantees one readable double past the last
// particle (xpbd's sweeps pad their arrays: kSweepPadding).
SPRINGLAB_AVX2 inline Xyz<Avx2> gather(Avx2, const double* base, const int* off) {
  const __m256d r0 = _mm256_loadu_pd(base + off[0]), r1 = _mm256_loadu_pd(base + off[1]),
                r2 = _mm256_loadu_pd(base + off[2]), r3 = _mm256_loadu_pd(base + off[3]);
  const __m256d xz01 = _mm256_unpacklo_pd(r0, r1), y01 = _mm256_unpackhi_pd(r0, r1),
                xz23 = _mm256_unpacklo_pd(r2, r3), y23 = _mm256_unpackhi_pd(r2, r3);
  return {_mm256_permute2f128_pd(xz01, xz23, 0x20), _mm256_permute2f128_pd(y01, y23, 0x20),
          _mm256_permute2f128_pd(xz01, xz23, 0x31)};
}

// Particles k and k + 4 side by side in one register: x, y, z and the next number of each.
SPRINGLAB_AVX512 inline __m512d loadPair(const double* base, const int* off, int k) {
  return _mm512_insertf64x4(_mm512_zextpd256_pd512(_mm256_loadu_pd(base + off[k])),
                            _mm256_loadu_pd(base + off[k + 4]), 1);
}

// The same for eight particles: particles k and k + 4 in one register, the 4 x 4 transpose of
// the AVX2 path within each half, then two cross-lane permutations a coordinate.
SPRINGLAB_AVX512 inline Xyz<Avx512> gather(Avx512, const double* base, const int* off) {
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

// The x y z of four particles stored one after another (12 doubles from p), and back.
SPRINGLAB_AVX2 inline Xyz<Avx2> loadTriples(const double* p) {
  const __m256d v0 = _mm256_loadu_pd(p), v1 = _mm256_loadu_pd(p + 4), v2 = _mm256_loadu_pd(p + 8);
  const __m256d a = _mm256_permute2f128_pd(v0, v1, 0x30);  // x0 y0 | x2 y2
  const __m256d b = _mm256_permute2f128_pd(v0, v2, 0x21);  // z0 x1 | z2 x3
  const __m256d c = _mm256_permute2f128_pd(v1, v2, 0x30);  // y1 z1 | y3 z3
  return {_mm256_blend_pd(a, b, 0b1010), _mm256_shuffle_pd(a, c, 0b0101),
          _mm256_blend_pd(b, c, 0b1010)};
}
SPRINGLAB_AVX2 inline void storeTriples(double* p, const Xyz<Avx2>& f) {
  const __m256d a = _mm256_unpacklo_pd(f.x, f.y);       // x0 y0 | x2 y2
  const __m256d c = _mm256_unpackhi_pd(f.y, f.z);       // y1 z1 | y3 z3
  const __m256d b = _mm256_blend_pd(f.z, f.x, 0b1010);  // z0 x1 | z2 x3
  _mm256_storeu_pd(p, _mm256_permute2f128_pd(a, b, 0x20));
  _mm256_storeu_pd(p + 4, _mm256_permute2f128_pd(c, a, 0x30));
  _mm256_storeu_pd(p + 8, _mm256_permute2f128_pd(b, c, 0x31));
}

}  // namespace sim::simd

#endif
