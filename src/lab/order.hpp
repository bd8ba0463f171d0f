// The observed order of convergence of integrators on a scene (docs/cli.md#order): runs at h,
// h/2 and h/4, and Richardson's estimate log2(|x_h - x_h/2| / |x_h/2 - x_h/4|) on the final state.
#pragma once

#include <atomic>
#include <span>
#include <string>
#include <vector>

#include "scene/scene_def.hpp"
#include "sim/registry.hpp"

namespace lab {

struct OrderResult {
  sim::Method method;
  double order = 0.0;  // NaN when undefined (note says why)
  std::string note;    // e.g. "diverged at h/2", "differences at round-off"
};

// Each method from the scene's initial state for `duration` at h, h/2, h/4 (round(duration / h)
// steps and 2, 4 times as many). The difference of two runs is the largest absolute difference
// of a position or velocity coordinate at the end. `cancel` stops between steps (the methods not
// done get NaN and "cancelled").
std::vector<OrderResult> measureOrders(const scene::SceneDef& def,
                                       std::span<const sim::Method> methods, double h,
                                       double duration, const std::atomic<bool>* cancel = nullptr);

}  // namespace lab
