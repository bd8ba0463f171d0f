#include "lab/sweep.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <mutex>
#include <thread>

#include "lab/lane.hpp"
#include "scene/build.hpp"
#include "util/number.hpp"

namespace lab {

namespace {

// The energy drift and the runaway rule are checked this many times over a cell (and at its
// end): often enough to see a blow-up as the window's per-frame check would (every 1/200 of the
// run), rarely enough that the checks (about a step each) cost ~1 % of a run.
constexpr long long kChecksPerCell = 200;
// Cancellation is looked at every this many steps.
constexpr long long kCancelEvery = 256;

bool parsePositive(const std::string& s, double& out) {
  return util::parseFiniteNumber(s, out) && out > 0;
}

// The method's own relative energy error: the energy ledger's balance
// |E - E0 + W_dissipated - W_external| over the drift's reference (docs/cli.md#sweep). Without
// dissipation it is the energy drift; with it, the drag's physical work does not count.
double energyError(const Lane& lane) {
  return std::abs(lane.ledger().residual) / sim::driftReference(lane.e0(), lane.scales());
}

}  // namespace

double GridAxis::value(int i) const {
  if (n <= 1 || i <= 0) return lo;
  if (i >= n - 1) return hi;  // exactly HI, not lo * (hi/lo)^1 with its rounding
  return lo * std::pow(hi / lo, static_cast<double>(i) / (n - 1));
}

std::optional<std::string> parseGridAxis(const std::string& text, GridAxis& out) {
  const auto c1 = text.find(':');
  const auto c2 = c1 == std::string::npos ? c1 : text.find(':', c1 + 1);
  if (c2 == std::string::npos || text.find(':', c2 + 1) != std::string::npos)
    return "must be LO:HI:N, not \"" + text + "\"";
  const std::string n = text.substr(c2 + 1);
  const long long count = util::parseWholeNumber(n).value_or(0);
  if (count < 1 || count > 1000000)
    return "N must be a whole number from 1 to 1000000, not \"" + n + "\"";
  if (!parsePositive(text.substr(0, c1), out.lo) ||
      !parsePositive(text.substr(c1 + 1, c2 - c1 - 1), out.hi))
    return "LO and HI must be finite numbers > 0, not \"" + text + "\"";
  if (out.lo > out.hi) return "LO > HI in \"" + text + "\"";
  out.n = static_cast<int>(count);
  return std::nullopt;
}

const char* className(CellClass c) {
  switch (c) {
    case CellClass::Stable:
      return "stable";
    case CellClass::Drifting:
      return "drifting";
    case CellClass::Diverged:
      return "diverged";
  }
  return "?";
}

size_t cellCount(const SweepSpec& spec) {
  return spec.methods.size() * static_cast<size_t>(spec.dt.n) *
         static_cast<size_t>(spec.stiffness.n);
}

CellResult runCell(const SweepSpec& spec, size_t index, const std::atomic<bool>* cancel) {
  const size_t nk = static_cast<size_t>(spec.stiffness.n), nd = static_cast<size_t>(spec.dt.n);
  CellResult r;
  r.index = index;
  r.method = spec.methods[index / (nd * nk)];
  r.dt = spec.dt.value(static_cast<int>(index / nk % nd));
  r.stiffness_scale = spec.stiffness.value(static_cast<int>(index % nk));
  scene::Built built = scene::build(spec.def);
  if (r.stiffness_scale != 1.0)
    built.setParameter(sim::Parameter::StiffnessScale, r.stiffness_scale);
  Lane lane(built, built.state, r.method, r.dt);
  const long long steps = std::max(1LL, std::llround(spec.seconds / r.dt));
  const long long checkEvery = std::max(1LL, steps / kChecksPerCell);
  r.t_end = lane.state().t;
  for (long long k = 1; k <= steps; ++k) {
    if (cancel && k % kCancelEvery == 0 && cancel->load()) break;
    if (!lane.step() || ((k % checkEvery == 0 || k == steps) && lane.checkRunaway())) break;
    if (k % checkEvery == 0 || k == steps) r.drift = std::max(r.drift, energyError(lane));
    r.t_end = lane.state().t;
  }
  if (lane.diverged()) {
    r.cls = CellClass::Diverged;
    r.t_end = lane.divergence()->t;
  } else {
    r.cls = r.drift > spec.threshold ? CellClass::Drifting : CellClass::Stable;
  }
  return r;
}

std::vector<CellResult> runSweep(const SweepSpec& spec, int shardIndex, int shardCount, int threads,
                                 const std::function<void(const CellResult&)>& onCell,
                                 const std::atomic<bool>* cancel) {
  std::vector<size_t> cells;  // this shard's grid indices, in grid order
  for (size_t i = static_cast<size_t>(shardIndex - 1); i < cellCount(spec);
       i += static_cast<size_t>(shardCount))
    cells.push_back(i);
  std::vector<CellResult> results(cells.size());
  std::vector<char> done(cells.size(), 0);
  // longest first (a cell costs about T / dt steps): no long cell left for one thread at the end
  std::vector<size_t> order(cells.size());
  for (size_t j = 0; j < order.size(); ++j) order[j] = j;
  const size_t nk = static_cast<size_t>(spec.stiffness.n), nd = static_cast<size_t>(spec.dt.n);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return cells[a] / nk % nd < cells[b] / nk % nd;  // smaller dt index: smaller dt, more steps
  });
  std::atomic<size_t> next{0};
  std::mutex report;
  auto worker = [&] {
    for (size_t i = next++; i < cells.size(); i = next++) {
      const size_t j = order[i];
      if (cancel && cancel->load()) return;
      results[j] = runCell(spec, cells[j], cancel);
      if (cancel && cancel->load()) return;
      std::lock_guard lock(report);
      done[j] = 1;
      if (onCell) onCell(results[j]);
    }
  };
  std::vector<std::thread> pool;
  const int n = std::max(1, std::min<int>(threads, static_cast<int>(cells.size())));
  for (int t = 1; t < n; ++t) pool.emplace_back(worker);
  worker();  // the calling thread works too
  for (auto& t : pool) t.join();
  std::vector<CellResult> finished;
  for (size_t j = 0; j < cells.size(); ++j)
    if (done[j]) finished.push_back(results[j]);
  return finished;
}

}  // namespace lab
