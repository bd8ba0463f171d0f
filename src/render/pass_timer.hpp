// Where a frame goes, pass by pass (docs/benchmarks.md#where-a-frame-goes): the stepping, the
// UI's layout, each of the renderer's passes, the anti-aliasing, the UI's drawing, presenting and
// the read-back, each split into CPU time (the calls issuing it) and GL time (the GL working on
// it). Two ways to measure the GL's part:
// - Queries (hardware GL): a GL_TIME_ELAPSED query around each pass, read after the frame's
//   closing glFinish, so that it stalls nothing; every frame.
// - Finish (software GL, where a timer query measures the binning, not the rasterising threads):
//   glFinish before a pass, its calls timed on the CPU, then glFinish again and the wait timed as
//   the GL's part. The finishes cost the pipelining they break, so only one frame in
//   kFinishSampleEvery is measured (the others run as without a timer) and the sums are scaled
//   by the frames measured.
// Off (no --stats): every call returns at once.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace render {

enum class Pass {
  Step,        // the simulation (CPU only)
  UiLayout,    // ImGui's frame: the panel and overlays laid out (CPU only)
  Background,  // the clear and the gradient
  Upload,      // the positions and normals (SceneView to buffers) and the ground's update
  Colliders,
  Grid,
  Shadow,
  Surface,
  Springs,
  Points,
  Overlays,   // axes, trails, wind, the grab line, arrows
  Antialias,  // the resolve or the CPU filter (fxaa.hpp)
  UiDraw,     // ImGui's draw lists rendered
  Present,    // the blit to the window and the swap
  ReadBack,   // record: the frame read back for the encoder
  Count
};
inline constexpr int kPassCount = static_cast<int>(Pass::Count);
const char* passName(Pass p);  // "shadow", "surface", ...

class PassTimer {
 public:
  enum class Mode { Off, Finish, Queries };
  static constexpr int kFinishSampleEvery = 4;

  PassTimer() = default;
  ~PassTimer();
  PassTimer(const PassTimer&) = delete;
  PassTimer& operator=(const PassTimer&) = delete;

  // Queries needs a current GL 3.3 context (it makes the query objects as it goes).
  void setMode(Mode mode) { mode_ = mode; }
  Mode mode() const { return mode_; }
  // Around one frame: beginFrame decides whether this frame is measured; endFrame (after the
  // frame's glFinish) collects its queries.
  void beginFrame();
  void endFrame();
  // Around one pass of the frame (not nested; a pass may run several times a frame, e.g. once per
  // lane: its times add up). glWork false: a pass that issues no GL (Step, UiLayout).
  void begin(Pass p, bool glWork = true);
  void end();
  void releaseGl();  // the query objects, while the context is current

  struct Totals {
    std::array<double, kPassCount> cpu{}, gl{};  // ms, summed over the frames measured
    long long frames = 0;                        // frames measured
  };
  const Totals& totals() const { return totals_; }
  // The table: one line per pass that took time, "  shadow      0.41 ms CPU + 3.20 ms GL", per
  // frame measured, largest first, and the method ("GL timer queries" / "glFinish around each
  // pass, 1 frame in 4").
  std::string report() const;

 private:
  unsigned queryFor(size_t i);
  Mode mode_ = Mode::Off;
  bool measuring_ = false;  // this frame
  long long frameCount_ = 0;
  int open_ = -1;       // the pass begun, or -1
  bool openGl_ = true;  // it issues GL
  double openStart_ = 0.0;
  std::vector<unsigned> queries_;                 // reused from frame to frame
  std::vector<std::pair<int, unsigned>> issued_;  // this frame: (pass, query)
  Totals totals_;
};

// Times one pass for its scope (a null timer times nothing).
class PassScope {
 public:
  PassScope(PassTimer* timer, Pass p, bool glWork = true) : timer_(timer) {
    if (timer_) timer_->begin(p, glWork);
  }
  ~PassScope() {
    if (timer_) timer_->end();
  }
  PassScope(const PassScope&) = delete;
  PassScope& operator=(const PassScope&) = delete;

 private:
  PassTimer* timer_;
};

}  // namespace render
