#include "app/window_recorder.hpp"

#include <algorithm>
#include <cstdio>

namespace app {

WindowRecorder::WindowRecorder() = default;
WindowRecorder::~WindowRecorder() = default;

bool WindowRecorder::start(const std::string& path, int width, int height, std::string* message) {
  width_ = width - width % 2, height_ = height - height % 2;  // yuv420p: even sizes
  std::string error;
  const std::string ffmpeg = findFfmpeg();
  if (ffmpeg.empty()) {
    *message = "cannot record: ffmpeg not found on PATH (Debian: apt-get install ffmpeg)";
    return false;
  }
  sink_ = openSink({path, OutputKind::Mp4, width_, height_, kFps, ffmpeg}, &error);
  if (!sink_) {
    *message = "cannot record: " + error;
    return false;
  }
  clock_ = std::make_unique<LockedSteps>(kFps);
  if (!fbo_) fbo_ = std::make_unique<render::Framebuffer>();
  path_ = path;
  captured_ = -1;
  *message = "recording " + path;
  return true;
}

void WindowRecorder::capture(FrameDriver& d) {
  if (!sink_ || clock_->frame() == captured_) return;  // paused: the clip waits too
  captured_ = clock_->frame();
  d.renderSceneOnly(*fbo_, width_, height_);
  Frame f = sink_->takeBuffer();
  f.width = width_, f.height = height_;
  fbo_->read(f.rgba);
  if (!sink_->push(std::move(f))) {
    std::string message;
    stop(&message);
    d.setRecording(false);
    d.showStatus(message, true);
  }
}

bool WindowRecorder::stop(std::string* message) {
  if (!sink_) return false;
  const bool ok = sink_->finish();
  const long long frames = captured_ + 1;
  char detail[96];
  std::snprintf(detail, sizeof detail, " (%lld frames, %.2f s of simulated time)", frames,
                static_cast<double>(frames) / kFps);
  *message = ok ? "saved " + path_ + detail : "recording failed: " + sink_->error();
  sink_.reset();
  return ok;
}

std::string WindowRecorder::label() const {
  const double t = clock_ ? static_cast<double>(std::max<long long>(captured_, 0)) / kFps : 0.0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "REC %d:%05.2f", static_cast<int>(t / 60.0),
                t - 60.0 * static_cast<int>(t / 60.0));
  return buf;
}

void WindowRecorder::releaseGl() {
  fbo_.reset();
}

}  // namespace app
