// Orbit / pan / zoom camera (MuJoCo and polyscope conventions) and the 2-D camera for planar
// scenes. Pure math (GLM): no GL calls, testable without a context.
#pragma once

#include <glm/glm.hpp>

namespace render {

struct Camera {
  glm::vec3 target{0.0f};   // orbit centre (m)
  float distance = 3.0f;    // eye to target (m)
  float yaw = 0.0f;         // rad, about +y; 0 looks along -z
  float pitch = 0.25f;      // rad, positive looks down; clamped to (-pi/2, pi/2)
  float fov_y = 0.785398f;  // rad (45 degrees)
  bool planar = false;      // 2-D: orthographic, looking along -z, no orbit

  glm::vec3 eye() const;
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;

  void orbit(float dyaw, float dpitch);  // ignored when planar
  // Pan by a drag of (dx, dy) pixels in a viewport `height` pixels high.
  void pan(float dx, float dy, float height);
  // Zoom by `factor` (< 1 zooms in) toward the world point under the cursor.
  void zoom(float factor, const glm::vec3& toward);
  // Fit the box [lo, hi] in view.
  void frame(const glm::vec3& lo, const glm::vec3& hi);
  // World-space ray through pixel (px, py) of a width x height viewport (py from the top).
  void ray(float px, float py, float width, float height, glm::vec3& origin, glm::vec3& dir) const;
};

}  // namespace render
