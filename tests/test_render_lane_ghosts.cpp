// Overlaid lanes (docs/lab.md#lanes) keep lane 0's look: the ghosts of a cloth are a net of
// lines in their colours, not a tinted fill over it. Through the binary (record, headless EGL),
// in the pixels: with 4 lanes, the cloth's pixels are still lane 0's own where no line crosses.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "util.hpp"

#include "stb_image_reader.hpp"

using namespace testutil;

namespace {

// cloth_16 hangs face-on to the camera: at 1 s the four lanes still coincide, so every ghost
// lies over lane 0 (the case where a filled ghost tinted the whole cloth)
Image recordCloth(const std::string& name, const std::string& lanesFlag, const std::string& lanes) {
  const auto out = tempDir() / name;
  const RunResult r = springlab({"record", "cloth_16", lanesFlag, lanes, "--seconds", "1", "--fps",
                                 "10", "--size", "640x360", "--out", out.string()});
  REQUIRE_MESSAGE(r.status == 0, r.err);
  return loadPng(out);
}

// the cloth's own blue (palette::kClothFront shaded, with its checker): clearly bluer than red
bool clothBlue(const Image& im, size_t i) {
  constexpr int kBlueOverRed = 40;
  return int(im.rgb[i + 2]) - int(im.rgb[i]) > kBlueOverRed;
}

int colourDistance(const Image& a, const Image& b, size_t i) {
  int d = 0;
  for (int c = 0; c < 3; ++c) d += std::abs(int(a.rgb[i + c]) - int(b.rgb[i + c]));
  return d;
}

}  // namespace

TEST_CASE("lanes: four overlaid lanes leave lane 0's cloth in its own colours") {
  const Image one = recordCloth("ghosts_one.png", "--integrator", "xpbd");
  const Image four = recordCloth("ghosts_four.png", "--lanes",
                                 "xpbd,projective,verlet@0.0005,symplectic_euler@0.0005");
  REQUIRE(one.w == 640);
  REQUIRE(four.w == one.w);
  REQUIRE(four.h == one.h);
  // of 3 x 255: above anti-aliasing, below any lane colour mixed in
  constexpr int kSame = 24;
  long cloth = 0, same = 0;
  for (size_t i = 0; i < one.rgb.size(); i += 3) {
    if (!clothBlue(one, i)) continue;
    ++cloth;
    if (colourDistance(one, four, i) <= kSame) ++same;
  }
  REQUIRE(cloth > 20000);  // the cloth fills a good part of the frame
  const double kept = double(same) / double(cloth);
  INFO("cloth pixels " << cloth << ", unchanged under the ghosts " << same);
  // lane 0's look: most of its cloth untouched (a filled ghost left none)
  CHECK(kept > 0.8);
  // and the ghosts are there: their net crosses the cloth
  CHECK(kept < 0.99);
}
