// The background of a frame: the whole target cleared, then filled with a vertical gradient about
// DrawOptions::background (backgroundColor, renderer.hpp), drawn as one triangle.
#pragma once

#include <string>

#include "render/gl_objects.hpp"
#include "render/program.hpp"
#include "render/renderer.hpp"

namespace render {

// Colour, depth and stencil (the shadow's once-per-pixel mask) of the whole width x height target
// reset, the colour to the gradient's mid-height one: the alpha is 1 everywhere, and without the
// pass (before Renderer::init) that is all the background there is.
void clearTarget(const DrawOptions& options, int width, int height);

class BackgroundPass {
 public:
  util::Problem init();
  // The gradient over the whole target, `height` pixels high, if the options have one.
  void draw(const DrawOptions& options, int height);

 private:
  Program program_;    // background.vert/frag
  VertexArray empty_;  // no attributes: background.vert makes the triangle from gl_VertexID
};

}  // namespace render
