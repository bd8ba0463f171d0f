#include "sim/parallel.hpp"

#include <algorithm>
#include <thread>

namespace sim {

namespace {
thread_local int t_kernel_threads = 1;
}

int kernelThreads() {
  return t_kernel_threads;
}

void setKernelThreads(int n) {
  t_kernel_threads = std::clamp(n, 1, kMaxKernelThreads);
}

int hardwareThreads() {
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace sim
