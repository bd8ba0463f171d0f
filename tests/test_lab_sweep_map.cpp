// The stability map's picture (lab/sweep_map.hpp, docs/cli.md#sweep) and the text it is written
// with (util/text.hpp): text where the layout says, nothing overlapping, cells and the limit line
// where the grid puts them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "lab/sweep_map.hpp"
#include "scene/load.hpp"
#include "util/text.hpp"

namespace {

// DejaVu Sans (the embedded font): 2048 units per em, ascent 1901, descent -483, every digit
// 1303 units wide, the space 651. At 23.84 px from ascent to descent a unit is 0.01 px.
constexpr double kUnitPx = 0.01, kHeightPx = 2384 * kUnitPx;
constexpr int kDigitUnits = 1303, kSpaceUnits = 651;

int inkIn(const util::TextMask& m, int x0, int x1) {
  int n = 0;
  for (int y = 0; y < m.height; ++y)
    for (int x = x0; x < x1; ++x) n += m.at(x, y) > 0;
  return n;
}

// Pixels of `box` that are not the picture's background.
int inkIn(const util::Canvas& c, const util::Box& box) {
  int n = 0;
  for (int y = box.y0; y < box.y1; ++y)
    for (int x = box.x0; x < box.x1; ++x) n += !(c.at(x, y) == lab::kMapBackground);
  return n;
}

// A sweep whose cells are made up: class by position, so that every colour shows.
lab::SweepSpec spec(const std::vector<sim::Method>& methods, lab::GridAxis dt,
                    lab::GridAxis stiffness) {
  lab::SweepSpec s;
  s.def = scene::loadSceneArg("cloth_16");
  s.methods = methods;
  s.dt = dt, s.stiffness = stiffness;
  s.seconds = 2.5;
  return s;
}

std::vector<lab::CellResult> cellsOf(const lab::SweepSpec& s, size_t leaveOut) {
  std::vector<lab::CellResult> cells;
  const size_t n = s.methods.size() * size_t(s.dt.n) * size_t(s.stiffness.n);
  for (size_t i = 0; i < n; ++i) {
    if (i == leaveOut) continue;  // "not run"
    const size_t col = i / size_t(s.stiffness.n) % size_t(s.dt.n);
    const auto cls = col < 4   ? lab::CellClass::Stable
                     : col < 8 ? lab::CellClass::Drifting
                               : lab::CellClass::Diverged;
    cells.push_back({i, s.methods[i / (size_t(s.dt.n) * size_t(s.stiffness.n))], 0, 1, cls});
  }
  return cells;
}

// Every text box of the layout, with what it is for the failure message.
std::vector<std::pair<std::string, util::Box>> textBoxes(const lab::MapLayout& l) {
  std::vector<std::pair<std::string, util::Box>> out = {{"title", l.title}};
  for (size_t p = 0; p < l.panels.size(); ++p) {
    const auto& panel = l.panels[p];
    const std::string at = "panel " + std::to_string(p) + " ";
    out.push_back({at + "title", panel.title});
    out.push_back({at + "x title", panel.x_title});
    out.push_back({at + "y title", panel.y_title});
    out.push_back({at + "limit label", panel.limit_label});
    for (const auto& b : panel.x_labels) out.push_back({at + "x label", b});
    for (const auto& b : panel.y_labels) out.push_back({at + "y label", b});
  }
  for (const auto& b : l.legend) out.push_back({"legend", b});
  return out;
}

void checkLabelled(const lab::SweepMap& map) {
  const util::Box picture{0, 0, map.image.width(), map.image.height()};
  const auto boxes = textBoxes(map.layout);
  for (size_t i = 0; i < boxes.size(); ++i) {
    CAPTURE(boxes[i].first);
    const util::Box& b = boxes[i].second;
    CHECK(picture.contains(b));
    CHECK(inkIn(map.image, b) > 10);  // words, not background
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      CAPTURE(boxes[j].first);
      CHECK_FALSE(b.overlaps(boxes[j].second));
    }
    for (const auto& panel : map.layout.panels)  // only the limit's label lies on a grid
      if (boxes[i].first.find("limit") == std::string::npos) CHECK_FALSE(b.overlaps(panel.grid));
  }
}

}  // namespace

