// PNG files (stb_image_write from Debian's libstb), written atomically: never a truncated PNG
// under the final name. Used by the renderer's screenshots and frames, and by sweep's heat maps.
#pragma once

#include <string>
#include <vector>

#include "util/expected.hpp"

namespace util {

// Writes `rgba` (width x height, 4 bytes a pixel, top row first) to `path`; the problem is
// "cannot write PNG 'path': why".
Problem writePng(const std::string& path, int width, int height,
                 const std::vector<unsigned char>& rgba);

}  // namespace util
