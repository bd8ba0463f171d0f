// Lane SPECs, `NAME` or `NAME@DT` (docs/cli.md#compare): the lanes of `compare`, `record --lanes`
// and the window's `--lanes`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/registry.hpp"

namespace lab {

struct LaneSpec {
  sim::Method method = sim::Method::Euler;
  std::optional<double> dt;  // s; none: the scene's or --dt
  std::string text;          // as given
};

constexpr int kMinLanes = 2;  // compare: fewer is `run`
constexpr int kMaxLanes = 8;

// "rk4,verlet@0.001" for a `kind` system into `out`; returns the problem or nothing ("lane 2
// \"verlet@x\": dt must be a finite number > 0", an integrator that does not apply...).
std::optional<std::string> parseLaneSpecs(const std::string& text, sim::SystemKind kind,
                                          std::vector<LaneSpec>& out);

}  // namespace lab
