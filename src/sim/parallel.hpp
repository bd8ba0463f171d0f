// How many threads the simulation kernels (the coloured spring projections of xpbd, the spring
// force pass) may use on the calling thread (docs/architecture.md#threads). Each thread has its own
// setting, 1 by default, so a sweep's or a background job's worker never spawns more: only the
// threads that own the machine (the command line's main thread, the window's simulation) raise it.
// Results never depend on it: kernels split work so that every number is computed by the same
// operations in the same order whatever the count.
#pragma once

namespace sim {

// The threads the next kernel may use: the setting, or 1 while the calling thread's team has not
// been worth its threads (util::TeamGovernor: a busy machine).
int kernelThreads();
int kernelThreadsSetting();
void setKernelThreads(int n);  // clamped to [1, kMaxKernelThreads]
int hardwareThreads();         // std::thread::hardware_concurrency(), at least 1

inline constexpr int kMaxKernelThreads = 64;

// Below this many springs a kernel stays on one thread (measured: xpbd on a 16 x 16 cloth, 1.4k
// springs, ran slower on two: the barriers cost more than the springs).
inline constexpr int kMinSpringsPerThread = 4096;

}  // namespace sim
