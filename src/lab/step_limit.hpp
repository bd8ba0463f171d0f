// Each integrator's step limit over a scene's motion (docs/integrators.md#stability-limits): the
// linear limit sim::dtLimit at the motion's omega_max, and where that may miss
// (sim::linearLimitMayFail: a pendulum's explicit methods), the step at which the method's own
// runs diverge, found by the sweep's cells (lab::runCell) on a grid around the linear limit.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "scene/scene_def.hpp"
#include "sim/registry.hpp"
#include "sim/spectrum.hpp"

namespace lab {

struct ScanPoint {
  double dt = 0.0;  // s
  bool diverged = false;
};

struct StepLimit {
  sim::Method method = sim::Method::Euler;
  std::optional<double> linear;  // s, sim::dtLimit at omega_max (none: unconditionally stable)
  bool measured = false;         // whether runs of the method looked for its divergence
  std::vector<ScanPoint> scan;   // the runs, largest step first
  std::string stopped;  // why the scan ended before its grid's bottom (its cost bound), or empty
  // s: the smallest grid step whose run diverged; the smallest from which every step diverged
  // (kSolidRun in a row, or up to the grid's top; the largest that diverged if no run is that long)
  std::optional<double> firstDiverged() const;
  std::optional<double> solidFrom() const;
  // The limit: where runs diverged, the geometric middle of firstDiverged and solidFrom (a
  // chaotic system's boundary is ragged: a sweep's smallest diverging step lies between the two,
  // by where its grid falls); else the linear one.
  std::optional<double> limit() const;
};

// The grid's spacing: a factor 2^(1/4), as fine as a sweep of 25 steps over a factor 16.
constexpr double kScanRatio = 1.189207115002721;
constexpr int kSolidRun = 3;

// Every applicable integrator's limit on the scene `def` (built as `system`) over `seconds`,
// given its motion's spectrum. Runs only where the linear limit may miss, within a cost bound.
// `methods`: these alone (info --integrators), else every one that applies.
std::vector<StepLimit> stepLimits(const scene::SceneDef& def, const sim::System& system,
                                  const sim::MotionSpectrum& spectrum, double seconds,
                                  const std::vector<sim::Method>& methods = {});

}  // namespace lab
