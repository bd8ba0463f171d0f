// The README's blow-up clip end to end through the binary (docs/lab.md#the-blow-up-in-slow-motion):
// `record cloth_16 --at 2:dt=0.004 --caption --fps 30` shows the growth after t = 2 s one step a
// frame, ends on the torn cloth in view, and the last frame's banner and caption read by OCR
// (tesseract, scripts/install-deps.sh) at 640x360, 1280x720 and with the panel. Headless EGL.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "record_helpers.hpp"
#include "stb_image_reader.hpp"
#include "util.hpp"

using namespace testutil;
using recordtest::freshDir;
using recordtest::shell;

namespace {

// The README's clip, at `size`, with `extra` options, into `out`.
RunResult recordExplode(const std::string& size, const std::string& fps, const fs::path& out,
                        const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{"record", "cloth_16",  "--at",      "2:dt=0.004", "--seconds",
                                "3",      "--caption", "--fps",     fps,          "--size",
                                size,     "--out",     out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return springlab(args);
}

// The cloth as drawn: its blue checker (the front) and its tan back (a torn cloth shows it);
// the banner's dark red, the grid and the background are neither.
bool front(const unsigned char* p) {
  return p[2] > p[0] + 40;
}
bool back(const unsigned char* p) {
  return p[0] > 120 && p[0] > p[2] + 40 && p[1] > 60;
}

struct Drawn {
  long long front = 0, back = 0;
  int x0 = 1 << 30, x1 = -1, y0 = 1 << 30, y1 = -1;  // the cloth's pixels' bounding box
  int width() const { return x1 - x0; }
};

// The cloth's pixels below row `top` (the caption and banner above it).
Drawn drawnCloth(const Image& im, int top) {
  Drawn d;
  for (int y = top; y < im.h; ++y)
    for (int x = 0; x < im.w; ++x) {
      const unsigned char* p = &im.rgb[3 * (static_cast<size_t>(y) * im.w + x)];
      const bool f = front(p), b = back(p);
      d.front += f, d.back += b;
      if (f || b)
        d.x0 = std::min(d.x0, x), d.x1 = std::max(d.x1, x), d.y0 = std::min(d.y0, y),
        d.y1 = std::max(d.y1, y);
    }
  return d;
}

fs::path frame(const fs::path& dir, int k) {
  char name[16];
  std::snprintf(name, sizeof name, "%03d.png", k);
  return dir / name;
}

// What tesseract reads in a picture, lower case.
std::string ocr(const fs::path& png) {
  std::string text = shell("tesseract '" + png.string() + "' - 2>/dev/null");
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The banner's title ("Diverged at t = 2.024 s with symplectic_euler") and the caption
// ("cloth_16 | symplectic_euler | ... | energy ...") both read.
void checkReadsBannerAndCaption(const fs::path& png) {
  const std::string text = ocr(png);
  INFO(png.string() << " reads:\n" << text);
  CHECK(text.find("diverged") != std::string::npos);
  CHECK(text.find("symplectic_euler") != std::string::npos);
  CHECK(text.find("cloth") != std::string::npos);
  CHECK(text.find("energy") != std::string::npos);
}

}  // namespace

TEST_CASE(
    "record: the README's blow-up clip shows the growth one step a frame, then the torn cloth") {
  REQUIRE_MESSAGE(!shell("command -v tesseract").empty(),
                  "tesseract not found: scripts/install-deps.sh installs tesseract-ocr");
  const fs::path dir = freshDir("record_explode");
  const RunResult r = recordExplode("640x360", "30", dir / "%03d.png");
  CAPTURE(r.err);
  REQUIRE(r.status == 3);
  CHECK(r.err.find("the blow-up in slow motion (7 frames, one a step)") != std::string::npos);
  // frames 0-60 at 30 fps up to t = 2 s; 61-67 the steps of 0.004 s from the anchor at 2 s to the
  // runaway at 2.024 s; 68-97 the runaway state held 1 s under the banner
  CHECK(fs::exists(frame(dir, 97)));
  CHECK_FALSE(fs::exists(frame(dir, 98)));
  std::vector<Image> slow;
  for (int k = 61; k <= 67; ++k) slow.push_back(loadPng(frame(dir, k)));
  const Image last = loadPng(frame(dir, 97));
  REQUIRE(last.w == 640);
  // the 6 frames after t = 2 s differ from each other (their captions' times at least) ...
  for (size_t i = 2; i < slow.size(); ++i) CHECK(slow[i].rgb != slow[i - 1].rgb);
  // ... and the cloth grows in them, in one held framing: from the intact square to a torn
  // cloth showing its back, wider, and still in view below the caption and the banner
  constexpr int kBelowOverlays = 130;  // px: the caption and the banner end above at 640x360
  const Drawn intact = drawnCloth(slow.front(), kBelowOverlays);
  const Drawn torn = drawnCloth(last, kBelowOverlays);
  CHECK(intact.back < intact.front / 100);
  CHECK(torn.back > intact.front / 2);           // the torn pieces show their backs, ...
  CHECK(2 * torn.width() > 3 * intact.width());  // ... spread over half as wide again
  int growing = 0;
  for (size_t i = 1; i < slow.size(); ++i)
    growing += drawnCloth(slow[i], kBelowOverlays).width() > intact.width();
  CHECK(growing >= 2);  // the steps at 2.020 and 2.024 s at least
  CHECK(torn.x0 > 0);
  CHECK(torn.x1 < last.w - 1);
  CHECK(torn.y1 < last.h - 1);
  CHECK(drawnCloth(last, 0).y0 >= kBelowOverlays - 30);  // not under the banner
  // the last frame is the runaway state held: the banner and the caption read
  CHECK(loadPng(frame(dir, 70)).rgb == last.rgb);
  checkReadsBannerAndCaption(frame(dir, 97));
}

TEST_CASE("record: a blow-up's banner and caption read by OCR at 1280x720, with and without --ui") {
  REQUIRE_MESSAGE(!shell("command -v tesseract").empty(),
                  "tesseract not found: scripts/install-deps.sh installs tesseract-ocr");
  const fs::path dir = freshDir("record_explode_ocr");
  // 10 fps: the same slow motion (one frame a step) and last frame, fewer frames before it
  for (const bool panel : {false, true}) {
    CAPTURE(panel);
    const fs::path png = dir / (panel ? "ui.png" : "plain.png");
    const RunResult r =
        recordExplode("1280x720", "10", png,
                      panel ? std::vector<std::string>{"--ui"} : std::vector<std::string>{});
    CAPTURE(r.err);
    REQUIRE(r.status == 3);
    checkReadsBannerAndCaption(png);
  }
}
