// An RGBA picture drawn on the CPU (the stability map's PNG, lab/sweep_map.hpp): filled and
// blended rectangles, thick lines, text masks (util/text.hpp). Every call clips to the picture.
#pragma once

#include <cstdint>
#include <vector>

#include "util/text.hpp"

namespace util {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

// A rectangle of pixels [x0, x1) x [y0, y1).
struct Box {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  int width() const { return x1 - x0; }
  int height() const { return y1 - y0; }
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  bool overlaps(const Box& o) const {
    return !empty() && !o.empty() && x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1;
  }
  bool contains(const Box& o) const { return o.x0 >= x0 && o.x1 <= x1 && o.y0 >= y0 && o.y1 <= y1; }
};

class Canvas {
 public:
  Canvas(int width, int height, Rgb background);
  int width() const { return w_; }
  int height() const { return h_; }
  Rgb at(int x, int y) const;
  // opaque, 4 bytes a pixel, top row first (util::writePng's layout)
  const std::vector<unsigned char>& rgba() const { return rgba_; }

  void fill(const Box& b, Rgb c);
  // c over the pixels with `opacity` in [0, 1] (a label's backing)
  void blend(const Box& b, Rgb c, double opacity);
  // A segment 2 halfWidth + 1 px thick, drawn only inside `clip`.
  void line(double x0, double y0, double x1, double y1, Rgb c, int halfWidth, const Box& clip);
  // The mask's top-left corner at (x, y), its coverage blending c over the picture.
  void text(const TextMask& m, int x, int y, Rgb c);

 private:
  void put(int x, int y, Rgb c, int alpha);  // alpha 0..255
  int w_, h_;
  std::vector<unsigned char> rgba_;
};

}  // namespace util
