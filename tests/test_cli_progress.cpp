// The progress line (docs/cli.md, run: Progress), driven by a hand-set clock into a string.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "cli/progress.hpp"
#include "util.hpp"

namespace {

// A command of `total` steps at `secondsPerStep`, each step reported with update(); returns
// what went to the sink.
struct FakeRun {
  double now = 0.0;  // s
  int clockReads = 0;
  std::string sink;
  cli::Progress progress;
  FakeRun(long long total)
      : progress(
            "springlab run", "steps", total,
            [this] {
              ++clockReads;
              return now;
            },
            [this](const std::string& s) { sink += s; }) {}
  void steps(long long from, long long to, double secondsPerStep, double dt) {
    for (long long k = from; k <= to; ++k) {
      now = static_cast<double>(k) * secondsPerStep;
      progress.update(k, static_cast<double>(k) * dt);
    }
  }
};

int count(const std::string& s, char c) {
  return static_cast<int>(std::count(s.begin(), s.end(), c));
}

}  // namespace

TEST_CASE("a command expected to take under 2 s prints no progress") {
  FakeRun run(1500);  // 1.5 s at 1 ms per step
  run.steps(1, 1500, 1e-3, 1e-4);
  run.progress.finish(1500, 0.15);
  CHECK(run.sink.empty());
  CHECK_FALSE(run.progress.shown());
}

TEST_CASE("a long command shows its progress after half a second, a few times per second") {
  FakeRun run(10000);  // 10 s at 1 ms per step
  run.steps(1, 500, 1e-3, 1e-4);
  CHECK(run.sink.empty());  // the rate is not trusted before 0.5 s
  run.steps(501, 10000, 1e-3, 1e-4);
  // the clock is read every ~0.05 s of work (every 50 steps here), not at every step
  CHECK(run.clockReads < 250);
  // first drawn at the first reading after 0.5 s: step 501, 9.499 s of work left
  CHECK(run.sink.rfind("\rspringlab run: 501/10000 steps (5%), t = 0.0501 s, 1e+03 steps/s, 9 s "
                       "left\r",
                       0) == 0);
  // redrawn every 0.25 s or a reading later (0.05 s) from 0.5 s to 10 s: 32 to 39 drawings
  const int drawings = count(run.sink, '\r');
  CHECK(drawings >= 32);
  CHECK(drawings <= 39);
  CHECK(run.sink.find('\n') == std::string::npos);
  CHECK(run.progress.shown());

  run.sink.clear();
  run.progress.finish(10000, 1.0);
  CHECK(run.sink.rfind("\rspringlab run: 10000/10000 steps (100%), t = 1 s, 1e+03 steps/s", 0) ==
        0);
  CHECK(run.sink.back() == '\n');
  CHECK(run.sink.find("left") == std::string::npos);
}

TEST_CASE("clear erases the progress line so that other text starts at the margin") {
  FakeRun run(10000);
  run.steps(1, 600, 1e-3, 1e-4);
  REQUIRE(run.progress.shown());
  const size_t width = run.sink.size() - 1;  // one drawing so far, after its '\r'
  std::string erased(width + 2, ' ');
  erased.front() = erased.back() = '\r';
  run.sink.clear();
  run.progress.clear();
  CHECK(run.sink == erased);
  run.progress.clear();  // nothing on screen: nothing to erase
  CHECK(run.sink == erased);
}

TEST_CASE("a disabled progress line prints nothing") {
  std::string sink;
  cli::Progress p("springlab bench", "cells", 10, nullptr,
                  [&](const std::string& s) { sink += s; });
  for (int k = 1; k <= 10; ++k) p.update(k, NAN);
  p.finish(10, NAN);
  CHECK(sink.empty());
  // the binary's standard error is a file in the tests: no progress line even for a run of a
  // second or so (cloth_32 takes about 60 us per step, 8000 steps)
  const auto r = testutil::springlab({"run", "cloth_32", "--duration", "2"});
  CHECK(r.status == 0);
  CHECK(r.err.empty());
}
