// sweep --png: the stability map as an image (docs/cli.md#sweep): one panel per integrator, dt
// growing to the right and the stiffness scale upwards on log axes, cells coloured by class, and
// the theoretical limit dt = dt_limit / sqrt(stiffness scale) drawn over it in white.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "lab/sweep.hpp"
#include "sim/spectrum.hpp"
#include "util/png.hpp"

namespace cli {

namespace {

struct Rgb {
  std::uint8_t r, g, b;
};
// the panel's colours (ui/lab_panel.cpp uses the same): stable, drifting, diverged, not run
constexpr Rgb kStable{40, 140, 80}, kDrifting{215, 150, 30}, kDiverged{200, 55, 50};
constexpr Rgb kMissing{45, 48, 56}, kBackground{24, 26, 32}, kLimit{255, 255, 255};
constexpr int kMargin = 16;                 // px around and between panels
constexpr int kPanelTarget = 360;           // px: the larger side of a panel's grid, about
constexpr int kMinCell = 3, kMaxCell = 48;  // px per cell
constexpr int kLimitHalfWidth = 1;          // the limit line is 2 kLimitHalfWidth + 1 px thick

class Image {
 public:
  Image(int w, int h) : w_(w), h_(h), rgba_(static_cast<size_t>(w) * h * 4, 255) {
    fill(0, 0, w, h, kBackground);
  }
  void fill(int x0, int y0, int x1, int y1, Rgb c) {
    for (int y = std::max(y0, 0); y < std::min(y1, h_); ++y)
      for (int x = std::max(x0, 0); x < std::min(x1, w_); ++x) set(x, y, c);
  }
  // a thick segment, clipped to [clip0, clip1)
  void line(double x0, double y0, double x1, double y1, Rgb c, int cx0, int cy0, int cx1, int cy1) {
    const int n = static_cast<int>(std::ceil(std::max(std::abs(x1 - x0), std::abs(y1 - y0)))) + 1;
    for (int i = 0; i <= n; ++i) {
      const int x = static_cast<int>(std::lround(x0 + (x1 - x0) * i / n));
      const int y = static_cast<int>(std::lround(y0 + (y1 - y0) * i / n));
      for (int dy = -kLimitHalfWidth; dy <= kLimitHalfWidth; ++dy)
        for (int dx = -kLimitHalfWidth; dx <= kLimitHalfWidth; ++dx)
          if (x + dx >= cx0 && x + dx < cx1 && y + dy >= cy0 && y + dy < cy1)
            set(x + dx, y + dy, c);
    }
  }
  const std::vector<unsigned char>& rgba() const { return rgba_; }

 private:
  void set(int x, int y, Rgb c) {
    unsigned char* p = &rgba_[(static_cast<size_t>(y) * w_ + x) * 4];
    p[0] = c.r, p[1] = c.g, p[2] = c.b;
  }
  int w_, h_;
  std::vector<unsigned char> rgba_;
};

Rgb colourOf(lab::CellClass c) {
  return c == lab::CellClass::Stable     ? kStable
         : c == lab::CellClass::Drifting ? kDrifting
                                         : kDiverged;
}

// The limit curve of one panel: at each stiffness s, dt = limit / sqrt(s), placed on the dt axis
// between the first and last cell centres (log scale).
void drawLimit(Image& img, const lab::SweepSpec& spec, double limit, int x0, int y0, int cell) {
  const int nd = spec.dt.n, nk = spec.stiffness.n;
  const double dlo = std::log(spec.dt.lo), dhi = std::log(spec.dt.hi);
  auto xOf = [&](double dt) {
    const double f = nd > 1 ? (std::log(dt) - dlo) / (dhi - dlo) : 0.5;
    return x0 + cell * 0.5 + f * cell * (nd - 1);
  };
  auto yOf = [&](int row) { return y0 + cell * (nk - row - 0.5); };
  const int x1 = x0 + nd * cell, y1 = y0 + nk * cell;
  if (nk == 1) {
    const double x = xOf(limit);
    img.line(x, y0, x, y1, kLimit, x0, y0, x1, y1);
    return;
  }
  for (int r = 0; r + 1 < nk; ++r)
    img.line(xOf(limit / std::sqrt(spec.stiffness.value(r))), yOf(r),
             xOf(limit / std::sqrt(spec.stiffness.value(r + 1))), yOf(r + 1), kLimit, x0, y0, x1,
             y1);
}

}  // namespace

bool writeSweepPng(const std::string& path, const lab::SweepSpec& spec,
                   const std::vector<lab::CellResult>& cells, double omegaMax, std::string* error) {
  const int nd = spec.dt.n, nk = spec.stiffness.n, nm = static_cast<int>(spec.methods.size());
  const int cell = std::clamp(kPanelTarget / std::max(nd, nk), kMinCell, kMaxCell);
  const int pw = nd * cell, ph = nk * cell;
  Image img(kMargin + nm * (pw + kMargin), 2 * kMargin + ph);
  std::vector<char> present(static_cast<size_t>(nm) * nd * nk, 0);
  for (int m = 0; m < nm; ++m)
    img.fill(kMargin + m * (pw + kMargin), kMargin, kMargin + m * (pw + kMargin) + pw, kMargin + ph,
             kMissing);  // cells of other shards stay grey
  for (const auto& c : cells) {
    const int m = static_cast<int>(c.index / (static_cast<size_t>(nd) * nk));
    const int col = static_cast<int>(c.index / nk % nd), row = static_cast<int>(c.index % nk);
    const int x = kMargin + m * (pw + kMargin) + col * cell, y = kMargin + (nk - 1 - row) * cell;
    // a one-pixel seam between cells when they are large enough to show it
    img.fill(x, y, x + cell - (cell > 4), y + cell - (cell > 4), colourOf(c.cls));
  }
  for (int m = 0; m < nm; ++m) {
    const auto limit = sim::dtLimit(spec.methods[m], omegaMax);
    if (limit && *limit > 0 && std::isfinite(*limit))
      drawLimit(img, spec, *limit, kMargin + m * (pw + kMargin), kMargin, cell);
  }
  return util::writePng(path, kMargin + nm * (pw + kMargin), 2 * kMargin + ph, img.rgba(), error);
}

}  // namespace cli
