// A picture's overlays without ImGui: the layout of the caption, the banner, the lane labels and
// legends (ui/overlay_layout.hpp) and the caption's text (ui/caption.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ui/caption.hpp"
#include "ui/overlay_layout.hpp"

namespace {

// Text measured as ImGui's default font measures it at UI scale `s`: 7 px a character, 13 px a
// line, with the overlays' 4 px padding and a 13 px swatch.
ui::Size textBox(const std::string& text, float s, bool swatch) {
  const float pad = 4.0f * s, line = 13.0f * s;
  return {(swatch ? line + pad : 0.0f) + 7.0f * s * float(text.size()) + 2.0f * pad,
          line + 2.0f * pad};
}

// The request `springlab record` makes: the UI scale of a picture of this height (height / 720,
// 1 to 3), the caption in one line or wrapped to the width, each lane's four label forms.
ui::OverlayRequest request(int w, int h, int lanes, bool side, bool caption, bool strain,
                           bool banner = false) {
  const float s = std::clamp(float(h) / 720.0f, 1.0f, 3.0f);
  ui::OverlayRequest r;
  r.viewport = {0.0f, 0.0f, float(w), float(h)};
  r.margin = 10.0f * s;
  if (caption) {
    const std::string text =
        "seed004_fig6b  |  rk4  |  dt 0.002 s  |  t 12.345 s  |  energy -57 %: dissipated 57 %, "
        "integrator error +0.01 %";
    const ui::Size line = textBox(text, s, false);
    const float avail = float(w) - 2.0f * r.margin;
    const float rows = std::max(1.0f, float(int(line.w / avail) + 1));
    r.caption = {line, {std::min(line.w, avail), rows * 13.0f * s + 8.0f * s}};
  }
  r.side_by_side = side;
  const char* names[] = {"rk4", "verlet", "symplectic_euler", "implicit_midpoint"};
  for (int i = 0; i < lanes && lanes >= 2; ++i) {
    const std::string n = std::to_string(i), m = names[i % 4];
    r.lanes.push_back({textBox(n + "  " + m + "  dt 0.002 s", s, true),
                       textBox(n + " " + m + " 0.002", s, true), textBox(n + " " + m, s, true),
                       textBox(n, s, true)});
  }
  if (strain) r.strain_legend = {14.0f * 13.0f * s + 16.0f * s, 3.0f * 17.0f * s + 16.0f * s};
  if (banner) {  // a clip's: a two-line title in the large font and a three-line report
    const float width = std::min(float(w) - 2.0f * r.margin, 650.0f * s);
    r.banner = {{width, (2.0f * 26.0f + 3.0f * 13.0f + 4.0f + 16.0f) * s}};
  }
  return r;
}

}  // namespace

TEST_CASE("overlays: caption, banner, lane labels and legends never overlap, stay in the picture") {
  const int sizes[][2] = {{320, 180}, {640, 360}, {1280, 720}, {1920, 1080}, {3840, 2160}};
  for (const auto& wh : sizes)
    for (int lanes = 1; lanes <= 8; ++lanes)
      for (bool side : {false, true})
        for (bool caption : {false, true})
          for (bool strain : {false, true})
            for (bool banner : {false, true}) {
              const int w = wh[0], h = wh[1];
              CAPTURE(w);
              CAPTURE(h);
              CAPTURE(lanes);
              CAPTURE(side);
              CAPTURE(caption);
              CAPTURE(strain);
              CAPTURE(banner);
              const ui::OverlayRequest r = request(w, h, lanes, side, caption, strain, banner);
              const ui::OverlayLayout l = ui::layOutOverlays(r);
              const std::vector<ui::Rect> boxes = l.boxes();
              for (size_t a = 0; a < boxes.size(); ++a) {
                CHECK(ui::inside(boxes[a], r.viewport));
                for (size_t b = a + 1; b < boxes.size(); ++b)
                  CHECK_FALSE(ui::overlaps(boxes[a], boxes[b]));
              }
              // every lane has a label or a legend row, each in the picture; a legend's rows in it
              CHECK(l.lanes.size() == (lanes >= 2 ? size_t(lanes) : 0));
              for (const ui::Placed& p : l.lanes) {
                CHECK_FALSE(p.rect.empty());
                CHECK(ui::inside(p.rect, side ? r.viewport : l.legend));
              }
              CHECK(caption == !l.caption.rect.empty());
              // the banner is shown but in a 320x180 window crowded with a wrapped caption, the
              // strain legend and the lanes' labels, where only they fit
              if (!(w == 320 && caption && strain && lanes >= 2))
                CHECK(banner == !l.banner.rect.empty());
              // the banner under the caption, centred in the viewport
              if (banner && caption) CHECK(l.banner.rect.y0 > l.caption.rect.y1);
              if (banner)
                CHECK(std::abs(0.5f * (l.banner.rect.x0 + l.banner.rect.x1) - 0.5f * float(w)) <
                      1.0f);
            }
}

