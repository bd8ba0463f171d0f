// stb_image's PNG reader for the tests that look at rendered pixels: each including test file
// gets its own static copy (STB_IMAGE_STATIC), its warnings kept out of the build's; and a PNG
// read as RGB rows (loadPng).
#pragma once

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#endif
#include <stb/stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include <filesystem>
#include <vector>

namespace testutil {

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;  // 3 bytes per pixel, top row first
};

// The PNG at p as RGB; an empty image when it cannot be read.
inline Image loadPng(const std::filesystem::path& p) {
  Image im;
  int n = 0;
  unsigned char* data = stbi_load(p.c_str(), &im.w, &im.h, &n, 3);
  if (!data) return im;
  im.rgb.assign(data, data + static_cast<size_t>(im.w) * im.h * 3);
  stbi_image_free(data);
  return im;
}

}  // namespace testutil
