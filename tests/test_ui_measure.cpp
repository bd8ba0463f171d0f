// The measuring overlays' geometry without a picture (docs/exploring.md#ruler, docs/lab.md#period):
// where the ruler's reading goes, clear of the bodies at its ends, and where the phase portrait
// breaks its line.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ui/panel.hpp"

namespace {

// The distance from point (px, py) to the box [x0, x0 + w] x [y0, y0 + h].
float distanceToBox(float px, float py, ui::LabelSpot s, float w, float h) {
  const float dx = std::max({s.x - px, 0.0f, px - (s.x + w)});
  const float dy = std::max({s.y - py, 0.0f, py - (s.y + h)});
  return std::hypot(dx, dy);
}

// The distance from the box to the segment a-b, sampled finely along the segment.
float boxToSegment(const ui::RulerView& r, ui::LabelSpot s, float w, float h) {
  float best = std::numeric_limits<float>::infinity();
  for (int k = 0; k <= 1000; ++k) {
    const float f = float(k) / 1000.0f;
    best =
        std::min(best, distanceToBox(r.ax + f * (r.bx - r.ax), r.ay + f * (r.by - r.ay), s, w, h));
  }
  return best;
}

}  // namespace

TEST_CASE("ruler: its reading keeps clear of the bodies at both ends and of its line") {
  constexpr float kW = 210.0f, kH = 21.0f, kClear = 24.0f;  // a reading's band; a bob's radius
  struct Case {
    const char* what;
    ui::RulerView r;
  };
  const Case cases[] = {
      {"short and level (the reading is longer than the ruler)", {300, 400, 380, 400}},
      {"along a rod hanging from a pivot", {500, 100, 520, 330}},
      {"vertical", {500, 100, 500, 330}},
      {"steep, leaning left", {500, 100, 440, 200}},
      {"no length", {600, 300, 600, 300}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const ui::LabelSpot s = ui::rulerLabelSpot(c.r, kW, kH, kClear);
    CHECK(distanceToBox(c.r.ax, c.r.ay, s, kW, kH) >= kClear - 0.01f);
    CHECK(distanceToBox(c.r.bx, c.r.by, s, kW, kH) >= kClear - 0.01f);
    CHECK(boxToSegment(c.r, s, kW, kH) >= kClear - 0.5f);  // off the line too
  }
  // which side: above a level ruler (up the screen), right of a vertical one
  const ui::LabelSpot level = ui::rulerLabelSpot({300, 400, 380, 400}, kW, kH, kClear);
  CHECK(level.y + kH <= 400.0f - kClear);
  const ui::LabelSpot vertical = ui::rulerLabelSpot({500, 100, 500, 330}, kW, kH, kClear);
  CHECK(vertical.x >= 500.0f + kClear);
  // the old place, down and right of the middle, covered the far end of a short level ruler
  CHECK(distanceToBox(380, 400, {340 + 8, 400 + 8}, kW, kH) < kClear);
}

TEST_CASE("phase plot: its line breaks at a gap in time, at time going back and at NaN only") {
  std::vector<float> t, q, v;
  auto sample = [&](float time) {
    t.push_back(time), q.push_back(std::cos(time)), v.push_back(-std::sin(time));
  };
  for (int k = 0; k < 50; ++k) sample(k / 60.0f);         // 0 .. 49: frames at 60 Hz
  for (int k = 0; k < 30; ++k) sample(2.0f + k / 60.0f);  // 50 .. 79: after a 1.2 s hitch
  for (int k = 0; k < 20; ++k) sample(0.1f + k / 60.0f);  // 80 .. 99: a seek back
  q[90] = std::numeric_limits<float>::quiet_NaN();        // 90 left out
  for (int k = 1; k < 5; ++k) t[95 + k] = t[95] + 3.5f * k / 60.0f;  // slower frames: joined
  const std::vector<ui::PhaseRun> runs = ui::phaseRuns(t, q, v);
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].first == 0);
  CHECK(runs[0].last == 49);
  CHECK(runs[1].first == 50);
  CHECK(runs[1].last == 79);
  CHECK(runs[2].first == 80);
  CHECK(runs[2].last == 89);
  CHECK(runs[3].first == 91);
  CHECK(runs[3].last == 99);
  // without times: one line but for the NaN
  CHECK(ui::phaseRuns({}, q, v).size() == 2);
}

TEST_CASE(
    "culprit pointer: none on screen, and off it on the box's inset edge towards the culprit") {
  // the box: x 100..900, y 50..650 (a viewport right of a panel, below a banner); inset 10
  const auto at = [](float sx, float sy, bool behind = false) {
    return ui::offscreenPointer(sx, sy, behind, 100, 50, 900, 650, 10);
  };
  CHECK_FALSE(at(500, 350).pointed);
  CHECK_FALSE(at(101, 649).pointed);
  CHECK_FALSE(at(NAN, 10).pointed);
  // straight right of the centre (500, 350): the tip on the right edge, 10 px in, pointing +x
  const ui::OffscreenPointer right = at(5000, 350);
  REQUIRE(right.pointed);
  CHECK(right.x == doctest::Approx(890));
  CHECK(right.y == doctest::Approx(350));
  CHECK(right.dx == doctest::Approx(1));
  CHECK(right.dy == doctest::Approx(0).epsilon(1e-6));
  // up and right at 45 degrees: the box is wider than high, so the top edge is met first
  const ui::OffscreenPointer corner = at(500 + 1000, 350 - 1000);
  REQUIRE(corner.pointed);
  CHECK(corner.y == doctest::Approx(60));
  CHECK(corner.x == doctest::Approx(500 + 290));
  // under the banner counts as off screen: the culprit there is covered
  const ui::OffscreenPointer above = at(500, 20);
  REQUIRE(above.pointed);
  CHECK(above.y == doctest::Approx(60));
  CHECK(above.dy == doctest::Approx(-1));
  // behind the camera the projection is mirrored: a point projected left is pointed at right
  const ui::OffscreenPointer behind = at(300, 350, true);
  REQUIRE(behind.pointed);
  CHECK(behind.dx == doctest::Approx(1));
}
