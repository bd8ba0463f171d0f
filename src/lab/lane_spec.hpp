// Lane SPECs, `NAME`, `NAME@DT`, each optionally followed by its own set-up `:KEY=VALUE...`
// (docs/cli.md#compare, docs/lab.md#parameter-lanes): the lanes of `compare`, `record --lanes` and
// the window's `--lanes`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/facets.hpp"
#include "sim/parameters.hpp"
#include "sim/registry.hpp"

namespace sim {
class System;
}

namespace lab {

// One `KEY=VALUE` of a parameter lane (docs/lab.md#parameter-lanes): a row of the parameter table
// that events take (stiffness_scale, drag...), or a scale of the model itself: `mass_scale` (every
// moving body's mass) or, for a pendulum, `length_scale` (every link's length).
struct LaneSetting {
  std::string key;
  std::optional<sim::Parameter> parameter;  // a row of the parameter table, or
  std::optional<sim::Scale> scale;          // mass_scale or length_scale (sim/facets.hpp)
  double value = 0.0;
};

struct LaneSpec {
  sim::Method method = sim::Method::Euler;
  std::optional<double> dt;           // s; none: the scene's or --dt
  std::vector<LaneSetting> settings;  // the lane's own set-up, in the order given
  std::string text;                   // as given
  // Whether the lane sets parameter p itself (a change of p to the other lanes passes it by).
  bool sets(sim::Parameter p) const;
  // "stiffness_scale=4:mass_scale=2" as given, empty for a lane of the scene's own set-up
  std::string setup() const;
};

// The range of mass_scale and length_scale: a factor beyond it is a typing slip, not a set-up
// (a thousand times the mass is already another scene).
constexpr double kSetupScaleMin = 1e-3;
constexpr double kSetupScaleMax = 1e3;

constexpr int kMinLanes = 2;  // compare: fewer is `run`
constexpr int kMaxLanes = 8;

// "rk4,verlet@0.001:stiffness_scale=4" for a `kind` system into `out`; returns the problem or
// nothing ("lane 2 \"verlet@x\": dt must be a finite number > 0", an integrator that does not
// apply, a key that does not apply to the kind...).
std::optional<std::string> parseLaneSpecs(const std::string& text, sim::SystemKind kind,
                                          std::vector<LaneSpec>& out);
// The set-up `KEY=VALUE[:KEY=VALUE...]` alone (the panel's field) into `out`.
std::optional<std::string> parseLaneSetup(const std::string& text, sim::SystemKind kind,
                                          std::vector<LaneSetting>& out);

// Gives `system` (a lane's own copy of the scene's) the lane's set-up: each parameter set, each
// moving body's mass or each link's length scaled. Returns the first problem, or nothing.
std::optional<std::string> applyLaneSettings(const std::vector<LaneSetting>& settings,
                                             sim::System& system);
// After a change of the scene's parameters (the panel, an event, Reset): `lane`'s copy takes every
// parameter of `scene` it does not set itself, and its mouse spring.
void followParameters(const sim::System& scene, const std::vector<LaneSetting>& settings,
                      sim::System& lane);

}  // namespace lab
