// Bilinear enlargement on the CPU (upscale.hpp).
#include "render/upscale.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "util/team.hpp"

namespace render {

namespace {

constexpr int kWeightBits = 8;  // weights in 1/256ths: exact in 32-bit sums of 8-bit values
constexpr int kOne = 1 << kWeightBits;

// Where output sample i of `out` falls in a row of `in` samples: its first source index and
// the second's weight (the first's is kOne minus it), centres aligned, clamped at both ends.
struct Tap {
  int first;
  int weight;
};

std::vector<Tap> taps(int in, int out) {
  std::vector<Tap> t(static_cast<size_t>(out));
  const double ratio = double(in) / double(out);
  for (int i = 0; i < out; ++i) {
    const double at = std::clamp((i + 0.5) * ratio - 0.5, 0.0, double(in - 1));
    const int first = std::min(static_cast<int>(at), std::max(0, in - 2));
    const int w = static_cast<int>(std::lround((at - first) * kOne));
    t[static_cast<size_t>(i)] = {first, std::clamp(w, 0, kOne)};
  }
  return t;
}

// Two pixels' RGBA8 (one 32-bit word each) mixed as (wa a + wb b) / 256, rounded, wa + wb = 256:
// the red and blue bytes, then the green and alpha ones, as two 16-bit fields of a word each
// (255 * 256 + 128 < 65536: no field spills into the next).
inline std::uint32_t mix(std::uint32_t a, std::uint32_t b, std::uint32_t wa, std::uint32_t wb) {
  constexpr std::uint32_t kLow = 0x00FF00FFu, kRound = 0x00800080u;
  const std::uint32_t rb = (((a & kLow) * wa + (b & kLow) * wb + kRound) >> kWeightBits) & kLow;
  const std::uint32_t ga = ((((a >> 8) & kLow) * wa + ((b >> 8) & kLow) * wb + kRound)) & ~kLow;
  return rb | ga;
}

// One source row enlarged along x into `row` (out pixels, RGBA8 words).
inline std::uint32_t word(const unsigned char* p) {
  std::uint32_t w;
  std::memcpy(&w, p, 4);  // a pixel as one word, defined whatever the alignment
  return w;
}

void stretchRow(const unsigned char* src, const std::vector<Tap>& across, bool single,
                std::uint32_t* row) {
  for (size_t i = 0; i < across.size(); ++i) {
    const unsigned char* p = src + 4 * static_cast<size_t>(across[i].first);
    const std::uint32_t a = word(p), b = single ? a : word(p + 4);
    const auto wb = static_cast<std::uint32_t>(across[i].weight);
    row[i] = mix(a, b, kOne - wb, wb);
  }
}

}  // namespace

void upscaleBilinear(const std::vector<unsigned char>& in, int in_width, int in_height,
                     std::vector<unsigned char>& out, int out_width, int out_height,
                     std::vector<std::uint32_t>& stretched, int threads) {
  out.resize(static_cast<size_t>(out_width) * static_cast<size_t>(out_height) * 4);
  if (in_width < 1 || in_height < 1 || out_width < 1 || out_height < 1 ||
      in.size() < static_cast<size_t>(in_width) * static_cast<size_t>(in_height) * 4) {
    std::fill(out.begin(), out.end(), 0);
    return;
  }
  const std::vector<Tap> across = taps(in_width, out_width), down = taps(in_height, out_height);
  const bool single_column = in_width == 1, single_row = in_height == 1;
  const auto wide = static_cast<size_t>(out_width);
  stretched.resize(wide * static_cast<size_t>(in_height));  // every source row along x, once
  util::runTeam(std::max(1, threads), [&](util::TeamMember& team) {
    team.forEach(0, in_height, [&](int y) {
      stretchRow(&in[4 * static_cast<size_t>(y) * in_width], across, single_column,
                 &stretched[wide * y]);
    });
    team.forEach(0, out_height, [&](int y) {
      const Tap& tap = down[static_cast<size_t>(y)];
      // bytes: the 16-bit products vectorise (255 * 256 + 128 < 65536)
      const auto* upper = reinterpret_cast<const unsigned char*>(&stretched[wide * tap.first]);
      const unsigned char* lower = single_row ? upper : upper + 4 * wide;
      const auto wb = static_cast<std::uint16_t>(tap.weight);
      const auto wa = static_cast<std::uint16_t>(kOne - wb);
      unsigned char* dst = &out[4 * wide * y];
      const size_t bytes = 4 * wide;  // a local: dst's stores could alias the captured one
      for (size_t i = 0; i < bytes; ++i)
        dst[i] = static_cast<unsigned char>(
            static_cast<std::uint16_t>(upper[i] * wa + lower[i] * wb + kOne / 2) >> kWeightBits);
    });
  });
}

}  // namespace render
