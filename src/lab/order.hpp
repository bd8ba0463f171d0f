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

// The runs: h, h/2, h/4 for the order, h/8 to check that they are in the asymptotic range.
inline constexpr int kRuns = 4;

struct OrderResult {
  sim::Method method;
  double order = 0.0;  // NaN when undefined (note says why)
  std::string note;    // e.g. "diverged at h/2", "not in the asymptotic range: ..."
};

// Each method from the scene's initial state for `duration` at h, h/2, h/4 and h/8
// (round(duration / h) steps and 2, 4, 8 times as many). The difference of two runs is the
// largest absolute difference of a position or velocity coordinate at the end. The order is
// Richardson's from h, h/2 and h/4; it is NaN, with a note, where it means nothing: a run
// diverged (a value not finite, or the runaway rule), the differences do not shrink with h, or
// the order from h/2, h/4 and h/8 disagrees with it (the runs are not in their asymptotic range),
// or the differences are at round-off. `cancel` stops between steps (the methods not done get
// NaN and "cancelled").
std::vector<OrderResult> measureOrders(const scene::SceneDef& def,
                                       std::span<const sim::Method> methods, double h,
                                       double duration, const std::atomic<bool>* cancel = nullptr);

}  // namespace lab