TEST_CASE("overlays: the window's banner keeps its buttons' width, over the panel if need be") {
  ui::OverlayRequest r = request(640, 360, 1, false, true, false, true);
  r.viewport.x0 = 430.0f;  // the panel's width: 210 px of scene
  r.banner = {{300.0f, 120.0f}};
  r.banner_min_w = 300.0f;  // the buttons' row
  const ui::OverlayLayout l = ui::layOutOverlays(r);
  CHECK(l.banner.rect.width() == 300.0f);
  CHECK(l.banner.rect.x1 <= 630.0f);
  CHECK(l.banner.rect.x0 < 430.0f);  // over the panel, to the left
  CHECK(l.banner.rect.y0 > l.caption.rect.y1);
  CHECK_FALSE(ui::overlaps(l.banner.rect, l.caption.rect));
}

TEST_CASE("overlays: a label keeps its full form where there is room and is shortened where not") {
  // the case: three lanes side by side with a caption
  const ui::OverlayLayout wide = ui::layOutOverlays(request(1920, 1080, 3, true, true, false));
  for (const ui::Placed& p : wide.lanes) CHECK(p.form == 0);
  CHECK(wide.caption.form == 0);  // one line
  // the labels sit below the caption, each within its own column
  for (size_t i = 0; i < wide.lanes.size(); ++i) {
    CHECK(wide.lanes[i].rect.y0 > wide.caption.rect.y1);
    CHECK(wide.lanes[i].rect.x0 >= 1920.0f * float(i) / 3.0f);
    CHECK(wide.lanes[i].rect.x1 <= 1920.0f * float(i + 1) / 3.0f);
  }
  const ui::OverlayLayout narrow = ui::layOutOverlays(request(320, 180, 3, true, true, false));
  CHECK(narrow.caption.form == 1);  // wrapped
  for (const ui::Placed& p : narrow.lanes) CHECK(p.form > 0);
}

TEST_CASE("overlays: the overlaid legend takes columns when its rows do not fit the height") {
  const ui::OverlayLayout l = ui::layOutOverlays(request(320, 180, 8, false, true, false));
  REQUIRE(l.lanes.size() == 8);
  CHECK(l.lanes[7].rect.x0 > l.lanes[0].rect.x0);  // not one column of 8 rows
  CHECK(l.legend.y0 >= l.caption.rect.y1);
}

TEST_CASE("caption: a damped scene's energy splits into dissipated and the integrator's error") {
  ui::CaptionFacts f;
  f.scene = "cloth_on_sphere", f.integrator = "verlet", f.dt = 0.002, f.t = 3.0;
  // E0 = 10 J; friction and drag took 5.7 J; E = 4.301 J: the balance 4.301 - 10 + 5.7 = 0.001 J
  f.e0 = 10.0, f.energy = 4.301, f.dissipated = 5.7, f.residual = 0.001, f.reference = 10.0;
  CHECK(ui::captionText(f) ==
        "cloth_on_sphere  |  verlet  |  dt 0.002 s  |  t 3.000 s  |  energy -57 %: dissipated "
        "57 %, integrator error +0.01 %");
}

TEST_CASE("caption: a landing's energy splits into dissipated, the contacts' and the method's") {
  ui::CaptionFacts f;
  f.scene = "jelly_cube", f.integrator = "xpbd", f.dt = 1.0 / 60, f.t = 1.2;
  // E0 = 9.81 J, E = 2.94 J: the dashpots took 2.95 J, the floor 1.20 J, and xpbd 2.71 J
  f.e0 = 9.81, f.energy = 2.94, f.dissipated = 2.95, f.contacts = 1.2, f.residual = -2.71;
  f.reference = 9.81;
  CHECK(ui::captionText(f) ==
        "jelly_cube  |  xpbd  |  dt 0.0167 s  |  t 1.200 s  |  energy -70 %: dissipated 30 %, "
        "contacts 12 %, integrator error -28 %");
  // contacts that put energy in (a push-out that raised the state's energy) are signed
  f.contacts = -0.2, f.residual = -1.31;
  CHECK(ui::captionText(f).find("contacts -2 %, integrator error -13 %") != std::string::npos);
  f.contacts = 0.0;  // none: not mentioned
  CHECK(ui::captionText(f).find("contacts") == std::string::npos);
}

TEST_CASE("caption: an undamped scene's energy change is all the integrator's error") {
  ui::CaptionFacts f;
  f.scene = "seed004_fig6b", f.integrator = "rk4", f.dt = 0.01, f.t = 1.25;
  f.e0 = -20.0, f.energy = -20.5, f.residual = -0.5, f.reference = 20.0;
  CHECK(ui::captionText(f) ==
        "seed004_fig6b  |  rk4  |  dt 0.01 s  |  t 1.250 s  |  energy -2.5 %: integrator error "
        "-2.5 %");
  // with E0 about 0 the figures are shares of the scene's energy scale S, and say so
  f.e0 = 0.0, f.energy = 0.5, f.residual = 0.5, f.reference = 50.0, f.relative = false;
  CHECK(ui::captionText(f) ==
        "seed004_fig6b  |  rk4  |  dt 0.01 s  |  t 1.250 s  |  energy +1 %: integrator error +1 % "
        "(of the scene's energy scale)");
}
