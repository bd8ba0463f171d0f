// What the passes of one Renderer::draw share: the camera's matrices and the viewport (a Frame),
// and the few constants that more than one pass draws with.
#pragma once

#include <cstddef>
#include <glm/glm.hpp>

namespace render {

struct Frame {
  glm::mat4 view{1.0f}, proj{1.0f}, viewProj{1.0f};
  int width = 0, height = 0;  // of the viewport, pixels
  bool orthographic = false;  // the planar camera's projection
  std::size_t points = 0;     // of the view: SceneView::positions holds 3 floats each
};

// a divergence's culprit, point or line
constexpr glm::vec3 kHighlightMagenta{1.0f, 0.15f, 0.95f};

// the cloth is pushed back by this polygon offset (factor, units), so that springs and the
// wireframe lying on it win the depth test instead of flickering through it (a collider plane is
// pushed back as far, so that the grid and the shadows on a floor stay in front)
constexpr float kSurfaceOffsetFactor = 1.0f, kSurfaceOffsetUnits = 1.0f;

}  // namespace render
