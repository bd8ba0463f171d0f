// Text in pictures drawn without GL (the stability map's PNG, docs/cli.md#sweep): DejaVu Sans from
// Debian's fonts-dejavu-core, embedded into the binary at build time
// (scripts/embed_binary.cmake), rasterised with anti-aliasing by stb_truetype (Debian's libstb).
#pragma once

#include <string_view>
#include <vector>

namespace util {

// One line of text as coverage: width x height bytes, 0 (no ink) to 255, top row first.
struct TextMask {
  int width = 0, height = 0;
  int baseline = 0;  // px from the top row to the baseline
  std::vector<unsigned char> alpha;
  unsigned char at(int x, int y) const { return alpha[static_cast<size_t>(y) * width + x]; }
};

// `text` (UTF-8) at `pixelHeight` px from the font's highest ascent to its lowest descent. The
// width is the line's advance (kerning included, at least 1 px), the height ceil(pixelHeight).
// A code point the font lacks draws as its missing-glyph box; a malformed byte as U+FFFD.
TextMask renderText(std::string_view text, double pixelHeight);

// The mask turned a quarter turn counter-clockwise: text that reads upwards (a vertical axis's
// title).
TextMask rotatedLeft(const TextMask& m);

}  // namespace util
