// A headless OpenGL 3.3 core context through EGL (Mesa's surfaceless platform, else the device
// platform): for screenshots, recording and render tests without any display. Rendering goes to
// a framebuffer object (render::Framebuffer); there is no default framebuffer.
#pragma once

#include <string>

namespace app {

class HeadlessContext {
 public:
  HeadlessContext() = default;
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  // Creates the context and makes it current; false with error() on failure.
  bool create();
  const std::string& error() const { return error_; }
  const std::string& description() const { return description_; }  // platform and renderer

 private:
  void* display_ = nullptr;
  void* context_ = nullptr;
  std::string error_, description_;
};

}  // namespace app
