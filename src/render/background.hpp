// The background of a frame: the whole target cleared, then filled with a vertical gradient about
// DrawOptions::background (backgroundColor, renderer.hpp), drawn as one triangle. On a
// single-sample target the triangle is drawn once into a cached image and copied each frame
// (glBlitFramebuffer at equal size and format, which a software GL does as a memory copy: clear
// and triangle cost Mesa's llvmpipe 10.6 ms of a loaded machine's 1280x720 frame, the copy 3.2,
// docs/benchmarks.md#where-a-frame-goes).
#pragma once

#include <string>

#include "render/gl_objects.hpp"
#include "render/program.hpp"
#include "render/renderer.hpp"

namespace render {

// Colour, depth and stencil (the shadow's once-per-pixel mask) of the whole width x height target
// reset, the colour to the gradient's mid-height one: the alpha is 1 everywhere, and without the
// pass (before Renderer::init) that is all the background there is.
// colour false: depth and stencil only (the gradient then covers every pixel).
void clearTarget(const DrawOptions& options, int width, int height, bool colour = true);

class BackgroundPass {
 public:
  BackgroundPass() = default;
  ~BackgroundPass();
  BackgroundPass(const BackgroundPass&) = delete;
  BackgroundPass& operator=(const BackgroundPass&) = delete;
  util::Problem init();
  // Whether draw() fills every pixel of the target (the options have a gradient).
  static bool covers(const DrawOptions& options);
  // The gradient over the whole width x height target, if the options have one.
  void draw(const DrawOptions& options, int width, int height);

 private:
  void drawTriangle(const DrawOptions& options, int height);
  // the cached gradient for this size and these colours, drawn afresh when they change; false
  // where it cannot be made (the triangle is drawn instead)
  bool ensureCache(const DrawOptions& options, int width, int height);
  void releaseCache();
  Program program_;    // background.vert/frag
  VertexArray empty_;  // no attributes: background.vert makes the triangle from gl_VertexID
  unsigned cacheFbo_ = 0, cacheColor_ = 0;
  int cacheWidth_ = 0, cacheHeight_ = 0;
  glm::vec3 cacheBackground_{-1.0f};
  float cacheGradient_ = 0.0f;
};

}  // namespace render
