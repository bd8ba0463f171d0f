// The window's scene on a software GL drawn at app::FrameDriver::kSoftwareSceneScale of its
// pixels and stretched over it (docs/benchmarks.md#where-a-frame-goes): the picture is the
// full-size one, softened, in the same place, and the panel says so.
#include <doctest/doctest.h>

#ifdef SPRINGLAB_VIEWER

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/egl_context.hpp"
#include "app/frame_driver.hpp"
#include "app/platform.hpp"
#include "app/step_policy.hpp"
#include "fp_trap.hpp"
#include "render/renderer.hpp"

namespace {

struct Frame {
  int w = 0, h = 0;
  bool software_gl = false;  // the driver found a software GL (llvmpipe)
  std::vector<unsigned char> rgba;
  // the cloth's pixels: its blue (the background and grid are grey)
  bool cloth(int x, int y) const {
    const unsigned char* p = &rgba[4 * (static_cast<size_t>(y) * w + x)];
    return p[2] > p[0] + 60;
  }
};

struct Box {
  int x0 = INT_MAX, y0 = INT_MAX, x1 = INT_MIN, y1 = INT_MIN;
  long pixels = 0;
};

Box clothBox(const Frame& f) {
  Box b;
  for (int y = 0; y < f.h; ++y)
    for (int x = 0; x < f.w; ++x)
      if (f.cloth(x, y)) {
        b.x0 = std::min(b.x0, x), b.x1 = std::max(b.x1, x);
        b.y0 = std::min(b.y0, y), b.y1 = std::max(b.y1, y);
        ++b.pixels;
      }
  return b;
}

// cloth_16 at rest, drawn by a frame driver as the window draws it (scaled down on a software
// GL) or as a clip does (full size); the scene alone, no panel
Frame drawCloth(bool scale_down, int w, int h) {
  testutil::FpTrapsOff mesa;  // the GL driver raises its own
  app::HeadlessContext context;
  REQUIRE_MESSAGE(context.create(), context.error());
  app::FrameDriver d;
  d.session().load("cloth_16");
  std::string error;
  REQUIRE_MESSAGE(d.initGl(&error), error);
  app::FrameOptions o;
  o.show_ui = false, o.axes = false, o.pacing = app::Pacing::SmoothFrames;
  o.scale_down_software = scale_down;
  d.configure(o);
  d.frameScene();
  d.sceneDefaults();
  d.session().setPaused(true);
  app::LockedSteps steps{60.0};
  d.renderFrame(steps, w, h);
  Frame f{w, h, d.softwareGl(), {}};
  d.target().read(f.rgba);
  if (const char* dir = std::getenv("SPRINGLAB_RENDER_PNG_DIR"); dir && *dir)
    CHECK_FALSE(render::writePng(
        std::string(dir) + "/software_scale_" + (scale_down ? "half" : "full") + ".png", w, h,
        f.rgba));
  d.releaseGl();
  return f;
}

}  // namespace

TEST_CASE("window on software GL: the scene drawn at half size lands where the full one does") {
  constexpr int w = 960, h = 540;
  const Frame full = drawCloth(false, w, h), half = drawCloth(true, w, h);
  REQUIRE(half.rgba.size() == full.rgba.size());
  if (!half.software_gl) {
    MESSAGE("a hardware GL draws the window at full size: nothing to compare");
    return;
  }
  // it was drawn smaller: the pictures differ
  CHECK(half.rgba != full.rgba);
  // the same cloth in the same place: its box within a pixel of the smaller picture's
  // (1 / kSoftwareSceneScale) on each side, its area within a tenth
  const Box a = clothBox(full), b = clothBox(half);
  REQUIRE(a.pixels > w * h / 50);
  const int slack = static_cast<int>(1.0f / app::FrameDriver::kSoftwareSceneScale) + 1;
  CHECK(std::abs(a.x0 - b.x0) <= slack);
  CHECK(std::abs(a.x1 - b.x1) <= slack);
  CHECK(std::abs(a.y0 - b.y0) <= slack);
  CHECK(std::abs(a.y1 - b.y1) <= slack);
  CHECK(std::abs(a.pixels - b.pixels) < a.pixels / 10);
}

#endif  // SPRINGLAB_VIEWER