TEST_CASE("text: DejaVu Sans renders a known string at its advance width and pixel height") {
  const util::TextMask digits = util::renderText("0000000000", kHeightPx);
  CHECK(digits.height == 24);                                         // ceil(23.84)
  CHECK(digits.width == int(std::ceil(10 * kDigitUnits * kUnitPx)));  // 131: no kerning in "00"
  CHECK(digits.baseline == 19);                                       // 1901 units
  for (int i = 0; i < 10; ++i) {                                      // ink in each digit's advance
    CAPTURE(i);
    CHECK(inkIn(digits, int(i * kDigitUnits * kUnitPx) + 1, int((i + 1) * kDigitUnits * kUnitPx)) >
          20);
  }
  CHECK(*std::max_element(digits.alpha.begin(), digits.alpha.end()) == 255);
  const util::TextMask spaced = util::renderText("0 0", kHeightPx);
  CHECK(spaced.width == int(std::ceil((2 * kDigitUnits + kSpaceUnits) * kUnitPx)));  // 33
  CHECK(inkIn(spaced, int(kDigitUnits * kUnitPx) + 1, int((kDigitUnits + kSpaceUnits) * kUnitPx)) ==
        0);  // the space is blank
  const util::TextMask blank = util::renderText("   ", kHeightPx);
  CHECK(inkIn(blank, 0, blank.width) == 0);
  CHECK(util::renderText("", kHeightPx).width == 1);
  // UTF-8: omega is one glyph, not two replacement boxes
  CHECK(util::renderText("ω", 20).width < util::renderText("\xCF\xCF", 20).width);
  // a quarter turn counter-clockwise: the first letter ends up at the bottom
  const util::TextMask up = util::rotatedLeft(digits);
  REQUIRE(up.width == digits.height);
  REQUIRE(up.height == digits.width);
  for (int y = 0; y < digits.height; ++y)
    for (int x = 0; x < digits.width; ++x)
      REQUIRE(up.at(y, digits.width - 1 - x) == digits.at(x, y));
}

TEST_CASE("sweep map: titled panels, axes with ticks, the limit labelled and a legend") {
  using sim::Method;
  SUBCASE("one stiffness: a strip per integrator") {
    const auto s =
        spec({Method::Rk4, Method::SymplecticEuler, Method::Verlet}, {0.005, 0.2, 12}, {1, 1, 1});
    // symplectic_euler's limit 2 / omega at column 6's dt
    const double dt6 = s.dt.value(6), omega = 2.0 / dt6;
    const auto map = lab::drawSweepMap(s, cellsOf(s, 13), omega);
    REQUIRE(map.layout.panels.size() == 3);
    checkLabelled(map);
    for (const auto& p : map.layout.panels) {
      // the grid follows the sweep: 12 columns of 360 / 12 px, one row 40 px high
      CHECK(p.grid.width() == 12 * 30);
      CHECK(p.grid.height() == 40);
      CHECK(p.y_labels.empty());
      CHECK(p.x_labels.size() >= 4);  // 0.005 0.01 0.02 0.05 0.1 0.2
      CHECK(p.grid.contains(p.limit_label));
    }
    const auto& se = map.layout.panels[1].grid;
    // the limit line through column 6's centre, white, below the label
    CHECK(map.image.at(se.x0 + 6 * 30 + 15, se.y1 - 3) == util::Rgb{255, 255, 255});
    // cells by class (seams aside), and the one left out "not run"
    CHECK(map.image.at(se.x0 + 2, se.y1 - 3) == lab::kMapStable);
    CHECK(map.image.at(se.x0 + 5 * 30 + 5, se.y1 - 3) == lab::kMapDrifting);
    CHECK(map.image.at(se.x0 + 11 * 30 + 5, se.y1 - 3) == lab::kMapDiverged);
    CHECK(map.image.at(se.x0 + 1 * 30 + 5, se.y1 - 3) == lab::kMapNotRun);  // index 12 + 1
    // the title, panel titles and legend above and below the panels: the picture's size
    CHECK(map.image.width() > 3 * 12 * 30);
    CHECK(map.layout.title.y1 < map.layout.panels[0].title.y0);
    CHECK(map.layout.legend.front().y0 > map.layout.panels[0].x_title.y1);
  }
  SUBCASE("a stiffness axis: rows upwards, the limit a curve, panels in rows of four") {
    const auto s = spec({Method::Euler, Method::SymplecticEuler, Method::Verlet, Method::Rk4,
                         Method::ImplicitEuler},
                        {0.0005, 0.02, 12}, {0.25, 4, 6});
    const auto map = lab::drawSweepMap(s, cellsOf(s, 1000), 1400.0);
    REQUIRE(map.layout.panels.size() == 5);
    checkLabelled(map);
    for (const auto& p : map.layout.panels) {
      CHECK(p.grid.width() == 12 * 30);
      CHECK(p.grid.height() == 6 * 30);
      CHECK(p.y_labels.size() >= 2);
    }
    CHECK(map.layout.panels[4].grid.y0 > map.layout.panels[0].x_title.y1);  // the second row
    CHECK(map.layout.panels[4].grid.x0 == map.layout.panels[0].grid.x0);
  }
}
