#include "render/fxaa.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "util/team.hpp"

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

namespace {

// Marks the edge pixels of one row (x in 1 .. width-2; the border columns are left unmarked):
// the local luma contrast of the pixel and its four neighbours against the thresholds. Plain
// loops over bytes, so that the compiler vectorises them.
void markEdges(const unsigned char* row, const unsigned char* up, const unsigned char* down,
               int width, unsigned char* edge) {
  for (int x = 1; x + 1 < width; ++x) {
    const int m = row[x], n = up[x], s = down[x], e = row[x + 1], w = row[x - 1];
    const int lo = std::min(std::min(std::min(m, n), std::min(s, e)), w);
    const int hi = std::max(std::max(std::max(m, n), std::max(s, e)), w);
    edge[x] = hi - lo >= std::max(kEdgeMinByte, hi >> kEdgeRelativeShift);
  }
}

// Row y (1 .. height-2) of the filter: the edge pixels of `out` blended along their edge; `edge`
// is one row of scratch.
void filterRow(const std::vector<unsigned char>& in, std::vector<unsigned char>& out,
               const unsigned char* luma, int width, int y, unsigned char* edge) {
  const size_t stride = static_cast<size_t>(width);
  const unsigned char* row = &luma[y * stride];
  markEdges(row, row + stride, row - stride, width, edge);
  for (int x = 1; x + 1 < width; ++x) {
    if (!edge[x]) continue;
    const int m = row[x];
    // more contrast across x than across y: the edge runs along y, so the taps are above
    // and below (a thin line keeps its colour: both taps lie on it)
    const bool edgeAlongY = std::abs(row[x + 1] - m) + std::abs(row[x - 1] - m) >
                            std::abs(row[x + stride] - m) + std::abs(row[x - stride] - m);
    const size_t i = (y * stride + x) * 4;
    const size_t step = edgeAlongY ? stride * 4 : 4;
    blendAlongEdge(&in[i], &in[i + step], &in[i - step], &out[i]);
  }
}

}  // namespace

void fxaa(const std::vector<unsigned char>& in, std::vector<unsigned char>& out,
          std::vector<unsigned char>& luma, int width, int height, int threads) {
  const size_t n = static_cast<size_t>(width) * static_cast<size_t>(height);
  if (width < 3 || height < 3 || in.size() < n * 4) {  // too small to have an inside
    out.assign(in.begin(), in.end());
    return;
  }
  const size_t stride = static_cast<size_t>(width);
  const int members = std::max(1, threads);
  out.resize(n * 4);
  luma.resize(n + stride * static_cast<size_t>(members));  // then a row of edge marks a member
  // rows shared out: first the copy and the luma (a row's filter reads the luma of its
  // neighbours), then the filter; every row is computed alike whatever the thread count
  util::runTeam(members, [&](util::TeamMember& team) {
    team.forEach(0, height, [&](int y) {
      const size_t first = y * stride;
      std::memcpy(&out[first * 4], &in[first * 4], stride * 4);  // edges rewritten below
      for (size_t i = first; i < first + stride; ++i) luma[i] = lumaOf(&in[i * 4]);
    });
    unsigned char* edge = &luma[n + stride * static_cast<size_t>(team.id())];
    team.forEach(1, height - 1, [&](int y) { filterRow(in, out, luma.data(), width, y, edge); });
  });
}

}  // namespace render
