#include "lab/sweep_map.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "sim/registry.hpp"

namespace lab {

namespace {

using util::Box;
using util::Rgb;
using util::TextMask;

constexpr Rgb kText{225, 228, 235}, kTitle{255, 255, 255}, kAxis{140, 146, 158},
    kLimit{255, 255, 255};
// text heights (px): readable at the picture's own size, on a screen and projected
constexpr double kTitlePx = 20, kPanelTitlePx = 16, kAxisTitlePx = 14, kTickPx = 13, kLegendPx = 14,
                 kLimitPx = 13;
constexpr int kMargin = 18;      // px around the picture
constexpr int kPanelGap = 28;    // px between panels
constexpr int kSectionGap = 14;  // px between the title, the panels and the legend
constexpr int kTitleGap = 6;     // px between a panel's title and its grid
constexpr int kTickLength = 5, kMinorTickLength = 3;  // px
constexpr int kLabelGap = 3;         // px between a tick and its label, a label and its axis title
constexpr int kTickSpacing = 12;     // px at least between two tick labels
constexpr int kMinMinorSpacing = 4;  // px: closer minor ticks are left out
constexpr int kPanelTarget = 360;    // px: the larger side of a panel's grid, about
constexpr int kMinCell = 3, kMaxCell = 48;  // px per cell
constexpr int kStripHeight = 40;            // px: the grid of a one-row sweep
constexpr int kMaxPanelsPerRow = 4;
constexpr int kLimitHalfWidth = 1;     // the limit line is 3 px thick
constexpr int kLabelPad = 3;           // px around the limit's label, on its dark backing
constexpr double kLabelBacking = 0.8;  // the backing's opacity
constexpr int kSwatch = 14, kSwatchGap = 6, kLegendGap = 22;  // px

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// A log axis whose cell centres span lo..hi (the grids are geometric): value <-> pixel.
struct LogAxis {
  double lo = 1, hi = 1;
  int n = 1;
  double start = 0;  // px: the grid's left edge (x) or bottom edge (y, growing upwards)
  double cell = 1;   // px per cell
  bool upwards = false;
  bool flat() const { return n < 2 || !(hi > lo); }
  double offsetOf(double v) const {
    if (flat()) return cell * 0.5 * n;
    return cell * 0.5 + std::log(v / lo) / std::log(hi / lo) * cell * (n - 1);
  }
  double at(double v) const { return upwards ? start - offsetOf(v) : start + offsetOf(v); }
  double valueAt(double p) const {
    if (flat()) return lo;
    const double offset = upwards ? start - p : p - start;
    return lo * std::pow(hi / lo, (offset - cell * 0.5) / (cell * (n - 1)));
  }
  // the values at the grid's two edges, smaller first
  std::pair<double, double> edges() const {
    const double end = upwards ? start - length() : start + length();
    return {valueAt(start), valueAt(end)};
  }
  double length() const { return cell * n; }
};

struct Tick {
  double pos = 0;
  TextMask label;  // empty width for a minor tick
};

// Mantissas m of the ticks m * 10^e; every `step` decades for the sparsest sets.
struct TickSet {
  std::vector<int> mantissas;
  int step = 1;
};

std::vector<Tick> ticksOf(const LogAxis& a, const TickSet& set, bool labelled) {
  std::vector<Tick> out;
  const auto [vmin, vmax] = a.edges();
  const int d0 = static_cast<int>(std::floor(std::log10(vmin))) - 1;
  const int d1 = static_cast<int>(std::ceil(std::log10(vmax))) + 1;
  for (int e = d0; e <= d1; ++e) {
    if (((e % set.step) + set.step) % set.step != 0) continue;
    for (int m : set.mantissas) {
      const double v = m * std::pow(10.0, e);
      if (v < vmin * (1 - 1e-9) || v > vmax * (1 + 1e-9)) continue;
      out.push_back({a.at(v), labelled ? util::renderText(format("%g", v), kTickPx) : TextMask{}});
    }
  }
  std::sort(out.begin(), out.end(), [](const Tick& p, const Tick& q) { return p.pos < q.pos; });
  return out;
}

bool labelsFit(const std::vector<Tick>& t, bool horizontal) {
  for (size_t i = 1; i < t.size(); ++i) {
    const double half = horizontal ? 0.5 * (t[i - 1].label.width + t[i].label.width)
                                   : 0.5 * (t[i - 1].label.height + t[i].label.height);
    if (t[i].pos - t[i - 1].pos < half + kTickSpacing) return false;
  }
  return true;
}

// The labelled ticks: the densest of 1-2-5, (1..9 on a short range), decades, every 2 or 3 decades
// whose labels do not touch; else the axis's two ends, else its first value.
std::vector<Tick> chooseTicks(const LogAxis& a, bool horizontal) {
  if (a.flat()) return {{a.at(a.lo), util::renderText(format("%g", a.lo), kTickPx)}};
  const TickSet sets[] = {{{1, 2, 5}}, {{1, 2, 3, 4, 5, 6, 7, 8, 9}}, {{1}}, {{1}, 2}, {{1}, 3}};
  for (const TickSet& s : sets) {
    auto t = ticksOf(a, s, true);
    if (t.size() >= 2 && labelsFit(t, horizontal)) return t;
  }
  std::vector<Tick> ends = {{a.at(a.lo), util::renderText(format("%.3g", a.lo), kTickPx)},
                            {a.at(a.hi), util::renderText(format("%.3g", a.hi), kTickPx)}};
  std::sort(ends.begin(), ends.end(), [](const Tick& p, const Tick& q) { return p.pos < q.pos; });
  if (!labelsFit(ends, horizontal)) ends.resize(1);
  return ends;
}

// Minor ticks at 1..9 x 10^e when they are far enough apart to read as a log scale.
std::vector<Tick> minorTicks(const LogAxis& a) {
  if (a.flat()) return {};
  auto t = ticksOf(a, {{1, 2, 3, 4, 5, 6, 7, 8, 9}}, false);
  for (size_t i = 1; i < t.size(); ++i)
    if (t[i].pos - t[i - 1].pos < kMinMinorSpacing) return {};
  return t;
}

Box boxAt(const TextMask& m, int x, int y) {
  return {x, y, x + m.width, y + m.height};
}
Box unite(const Box& a, const Box& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}
Box shifted(const Box& b, int dx, int dy) {
  return {b.x0 + dx, b.y0 + dy, b.x1 + dx, b.y1 + dy};
}

// One panel's axes, laid out around a grid whose top-left corner is (0, 0).
struct PanelTemplate {
  int cell_w = 1, cell_h = 1, grid_w = 1, grid_h = 1;
  LogAxis x, y;  // placed for the grid at (0, 0)
  std::vector<Tick> x_ticks, y_ticks, x_minor, y_minor;
  TextMask x_title, y_title;
  Box x_title_box, y_title_box, bounds;  // bounds: everything but the panel's title
  std::vector<Box> x_label_boxes, y_label_boxes;
};

void placeGrid(PanelTemplate& p, const SweepSpec& spec) {
  const int nd = spec.dt.n, nk = spec.stiffness.n;
  const int cell = std::clamp(kPanelTarget / std::max(nd, nk), kMinCell, kMaxCell);
  p.cell_w = cell;
  p.cell_h = nk > 1 ? cell : std::max(cell, kStripHeight);
  p.grid_w = nd * p.cell_w, p.grid_h = nk * p.cell_h;
  p.x = {spec.dt.lo, spec.dt.hi, nd, 0.0, double(p.cell_w), false};
  p.y = {spec.stiffness.lo, spec.stiffness.hi, nk, double(p.grid_h), double(p.cell_h), true};
}

PanelTemplate panelTemplate(const SweepSpec& spec) {
  PanelTemplate p;
  placeGrid(p, spec);
  const bool strip = spec.stiffness.n == 1;
  p.bounds = {0, 0, p.grid_w, p.grid_h};
  p.x_ticks = chooseTicks(p.x, true), p.x_minor = minorTicks(p.x);
  const int labelTop = p.grid_h + kTickLength + kLabelGap;
  for (const Tick& t : p.x_ticks) {
    p.x_label_boxes.push_back(
        boxAt(t.label, int(std::lround(t.pos)) - t.label.width / 2, labelTop));
    p.bounds = unite(p.bounds, p.x_label_boxes.back());
  }
  p.x_title = util::renderText("dt (s), log scale", kAxisTitlePx);
  p.x_title_box = boxAt(p.x_title, (p.grid_w - p.x_title.width) / 2,
                        labelTop + int(std::ceil(kTickPx)) + kLabelGap);
  int left = -kTickLength - kLabelGap;  // the right edge of the y tick labels
  if (!strip) {
    p.y_ticks = chooseTicks(p.y, false), p.y_minor = minorTicks(p.y);
    int widest = 0;
    for (const Tick& t : p.y_ticks) {
      p.y_label_boxes.push_back(
          boxAt(t.label, left - t.label.width, int(std::lround(t.pos)) - t.label.height / 2));
      widest = std::max(widest, t.label.width);
    }
    p.y_title = util::rotatedLeft(util::renderText("stiffness scale, log scale", kAxisTitlePx));
    left -= widest + kLabelGap;
  } else {
    p.y_title = util::renderText("stiffness ×1", kAxisTitlePx);
    left = -kTickLength;
  }
  p.y_title_box = boxAt(p.y_title, left - p.y_title.width, (p.grid_h - p.y_title.height) / 2);
  for (const Box& b : p.y_label_boxes) p.bounds = unite(p.bounds, b);
  p.bounds = unite(unite(p.bounds, p.x_title_box), p.y_title_box);
  return p;
}

Rgb colourOf(CellClass c) {
  return c == CellClass::Stable     ? kMapStable
         : c == CellClass::Drifting ? kMapDrifting
                                    : kMapDiverged;
}

// The axes of a panel whose grid's top-left corner is (gx, gy): frame, ticks, labels, titles.
void drawAxes(util::Canvas& img, const PanelTemplate& p, int gx, int gy, MapPanelLayout& out) {
  const Box grid{gx, gy, gx + p.grid_w, gy + p.grid_h};
  const Box all{0, 0, img.width(), img.height()};
  img.line(grid.x0 - 1, grid.y1, grid.x1, grid.y1, kAxis, 0, all);  // the axes' lines
  img.line(grid.x0 - 1, grid.y0, grid.x0 - 1, grid.y1, kAxis, 0, all);
  for (const Tick& t : p.x_minor)
    img.line(gx + t.pos, grid.y1, gx + t.pos, grid.y1 + kMinorTickLength, kAxis, 0, all);
  for (const Tick& t : p.y_minor)
    img.line(grid.x0 - 1 - kMinorTickLength, gy + t.pos, grid.x0 - 1, gy + t.pos, kAxis, 0, all);
  for (size_t i = 0; i < p.x_ticks.size(); ++i) {
    const double x = gx + p.x_ticks[i].pos;
    img.line(x, grid.y1, x, grid.y1 + kTickLength, kAxis, 0, all);
    out.x_labels.push_back(shifted(p.x_label_boxes[i], gx, gy));
    img.text(p.x_ticks[i].label, out.x_labels.back().x0, out.x_labels.back().y0, kText);
  }
  for (size_t i = 0; i < p.y_ticks.size(); ++i) {
    const double y = gy + p.y_ticks[i].pos;
    img.line(grid.x0 - 1 - kTickLength, y, grid.x0 - 1, y, kAxis, 0, all);
    out.y_labels.push_back(shifted(p.y_label_boxes[i], gx, gy));
    img.text(p.y_ticks[i].label, out.y_labels.back().x0, out.y_labels.back().y0, kText);
  }
  out.x_title = shifted(p.x_title_box, gx, gy);
  img.text(p.x_title, out.x_title.x0, out.x_title.y0, kText);
  out.y_title = shifted(p.y_title_box, gx, gy);
  img.text(p.y_title, out.y_title.x0, out.y_title.y0, kText);
}

// A method's limit over a panel: the label's words, the limit at stiffness scale 1 (s) when there
// is one, and where it lies: -1 left of the grid, +1 right of it, 0 across it.
struct LimitNote {
  std::string words;
  std::optional<double> limit;
  int side = 0;
};

LimitNote limitNote(const PanelTemplate& p, sim::Method m, double omegaMax) {
  const sim::IntegratorInfo& info = sim::info(m);
  if (info.stability == sim::Stability::Never) return {"no stable dt without damping", {}, 0};
  const std::optional<double> limit = sim::dtLimit(m, omegaMax);
  if (!limit) return {"no dt limit", {}, 0};
  if (!std::isfinite(*limit) || !(*limit > 0)) return {"no dt limit: nothing oscillates", {}, 0};
  LimitNote n{"limit " + format("%.3g", info.bound) + "/ω_max = " + format("%.3g", *limit) + " s",
              limit, 0};
  // the smallest and largest limit over the rows, against the dt at the grid's edges
  const double smallest = *limit / std::sqrt(p.y.hi), largest = *limit / std::sqrt(p.y.lo);
  const auto [dtLeft, dtRight] = p.x.flat() ? std::pair{p.x.lo, p.x.hi} : p.x.edges();
  n.side = largest < dtLeft ? -1 : smallest > dtRight ? 1 : 0;
  if (n.side < 0) n.words = "← " + n.words;
  if (n.side > 0) n.words += " →";
  return n;
}

// The label's size on its backing.
std::pair<int, int> labelSize(const TextMask& t) {
  return {t.width + 2 * kLabelPad, t.height + 2 * kLabelPad};
}

// The limit dt = limit / sqrt(k) over the grid, and its label on a dark backing beside the line
// where it enters at the top (left of it, where the curve leans away), or at the edge the limit
// lies beyond (with an arrow), or at the top-left corner when there is no line.
void drawLimit(util::Canvas& img, const PanelTemplate& p, int gx, int gy, const LimitNote& n,
               MapPanelLayout& out) {
  const Box grid{gx, gy, gx + p.grid_w, gy + p.grid_h};
  auto xAt = [&](double y) {  // the line's x at the picture's row y
    return gx + p.x.at(*n.limit / std::sqrt(p.y.valueAt(y - gy)));
  };
  const bool line = n.limit && n.side == 0 && !p.x.flat();
  for (int y = grid.y0; line && y < grid.y1; ++y)
    img.line(xAt(y), y, xAt(y + 1), y + 1, kLimit, kLimitHalfWidth, grid);
  const TextMask text = util::renderText(n.words, kLimitPx);
  const auto [w, h] = labelSize(text);
  int x = grid.x0 + kLabelPad;
  if (n.limit && n.side > 0) x = grid.x1 - kLabelPad - w;
  if (line) {
    const int y0 = grid.y0 + kLabelPad;
    int lineX = int(std::lround(std::clamp(xAt(y0), double(grid.x0), double(grid.x1))));
    x = lineX - kLimitHalfWidth - kLabelPad - w;  // left of the line
    if (x < grid.x0 + kLabelPad) {  // no room: right of the line, past where it leans to
      lineX = int(std::lround(std::clamp(xAt(y0 + h), double(grid.x0), double(grid.x1))));
      x = lineX + kLimitHalfWidth + kLabelPad;
    }
  }
  // within the grid when it is wide enough; else from its left edge (the panel has room)
  x = std::max(grid.x0 + 1, std::min(x, grid.x1 - 1 - w));
  out.limit_label = {x, grid.y0 + kLabelPad, x + w, grid.y0 + kLabelPad + h};
  img.blend(out.limit_label, kMapBackground, kLabelBacking);
  img.text(text, x + kLabelPad, out.limit_label.y0 + kLabelPad, kLimit);
}

// The legend: a swatch and its words per class, and the limit's line.
struct LegendEntry {
  Rgb colour;
  bool line = false;
  TextMask words;
  int width() const { return kSwatch + kSwatchGap + words.width; }
};

std::vector<LegendEntry> legendEntries(const SweepSpec& spec, double omegaMax) {
  const std::string omega = "ω_max = " + format("%.4g", omegaMax) + " rad/s";
  const std::string limit = spec.stiffness.n > 1
                                ? "limit = bound / (ω_max √scale), " + omega + " at scale 1"
                                : "limit = bound / ω_max, " + omega;
  auto words = [](const std::string& s) { return util::renderText(s, kLegendPx); };
  return {{kMapStable, false, words("stable")},
          {kMapDrifting, false,
           words("drifting (energy error > " + format("%g", 100 * spec.threshold) + " %)")},
          {kMapDiverged, false, words("diverged")},
          {kMapNotRun, false, words("not run")},
          {kLimit, true, words(limit)}};
}

// Flows the entries into rows no wider than `width`, from (x, y); returns the height used.
int drawLegend(util::Canvas* img, const std::vector<LegendEntry>& entries, int x, int y, int width,
               std::vector<Box>* boxes) {
  const int rowHeight = std::max(kSwatch, int(std::ceil(kLegendPx))) + kLabelGap;
  int cx = x, cy = y;
  for (const LegendEntry& e : entries) {
    if (cx > x && cx + e.width() > x + width) cx = x, cy += rowHeight;
    const Box entry{cx, cy, cx + e.width(), cy + rowHeight - kLabelGap};
    if (boxes) boxes->push_back(entry);
    if (img) {
      const int sy = cy + (entry.height() - kSwatch) / 2;
      if (e.line)
        img->fill({cx, sy + kSwatch / 2 - kLimitHalfWidth, cx + kSwatch,
                   sy + kSwatch / 2 + kLimitHalfWidth + 1},
                  e.colour);
      else
        img->fill({cx, sy, cx + kSwatch, sy + kSwatch}, e.colour);
      img->text(e.words, cx + kSwatch + kSwatchGap, cy + (entry.height() - e.words.height) / 2,
                kText);
    }
    cx += e.width() + kLegendGap;
  }
  return cy + rowHeight - kLabelGap - y;
}

void drawCells(util::Canvas& img, const PanelTemplate& p,
               const std::vector<std::pair<int, int>>& grids, const SweepSpec& spec,
               const std::vector<CellResult>& cells) {
  const size_t nd = size_t(spec.dt.n), nk = size_t(spec.stiffness.n);
  for (const auto& [gx, gy] : grids) img.fill({gx, gy, gx + p.grid_w, gy + p.grid_h}, kMapNotRun);
  const int seamX = p.cell_w > 4, seamY = p.cell_h > 4;  // a 1-px seam when cells can show it
  for (const CellResult& c : cells) {
    const size_t m = c.index / (nd * nk);
    if (m >= grids.size()) continue;
    const int col = int(c.index / nk % nd), row = int(c.index % nk);
    const int x = grids[m].first + col * p.cell_w;
    const int y = grids[m].second + (int(nk) - 1 - row) * p.cell_h;
    img.fill({x, y, x + p.cell_w - seamX, y + p.cell_h - seamY}, colourOf(c.cls));
  }
}

}  // namespace

SweepMap drawSweepMap(const SweepSpec& spec, const std::vector<CellResult>& cells,
                      double omegaMax) {
  const PanelTemplate p = panelTemplate(spec);
  const int nm = std::max(1, int(spec.methods.size()));
  std::vector<TextMask> names;
  Box panel = p.bounds;  // a panel's extent around its grid, its title included
  std::vector<LimitNote> notes;
  for (sim::Method m : spec.methods) {
    names.push_back(util::renderText(std::string(sim::info(m).name), kPanelTitlePx));
    panel = unite(panel, {0, -names.back().height - kTitleGap, names.back().width, 0});
    notes.push_back(limitNote(p, m, omegaMax));
    const int w = labelSize(util::renderText(notes.back().words, kLimitPx)).first;
    panel = unite(panel, {0, 0, w + 2, p.grid_h});  // a label wider than the grid overhangs it
  }
  const int cols = std::min(nm, kMaxPanelsPerRow), rows = (nm + cols - 1) / cols;
  const std::string scene = spec.def.name.empty() ? "the scene" : spec.def.name;
  const TextMask title = util::renderText(
      "Stability map of " + scene + ", " + format("%.6g", spec.seconds) + " s per cell", kTitlePx);
  const auto legend = legendEntries(spec, omegaMax);
  int width = std::max(cols * panel.width() + (cols - 1) * kPanelGap, title.width);
  for (const LegendEntry& e : legend) width = std::max(width, e.width());
  const int panelsTop = kMargin + title.height + kSectionGap;
  const int legendTop = panelsTop + rows * panel.height() + (rows - 1) * kPanelGap + kSectionGap;
  const int legendHeight = drawLegend(nullptr, legend, kMargin, legendTop, width, nullptr);
  SweepMap out{
      util::Canvas(width + 2 * kMargin, legendTop + legendHeight + kMargin, kMapBackground), {}};
  out.layout.title = boxAt(title, kMargin, kMargin);
  out.image.text(title, kMargin, kMargin, kTitle);
  std::vector<std::pair<int, int>> grids;  // each panel's grid's top-left corner
  for (int i = 0; i < int(spec.methods.size()); ++i)
    grids.push_back({kMargin + (i % cols) * (panel.width() + kPanelGap) - panel.x0,
                     panelsTop + (i / cols) * (panel.height() + kPanelGap) - panel.y0});
  drawCells(out.image, p, grids, spec, cells);
  for (size_t i = 0; i < grids.size(); ++i) {
    const auto [gx, gy] = grids[i];
    MapPanelLayout& l = out.layout.panels.emplace_back();
    l.grid = {gx, gy, gx + p.grid_w, gy + p.grid_h};
    l.title = boxAt(names[i], gx, gy - names[i].height - kTitleGap);
    out.image.text(names[i], l.title.x0, l.title.y0, kTitle);
    drawAxes(out.image, p, gx, gy, l);
    drawLimit(out.image, p, gx, gy, notes[i], l);
  }
  drawLegend(&out.image, legend, kMargin, legendTop, width, &out.layout.legend);
  return out;
}

}  // namespace lab
