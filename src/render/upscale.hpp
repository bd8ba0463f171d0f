// Bilinear enlargement of an RGBA8 image on the CPU (docs/architecture.md#anti-aliasing): how a
// software GL's window stretches the scene it drew at a fraction of its pixels
// (app::FrameDriver::kSoftwareSceneScale) over the window. There a GL blit or a textured quad
// that scales costs more than the scene saved (llvmpipe: about 11 ms for 1280x720 on a quiet
// 2-core machine, against about 2 ms for this loop).
#pragma once

#include <cstdint>
#include <vector>

namespace render {

// `in` (in_width x in_height) stretched to out_width x out_height, each output pixel sampled at
// its centre with pixel centres aligned (as GL_LINEAR's blit), clamped at the border; weights
// in 1/256ths, rounded after each of the two passes (along x, then along y), so that the
// result is the same whatever the thread count. `stretched` is scratch (no allocation once
// sized). The rows are shared out over `threads` threads (util/team.hpp). Rows in either order.
void upscaleBilinear(const std::vector<unsigned char>& in, int in_width, int in_height,
                     std::vector<unsigned char>& out, int out_width, int out_height,
                     std::vector<std::uint32_t>& stretched, int threads = 1);

}  // namespace render
