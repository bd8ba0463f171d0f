#include "sim/parallel.hpp"

#include <algorithm>
#include <thread>

#include "util/team.hpp"

namespace sim {

namespace {
thread_local int t_kernel_threads = 1;
}

int kernelThreads() {
  // fewer while the team has not been worth its threads (a busy machine): util::TeamGovernor
  return util::teamGovernor().size(t_kernel_threads);
}

int kernelThreadsSetting() {
  return t_kernel_threads;
}

void setKernelThreads(int n) {
  t_kernel_threads = std::clamp(n, 1, kMaxKernelThreads);
}

int hardwareThreads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace sim
