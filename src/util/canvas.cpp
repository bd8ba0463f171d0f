#include "util/canvas.hpp"

#include <algorithm>
#include <cmath>

namespace util {

namespace {
constexpr int kOpaque = 255;
}  // namespace

Canvas::Canvas(int width, int height, Rgb background)
    : w_(std::max(width, 1)),
      h_(std::max(height, 1)),
      rgba_(static_cast<size_t>(w_) * static_cast<size_t>(h_) * 4, kOpaque) {
  fill({0, 0, w_, h_}, background);
}

Rgb Canvas::at(int x, int y) const {
  const unsigned char* p = &rgba_[(static_cast<size_t>(y) * w_ + x) * 4];
  return {p[0], p[1], p[2]};
}

void Canvas::put(int x, int y, Rgb c, int alpha) {
  if (x < 0 || x >= w_ || y < 0 || y >= h_ || alpha <= 0) return;
  unsigned char* p = &rgba_[(static_cast<size_t>(y) * w_ + x) * 4];
  const auto mix = [alpha](unsigned char under, std::uint8_t over) {
    return static_cast<unsigned char>((over * alpha + under * (kOpaque - alpha) + kOpaque / 2) /
                                      kOpaque);
  };
  p[0] = mix(p[0], c.r), p[1] = mix(p[1], c.g), p[2] = mix(p[2], c.b);
}

void Canvas::fill(const Box& b, Rgb c) {
  blend(b, c, 1.0);
}

void Canvas::blend(const Box& b, Rgb c, double opacity) {
  const int alpha = static_cast<int>(std::lround(std::clamp(opacity, 0.0, 1.0) * kOpaque));
  for (int y = std::max(b.y0, 0); y < std::min(b.y1, h_); ++y)
    for (int x = std::max(b.x0, 0); x < std::min(b.x1, w_); ++x) put(x, y, c, alpha);
}

void Canvas::line(double x0, double y0, double x1, double y1, Rgb c, int halfWidth,
                  const Box& clip) {
  const int n = static_cast<int>(std::ceil(std::max(std::abs(x1 - x0), std::abs(y1 - y0)))) + 1;
  for (int i = 0; i <= n; ++i) {
    const int x = static_cast<int>(std::lround(x0 + (x1 - x0) * i / n));
    const int y = static_cast<int>(std::lround(y0 + (y1 - y0) * i / n));
    for (int dy = -halfWidth; dy <= halfWidth; ++dy)
      for (int dx = -halfWidth; dx <= halfWidth; ++dx)
        if (x + dx >= clip.x0 && x + dx < clip.x1 && y + dy >= clip.y0 && y + dy < clip.y1)
          put(x + dx, y + dy, c, kOpaque);
  }
}

void Canvas::text(const TextMask& m, int x, int y, Rgb c) {
  for (int ty = 0; ty < m.height; ++ty)
    for (int tx = 0; tx < m.width; ++tx) put(x + tx, y + ty, c, m.at(tx, ty));
}

}  // namespace util
