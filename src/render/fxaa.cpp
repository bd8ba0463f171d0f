#include "render/fxaa.hpp"

#include <algorithm>
#include <cstdlib>

namespace render {

namespace {

// Rec. 601 luma in 0..255, in integers: (77 r + 150 g + 29 b) / 256 (the weights 0.299, 0.587,
// 0.114 to 1/256)
inline unsigned char lumaOf(const unsigned char* p) {
  return static_cast<unsigned char>((77 * p[0] + 150 * p[1] + 29 * p[2]) >> 8);
}

// the thresholds of fxaa.hpp in luma bytes
constexpr int kEdgeMinByte = static_cast<int>(kFxaaEdgeMin * 255.0f + 0.5f);
constexpr int kEdgeRelativeShift = 3;  // hi * kFxaaEdgeRelative = hi / 8
static_assert(kFxaaEdgeRelative == 1.0f / (1 << kEdgeRelativeShift));

// One edge pixel: blended half and half with its two neighbours along the edge (the axis of the
// larger contrast is across it), in integers: (2 m + t1 + t2 + 2) / 4. Snapping the
// direction to an axis keeps the taps exact pixels, which is what makes the filter cheap; a
// staircase's steps still average into the line they approximate.
inline void blendAlongEdge(const unsigned char* m, const unsigned char* t1, const unsigned char* t2,
                           unsigned char* px) {
  for (int k = 0; k < 3; ++k)
    px[k] = static_cast<unsigned char>((2 * m[k] + t1[k] + t2[k] + 2) >> 2);
  px[3] = m[3];
}

}  // namespace

void fxaa(const std::vector<unsigned char>& in, std::vector<unsigned char>& out,
          std::vector<unsigned char>& luma, int width, int height) {
  const size_t n = static_cast<size_t>(width) * static_cast<size_t>(height);
  if (width <= 0 || height <= 0 || in.size() < n * 4) return;
  out.assign(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(n * 4));  // edges rewritten
  luma.resize(n);
  for (size_t i = 0; i < n; ++i) luma[i] = lumaOf(&in[i * 4]);
  for (int y = 0; y < height; ++y) {
    const unsigned char* row = &luma[static_cast<size_t>(y) * width];
    const unsigned char* up = &luma[static_cast<size_t>(std::min(y + 1, height - 1)) * width];
    const unsigned char* down = &luma[static_cast<size_t>(std::max(y - 1, 0)) * width];
    for (int x = 0; x < width; ++x) {
      const int xe = std::min(x + 1, width - 1), xw = std::max(x - 1, 0);
      const int m = row[x], n_ = up[x], s = down[x], e = row[xe], w = row[xw];
      const int lo = std::min(std::min(std::min(m, n_), std::min(s, e)), w);
      const int hi = std::max(std::max(std::max(m, n_), std::max(s, e)), w);
      const size_t i = (static_cast<size_t>(y) * width + x) * 4;
      if (hi - lo < std::max(kEdgeMinByte, hi >> kEdgeRelativeShift)) continue;  // kept
      // more contrast across x than across y: the edge runs along y, so the taps are above and
      // below (a thin line keeps its colour: both taps lie on it)
      const bool edgeAlongY =
          std::abs(e - m) + std::abs(w - m) > std::abs(n_ - m) + std::abs(s - m);
      const size_t t1 = edgeAlongY ? (static_cast<size_t>(std::min(y + 1, height - 1)) * width + x)
                                   : (static_cast<size_t>(y) * width + xe);
      const size_t t2 = edgeAlongY ? (static_cast<size_t>(std::max(y - 1, 0)) * width + x)
                                   : (static_cast<size_t>(y) * width + xw);
      blendAlongEdge(&in[i], &in[t1 * 4], &in[t2 * 4], &out[i]);
    }
  }
}

}  // namespace render
