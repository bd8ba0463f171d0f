#include "lab/step_limit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "lab/sweep.hpp"
#include "sim/system.hpp"

namespace lab {

namespace {

// The grid runs from kScanTop times the linear limit down to at least its kScanBottom-th part
// (a factor 2 either way of the linear limit, the contract's tolerance, and twice that), and on
// below the smallest step that diverged until kSurvivorsBelow steps in a row have held (a
// factor 2 of steps that hold: a chaotic system's boundary is ragged, and a sweep finds its
// smallest diverging step).
constexpr double kScanTop = 4.0;
constexpr double kScanBottom = 4.0;
constexpr int kSurvivorsBelow = 4;
// The cost bound, in particle (or link) force passes (the registry's force_passes; a method with
// a solver counts one): a few seconds at most (a step of a 100-link pendulum takes ~3.6 us); a
// larger scan ends where it stands.
constexpr double kMaxScanWork = 1e8;

double passesPerStep(sim::Method m) {
  return std::max(1, sim::info(m).force_passes);
}

std::string secondsText(double t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", t);
  return buf;
}

// The scan of one method, each grid step one sweep cell over `seconds`, within `budget` (spent).
void scan(const scene::SceneDef& def, int dofs, double seconds, StepLimit& l, double& budget) {
  SweepSpec spec;
  spec.def = def;
  spec.methods = {l.method};
  spec.seconds = seconds;
  l.measured = true;
  const double top = kScanTop * *l.linear, bottom = *l.linear / kScanBottom;
  int held = 0;  // grid steps in a row that held, since the last that diverged
  bool diverged = false;
  for (double dt = top;; dt /= kScanRatio) {
    if (dt < bottom * (1.0 - 1e-12) && (!diverged || held >= kSurvivorsBelow)) return;
    const double work = std::ceil(seconds / dt) * dofs * passesPerStep(l.method);
    if (work > budget) {
      l.stopped = "the cost bound stopped the scan before dt = " + secondsText(dt) + " s";
      return;
    }
    spec.dt = {dt, dt, 1};
    const CellResult cell = runCell(spec, 0);
    // a diverging run ends early (a scene starts at t = 0)
    budget -= work * std::clamp(cell.t_end / seconds, 0.0, 1.0);
    l.scan.push_back({dt, cell.cls == CellClass::Diverged});
    diverged = diverged || l.scan.back().diverged;
    held = l.scan.back().diverged ? 0 : held + 1;
  }
}

}  // namespace

std::optional<double> StepLimit::firstDiverged() const {
  std::optional<double> first;
  for (const ScanPoint& p : scan)
    if (p.diverged) first = p.dt;
  return first;
}

std::optional<double> StepLimit::solidFrom() const {
  std::optional<double> solid, largest;
  int run = 0;  // steps in a row that diverged, from the top down
  for (const ScanPoint& p : scan) {
    run = p.diverged ? run + 1 : 0;
    if (p.diverged && !largest) largest = p.dt;
    // every step from the top down to here diverged, or at least kSolidRun in a row
    if (p.diverged && (run >= kSolidRun || run == static_cast<int>(&p - scan.data()) + 1))
      solid = p.dt;
  }
  return solid ? solid : largest;
}

std::optional<double> StepLimit::limit() const {
  const auto first = firstDiverged();
  if (first) return std::sqrt(*first * *solidFrom());
  return linear;
}

std::vector<StepLimit> stepLimits(const scene::SceneDef& def, const sim::System& system,
                                  const sim::MotionSpectrum& spectrum, double seconds,
                                  const std::vector<sim::Method>& methods) {
  std::vector<StepLimit> limits;
  double budget = kMaxScanWork;
  const bool measure = sim::linearLimitMayFail(system) && seconds > 0.0;
  for (const sim::Method m : methods.empty() ? system.integrators() : methods) {
    StepLimit& l = limits.emplace_back();
    l.method = m;
    l.linear = sim::dtLimit(m, spectrum.omega_max);
    if (measure && l.linear && *l.linear > 0.0 && std::isfinite(*l.linear))
      scan(def, std::max(1, system.dofs()), seconds, l, budget);
  }
  return limits;
}

}  // namespace lab
