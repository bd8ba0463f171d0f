// An FXAA-like anti-aliasing filter on the CPU (docs/architecture.md#anti-aliasing): what
// Framebuffer::endScene applies on software GL. There, a full-screen shader pass costs far more
// than the scene (llvmpipe's texture sampler: about 22 ms of CPU per 1280x720 frame, against
// 3-4 ms for this loop), so the scene is read back, filtered here and uploaded again.
#pragma once

#include <vector>

namespace render {

// The filter on an RGBA8 image of width x height (rows in either order; the filter is
// symmetric): a pixel whose local luma contrast (it and its four neighbours) is below
// kFxaaEdgeMin, or below kFxaaEdgeRelative of the brightest, is kept; on an edge, the axis with
// the larger luma contrast is across the edge, and the two neighbours along it are averaged and
// blended half and half with the pixel: a staircase's steps average into the line they
// approximate. The border rows and columns are kept. Alpha is kept. `luma` is scratch (no
// allocation once sized). The rows are shared out over `threads` threads (util/team.hpp); the
// result is the same whatever their number.
void fxaa(const std::vector<unsigned char>& in, std::vector<unsigned char>& out,
          std::vector<unsigned char>& luma, int width, int height, int threads = 1);

// no blending below this local contrast (absolute, and relative to the brightest neighbour): the
// background's gradient and the cloth's faint checker stay as they are
constexpr float kFxaaEdgeMin = 1.0f / 24.0f, kFxaaEdgeRelative = 1.0f / 8.0f;

}  // namespace render
