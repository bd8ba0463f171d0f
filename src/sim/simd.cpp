#include "sim/simd.hpp"

#include <atomic>

namespace sim {

namespace {
std::atomic<bool> simd_switch{true}, wide_switch{true};
}  // namespace

bool simdAvailable() {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(SPRINGLAB_NO_SIMD)
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

bool wideSimdAvailable() {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(SPRINGLAB_NO_SIMD)
  static const bool avx512 =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  return avx512;
#else
  return false;
#endif
}

bool wideSimdEnabled() {
  return wide_switch.load(std::memory_order_relaxed) && wideSimdAvailable();
}

void setWideSimd(bool on) {
  wide_switch.store(on, std::memory_order_relaxed);
}

const char* runKernels() {
  return !simdEnabled() ? "scalar" : wideSimdEnabled() ? "AVX-512" : "AVX2";
}

}  // namespace sim
