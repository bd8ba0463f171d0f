// Recording from the window (docs/cli.md#recording-from-the-window): Ctrl+R or the panel's Record
// button. While it records, the window's frames advance on the clip's clock (LockedSteps: each
// frame exactly 1/fps of simulated time), and each frame's scene, without the panel, is rendered
// again at the clip's size and handed to an mp4 sink: the clip is smooth even when the machine
// cannot keep up, and shows what `springlab record --no-ui` would.
#pragma once

#include <memory>
#include <string>

#include "app/frame_driver.hpp"
#include "app/frame_sink.hpp"

namespace app {

class WindowRecorder {
 public:
  WindowRecorder();
  ~WindowRecorder();
  // Starts a clip at `path` of the given size (rounded down to even for yuv420p). `message` says
  // where it goes, or why it cannot start.
  bool start(const std::string& path, int width, int height, std::string* message);
  bool active() const { return sink_ != nullptr; }
  StepPolicy& clock() { return *clock_; }
  // After a frame: the clip's frame of the current state, if the clock produced a new one.
  void capture(FrameDriver& d);
  // Ends the clip; `message` says where it is and how long, or what went wrong.
  bool stop(std::string* message);
  std::string label() const;  // "REC 0:03.25"
  void releaseGl();           // while the context is current

  static constexpr double kFps = 60.0;

 private:
  std::unique_ptr<FrameSink> sink_;
  std::unique_ptr<LockedSteps> clock_;
  std::unique_ptr<render::Framebuffer> fbo_;
  std::string path_;
  int width_ = 0, height_ = 0;
  long long captured_ = -1;  // the clock's last frame captured
};

}  // namespace app
