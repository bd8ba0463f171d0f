// Orbit camera: the eye sits `distance` behind the target along the forward direction given by
// yaw (about +y, 0 looks along -z) and pitch (positive looks down). The planar camera looks along
// -z through an orthographic projection whose half-height is distance * tan(fov_y / 2), so that
// zoom and pan behave the same in both modes.
#include "render/camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace render {

namespace {

constexpr float kPitchLimit = 1.5533430f;  // 89 degrees: keeps lookAt away from the pole
constexpr float kMinDistance = 1e-4f;      // m

glm::vec3 forwardOf(const Camera& c) {
  if (c.planar) return {0.0f, 0.0f, -1.0f};
  const float cp = std::cos(c.pitch);
  return {-std::sin(c.yaw) * cp, -std::sin(c.pitch), -std::cos(c.yaw) * cp};
}

// Orthonormal right and up vectors of the view (up is world +y projected).
void basis(const Camera& c, glm::vec3& forward, glm::vec3& right, glm::vec3& up) {
  forward = forwardOf(c);
  right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
  up = glm::cross(right, forward);
}

float halfHeightAtTarget(const Camera& c) {
  return c.distance * std::tan(0.5f * c.fov_y);
}

}  // namespace

glm::vec3 Camera::eye() const {
  return target - distance * forwardOf(*this);
}

glm::mat4 Camera::view() const {
  glm::vec3 f, r, u;
  basis(*this, f, r, u);
  return glm::lookAt(eye(), target, u);
}

glm::mat4 Camera::projection(float aspect) const {
  if (!(aspect > 0.0f) || !std::isfinite(aspect)) aspect = 1.0f;
  const float d = std::max(distance, kMinDistance);
  if (planar) {
    // a generous depth range around the eye: everything in front of or behind the scene plane
    const float h = halfHeightAtTarget(*this);
    return glm::ortho(-h * aspect, h * aspect, -h, h, -1000.0f * d, 1000.0f * d);
  }
  return glm::perspective(fov_y, aspect, 0.01f * d, 1000.0f * d);
}

void Camera::orbit(float dyaw, float dpitch) {
  if (planar) return;
  yaw = std::remainder(yaw + dyaw, 6.2831853f);
  pitch = std::clamp(pitch + dpitch, -kPitchLimit, kPitchLimit);
}

void Camera::pan(float dx, float dy, float height) {
  if (!(height > 0.0f)) return;
  glm::vec3 f, r, u;
  basis(*this, f, r, u);
  // metres per pixel in the plane through the target: the scene follows the cursor
  const float s = 2.0f * halfHeightAtTarget(*this) / height;
  target += (-dx * s) * r + (dy * s) * u;
}

void Camera::zoom(float factor, const glm::vec3& toward) {
  if (!(factor > 0.0f) || !std::isfinite(factor)) return;
  const float newDistance = std::max(distance * factor, kMinDistance);
  const float k = newDistance / distance;
  // scaling eye and target about `toward` keeps that point under the same pixel
  glm::vec3 t = toward + (target - toward) * k;
  if (planar) t.z = target.z;
  target = t;
  distance = newDistance;
}

void Camera::frame(const glm::vec3& lo, const glm::vec3& hi) {
  target = 0.5f * (lo + hi);
  float radius = 0.5f * glm::length(hi - lo);
  if (!(radius > 1e-6f) || !std::isfinite(radius)) radius = 0.5f;
  const float half = 0.5f * fov_y;
  if (planar) {
    // the box's x-y extent (and a margin) fills the height
    const float hx = 0.5f * (hi.x - lo.x), hy = 0.5f * (hi.y - lo.y);
    float h = std::max(hx, hy);
    if (!(h > 1e-6f)) h = radius;
    distance = 1.15f * h / std::tan(half);
  } else {
    // the bounding sphere fits the vertical field of view
    distance = 1.1f * radius / std::sin(half);
  }
}

void Camera::ray(float px, float py, float width, float height, glm::vec3& origin,
                 glm::vec3& dir) const {
  glm::vec3 f, r, u;
  basis(*this, f, r, u);
  const float w = width > 0.0f ? width : 1.0f, h = height > 0.0f ? height : 1.0f;
  const float aspect = w / h;
  const float x = 2.0f * px / w - 1.0f, y = 1.0f - 2.0f * py / h;  // normalised device coords
  const float t = std::tan(0.5f * fov_y);
  if (planar) {
    const float hh = distance * t;
    origin = eye() + (x * hh * aspect) * r + (y * hh) * u;
    dir = f;
  } else {
    origin = eye();
    dir = glm::normalize(f + (x * t * aspect) * r + (y * t) * u);
  }
}

}  // namespace render
