// PNG files (stb_image_write from Debian's libstb), written atomically: never a truncated PNG
// under the final name. Used by the renderer's screenshots and frames, and by sweep's heat maps.
#pragma once

#include <string>
#include <vector>

namespace util {

// Writes `rgba` (width x height, 4 bytes a pixel, top row first) to `path`; false with *error set
// ("cannot write PNG 'path': why").
bool writePng(const std::string& path, int width, int height,
              const std::vector<unsigned char>& rgba, std::string* error);

}  // namespace util
