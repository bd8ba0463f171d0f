// The kernels' thread team (util/team.hpp): OpenMP's static split, barriers that publish every
// member's writes, and workers that sleep between teams and wake for the next.
#include <doctest/doctest.h>

#include <chrono>
#include <numeric>
#include <thread>
#include <vector>

#include "util/team.hpp"

namespace {

// The member that OpenMP's schedule(static) gives iteration i of [0, n) among t threads: blocks
// of n / t, the first n % t one longer.
int staticOwner(int i, int n, int t) {
  const int q = n / t, r = n % t;
  const int long_part = r * (q + 1);
  return i < long_part ? i / (q + 1) : r + (i - long_part) / q;
}

}  // namespace

TEST_CASE("util: team: forEach runs every index once, on the member of OpenMP's static split") {
  for (int threads : {1, 2, 3, 7}) {
    for (int n : {0, 1, 5, 7, 100, 1001}) {
      std::vector<int> owner(n, -1), count(n, 0);
      util::runTeam(threads, [&](util::TeamMember& team) {
        team.forEach(0, n, [&](int i) {
          owner[i] = team.id();
          ++count[i];
        });
      });
      for (int i = 0; i < n; ++i) {
        CAPTURE(threads);
        CAPTURE(n);
        CAPTURE(i);
        CHECK(count[i] == 1);
        CHECK(owner[i] == staticOwner(i, n, threads));
      }
    }
  }
}

TEST_CASE("util: team: a barrier publishes each member's writes to the others") {
  // Each phase reads the neighbours' values of the previous phase: a missing or leaky barrier
  // mixes phases and the sums come out wrong (Jacobi smoothing of a ramp, 200 phases, two
  // buffers).
  constexpr int kN = 4096, kPhases = 200;
  std::vector<double> a(kN), b(kN), expect(kN);
  std::iota(a.begin(), a.end(), 0.0);
  expect = a;
  std::vector<double> scratch(kN);
  for (int p = 0; p < kPhases; ++p) {
    for (int i = 0; i < kN; ++i)
      scratch[i] = i == 0 || i == kN - 1 ? expect[i] : (expect[i - 1] + expect[i + 1]) / 2.0;
    expect.swap(scratch);
  }
  for (int threads : {2, 3}) {
    std::vector<double> x = a, y = b;
    util::runTeam(threads, [&](util::TeamMember& team) {
      for (int p = 0; p < kPhases; ++p) {
        const std::vector<double>& from = p % 2 == 0 ? x : y;
        std::vector<double>& to = p % 2 == 0 ? y : x;
        team.forEach(0, kN, [&](int i) {
          to[i] = i == 0 || i == kN - 1 ? from[i] : (from[i - 1] + from[i + 1]) / 2.0;
        });
      }
    });
    const std::vector<double>& result = kPhases % 2 == 0 ? x : y;
    CAPTURE(threads);
    CHECK(result == expect);  // the same operations in the same order: bit for bit
  }
}

TEST_CASE("util: team: single runs once, and the workers wake from sleep for the next team") {
  int singles = 0;
  std::vector<int> seen;
  for (int run = 0; run < 3; ++run) {
    std::vector<int> member_ran(2, 0);
    util::runTeam(2, [&](util::TeamMember& team) {
      member_ran[team.id()] = 1;
      team.single([&] { ++singles; });
    });
    seen.push_back(member_ran[0] + member_ran[1]);
    // longer than the workers poll (0.75 ms): they are asleep when the next team starts
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(singles == 3);
  CHECK(seen == std::vector<int>{2, 2, 2});
  // a team of another size replaces the workers
  std::vector<int> sizes(5, 0);
  util::runTeam(5, [&](util::TeamMember& team) { sizes[team.id()] = team.size(); });
  CHECK(sizes == std::vector<int>(5, 5));
}
