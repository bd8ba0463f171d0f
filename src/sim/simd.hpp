// Which vector path the hand-vectorised kernels take: AVX-512 (xpbd's sweeps, sim/xpbd_kernels.hpp,
// and the spring runs, sim/spring_runs.hpp), AVX2 (those and time_fe's solves) or scalar, chosen
// at run time from what the processor has (__builtin_cpu_supports; the build stays generic x86-64)
// and from these switches, which tests and benchmarks turn off to compare the paths. Every path
// gives the same bits (docs/architecture.md#threads); the operations they share are in
// sim/simd_lanes.hpp. Process-wide.
#pragma once

namespace sim {

bool simdAvailable();   // the processor runs the AVX2 path
bool simdEnabled();     // it is available and not switched off
void setSimd(bool on);  // off: the scalar path everywhere, whatever setWideSimd says

// The eight-lane kernels of the runs and of xpbd's sweeps; off: the AVX2 kernels in their place.
bool wideSimdAvailable();  // AVX-512F and AVX-512VL (xpbd's kernels are built for the latter)
bool wideSimdEnabled();    // available and not switched off
void setWideSimd(bool on);

// The kernels in use now: "AVX-512", "AVX2" or "scalar" (benchmarks print it).
const char* runKernels();

}  // namespace sim
