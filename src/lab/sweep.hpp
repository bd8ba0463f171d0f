// Stability maps (docs/cli.md#sweep): independent cells (integrator, dt, stiffness scale), each a
// run of the scene classified stable, drifting or diverged, on a pool of worker threads. The same
// code serves `springlab sweep` and the window's stability map (app/lab_jobs.hpp).
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scene/scene_def.hpp"
#include "sim/registry.hpp"

namespace lab {

// LO:HI:N, N values spaced geometrically from LO to HI, both included (N = 1: LO).
struct GridAxis {
  double lo = 1.0, hi = 1.0;
  int n = 1;
  double value(int i) const;
};
// "LO:HI:N" into `out`; the problem ("must be LO:HI:N", "N must be a whole number >= 1", "LO and
// HI must be finite numbers > 0", "LO > HI") or nothing.
std::optional<std::string> parseGridAxis(const std::string& text, GridAxis& out);

enum class CellClass { Stable, Drifting, Diverged };
const char* className(CellClass c);  // "stable", "drifting", "diverged"

struct SweepSpec {
  scene::SceneDef def;
  std::vector<sim::Method> methods;
  GridAxis dt, stiffness;
  double seconds = 1.0;     // s of simulated time per cell
  double threshold = 0.01;  // relative energy error (CellResult::drift) above which it drifts
};

struct CellResult {
  size_t index = 0;  // in grid order: integrator, then dt, then stiffness
  sim::Method method = sim::Method::Euler;
  double dt = 0.0, stiffness_scale = 1.0;
  CellClass cls = CellClass::Stable;
  // the largest relative energy error seen: the ledger's balance |E - E0 + W_diss - W_ext| over
  // the drift's reference (sim/diagnostics.hpp); the energy drift when nothing dissipates
  double drift = 0.0;
  double t_end = 0.0;  // s: the divergence's time, or the run's end
};

size_t cellCount(const SweepSpec& spec);
// A grid of more cells is refused before any is listed (docs/cli.md#limits): each cell is a whole
// simulation, a million of them a thousand-by-thousand map, and the grid's lists take about 100
// bytes a cell; two axes of the largest N (1 000 000 each) would ask for terabytes.
inline constexpr size_t kMaxSweepCells = 1'000'000;
// One cell. `cancel` stops it early (its result is then meaningless).
CellResult runCell(const SweepSpec& spec, size_t index, const std::atomic<bool>* cancel = nullptr);
// The cells of shard `shardIndex` of `shardCount` (grid index = shardIndex - 1 mod shardCount)
// on `threads` workers; `onCell` is called as each finishes, one call at a time. Returns the
// results in grid order (all cells of the shard unless cancelled).
std::vector<CellResult> runSweep(const SweepSpec& spec, int shardIndex, int shardCount, int threads,
                                 const std::function<void(const CellResult&)>& onCell,
                                 const std::atomic<bool>* cancel = nullptr);

}  // namespace lab
