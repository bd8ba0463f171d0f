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

TEST_CASE("util: team: the governor keeps the team or one thread, whichever runs faster") {
  using namespace std::chrono;
  using G = util::TeamGovernor;
  auto now = G::Clock::time_point{} + hours(1);
  // `runs` kernel runs of `took` each, `waited` of it waiting, as runTeam records them; returns
  // how many members the governor gave the last of them
  auto kernels = [&](G& g, int runs, microseconds took, microseconds waited) {
    int size = 0;
    for (int i = 0; i < runs; ++i) {
      size = g.size(2);
      REQUIRE(g.takeGoverned());
      now += took;
      g.record(took, size > 1 ? waited : microseconds(0), now);
    }
    return size;
  };
  G off;  // off, as made: the team whatever it costs, and nothing is timed
  CHECK(off.size(2) == 2);
  CHECK_FALSE(off.takeGoverned());
  G g;
  g.enable(true);
  CHECK(g.size(1) == 1);
  CHECK_FALSE(g.takeGoverned());  // one thread asked: nothing to govern
  // a quiet machine: a team run takes 100 us, one thread 180 us. A first window of the team
  // (4 ms), then a trial window alone, which loses: the team stays for the next 100 ms
  CHECK(kernels(g, 40, microseconds(100), microseconds(10)) == 2);
  CHECK(g.alone());  // the trial
  CHECK(kernels(g, 23, microseconds(180), microseconds(0)) == 1);
  CHECK_FALSE(g.alone());
  const auto trial = now + 2 * G::kFirstHold;
  CHECK(kernels(g, 40, microseconds(100), microseconds(10)) == 2);
  CHECK_FALSE(g.alone());
  // the machine gets busy: a team run takes 1 ms, waiting 0.3 ms (less than it works), one thread
  // 0.5 ms. The team stays until its trial falls due, and one thread wins it
  int guard = 0;
  while (!g.alone() && ++guard < 1000) kernels(g, 1, microseconds(1000), microseconds(300));
  CHECK(now >= trial);
  CHECK(now < trial + G::kWindow + milliseconds(1));
  CHECK(kernels(g, 8, microseconds(500), microseconds(0)) == 1);
  CHECK(g.alone());  // chosen now, for a hold that starts over at 50 ms
  // still busy: the team's next trial (its first member idle at the barriers) loses, and the hold
  // doubles
  const auto hold_over = now + G::kFirstHold;
  while (g.alone() && ++guard < 10000) kernels(g, 1, microseconds(500), microseconds(0));
  CHECK(now >= hold_over);
  CHECK(now < hold_over + G::kWindow + milliseconds(1));
  CHECK(kernels(g, 4, microseconds(1000), microseconds(600)) == 2);
  CHECK(g.alone());
  const auto longer = now + 2 * G::kFirstHold;
  while (g.alone() && ++guard < 10000) kernels(g, 1, microseconds(500), microseconds(0));
  CHECK(now >= longer);
  // quiet again: the team's trial wins, by more than the margin
  CHECK(kernels(g, 40, microseconds(100), microseconds(10)) == 2);
  CHECK_FALSE(g.alone());
  // a team window whose first member waits longer than it works ends the team at once
  CHECK(kernels(g, 4, microseconds(1000), microseconds(600)) == 2);
  CHECK(g.alone());
}
