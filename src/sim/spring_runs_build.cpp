// The runs' construction (sim/spring_runs.hpp, docs/architecture.md#spring-runs): once a topology
// and once a change of its constants, apart from the pass in runs (spring_runs.cpp), every step.
#include "sim/spring_runs.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

namespace sim {

namespace {

constexpr int kBlocks = 16;     // blocks of particles per system (a block's size: the count alone)
constexpr int kMinBlock = 256;  // particles: smaller systems have fewer blocks

struct Key {
  int block, d, lo, s;
};

// The runs of the sorted keys (by block, d, lower end, spring): maximal stretches of one block
// and one d whose lower ends follow one another and whose spring indices step evenly.
void scanRuns(const std::vector<Key>& keys, SpringRuns& r, std::vector<int>& runBlock) {
  size_t i = 0;
  while (i < keys.size()) {
    SpringRuns::Run run{keys[i].lo, keys[i].d, 1, keys[i].s, 0};
    size_t j = i + 1;
    for (; j < keys.size(); ++j) {
      const Key& k = keys[j];
      if (k.block != keys[i].block || k.d != run.d || k.lo != run.a0 + run.length) break;
      const int ds = k.s - keys[j - 1].s;
      if (run.length > 1 && ds != run.ds) break;
      run.ds = ds;
      ++run.length;
    }
    run.first = r.runs.empty() ? 0 : r.runs.back().first + r.runs.back().length;
    r.runs.push_back(run);
    runBlock.push_back(keys[i].block);
    i = j;
  }
}

}  // namespace

SpringRuns buildSpringRuns(const std::vector<int>& a, const std::vector<int>& b, int n) {
  SpringRuns r;
  r.block = std::max(kMinBlock, (n + kBlocks - 1) / kBlocks);
  std::vector<Key> keys;
  keys.reserve(a.size());
  for (int s = 0; s < static_cast<int>(a.size()); ++s) {
    const int lo = std::min(a[s], b[s]), d = std::abs(b[s] - a[s]);
    if (d == 0 || d >= r.block)  // a run's ends must lie in its block or the next
      r.loose.push_back(s);
    else
      keys.push_back({lo / r.block, d, lo, s});
  }
  std::sort(keys.begin(), keys.end(), [](const Key& x, const Key& y) {
    return std::tie(x.block, x.d, x.lo, x.s) < std::tie(y.block, y.d, y.lo, y.s);
  });
  std::vector<int> runBlock;
  scanRuns(keys, r, runBlock);
  std::sort(r.loose.begin(), r.loose.end());
  const int blocks = (n + r.block - 1) / r.block;
  r.block_start.assign(static_cast<size_t>(blocks) + 1, 0);
  for (int blk : runBlock) ++r.block_start[static_cast<size_t>(blk) + 1];
  for (int k = 0; k < blocks; ++k) r.block_start[k + 1] += r.block_start[k];
  return r;
}

void copyRunConstants(SpringRuns& runs, const double* stiffness, const double* rest,
                      std::uint64_t revision) {
  runs.stiffness.clear(), runs.rest.clear();
  for (SpringRuns::Run& r : runs.runs) {
    r.uniform = true;
    for (int j = 0; j < r.length; ++j) {
      runs.stiffness.push_back(stiffness[r.s0 + r.ds * j]);
      runs.rest.push_back(rest[r.s0 + r.ds * j]);
      // bitwise equal (a NaN would not be, and -0 == +0 is no identity)
      r.uniform =
          r.uniform &&
          std::memcmp(&runs.stiffness.back(), &runs.stiffness[r.first], sizeof(double)) == 0 &&
          std::memcmp(&runs.rest.back(), &runs.rest[r.first], sizeof(double)) == 0;
    }
  }
  runs.revision = revision;
}

void noteDashpots(SpringRuns& runs, const double* damping, std::int64_t count,
                  std::uint64_t damping_revision) {
  runs.dashpots = anyPositive(damping, damping + count);
  runs.dashpots_at = damping_revision;
}

}  // namespace sim
