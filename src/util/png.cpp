#include "util/png.hpp"

#include <string_view>

#include "util/atomic_file.hpp"

// the implementation is compiled here with internal linkage, so that it cannot clash with
// Debian's libstb (which the imgui package links)
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace util {

namespace {
constexpr int kPngZlibLevel = 4;  // stb_image_write's zlib effort (default 8)
constexpr int kPngSubFilter = 1;  // PNG filter type 1, "Sub", for every row
}  // namespace

Problem writePng(const std::string& path, int width, int height,
                 const std::vector<unsigned char>& rgba) {
  const auto cannotWrite = [&](const std::string& why) -> Problem {
    return "cannot write PNG '" + path + "': " + why;
  };
  if (width <= 0 || height <= 0) return cannotWrite("image size must be positive");
  if (rgba.size() < static_cast<size_t>(width) * static_cast<size_t>(height) * 4)
    return cannotWrite("pixel buffer is smaller than " + std::to_string(width) + "x" +
                       std::to_string(height) + " RGBA");
  // stb's defaults (zlib level 8, every row filter tried) took ~110 ms for a 1280x720 frame;
  // the Sub filter at level 4 took ~48 ms and gave files 8 % smaller on rendered scenes. Set
  // once, thread-safely (the recorder's writer thread writes PNGs too).
  static const bool tuned = [] {
    stbi_write_png_compression_level = kPngZlibLevel;
    stbi_write_force_png_filter = kPngSubFilter;
    return true;
  }();
  (void)tuned;
  int len = 0;
  unsigned char* png = stbi_write_png_to_mem(rgba.data(), width * 4, width, height, 4, &len);
  if (!png) return cannotWrite("PNG encoding failed");
  const Problem written = writeFileAtomically(
      path, std::string_view(reinterpret_cast<const char*>(png), static_cast<size_t>(len)));
  STBIW_FREE(png);
  if (written) return cannotWrite(*written);
  return std::nullopt;
}

}  // namespace util
