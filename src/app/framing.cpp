#include "app/framing.hpp"

#include <algorithm>
#include <cmath>

namespace app {

void Box::add(const glm::vec3& p) {
  lo = glm::min(lo, p);
  hi = glm::max(hi, p);
}

void Box::add(const Box& b) {
  if (!b.empty()) add(b.lo), add(b.hi);
}

bool Box::contains(const Box& b) const {
  return b.empty() ||
         (glm::all(glm::lessThanEqual(lo, b.lo)) && glm::all(glm::greaterThanEqual(hi, b.hi)));
}

Box boxOf(std::span<const float> xyz) {
  Box b;
  for (size_t i = 0; i + 2 < xyz.size(); i += 3) {
    const glm::vec3 p(xyz[i], xyz[i + 1], xyz[i + 2]);
    if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) b.add(p);
  }
  return b;
}

Box reachBox(const sim::Skeleton& k) {
  Box b;
  if (!k.has_reach) return b;
  const glm::vec3 centre(k.reach_centre.x(), k.reach_centre.y(), k.reach_centre.z());
  const glm::vec3 half(k.reach_half.x(), k.reach_half.y(), k.reach_half.z());
  b.add(centre - half);
  b.add(centre + half);
  return b;
}

void frameBox(render::Camera& camera, const Box& box, float aspect) {
  if (box.empty()) return;
  const float a = aspect > 0.0f && std::isfinite(aspect) ? aspect : 1.0f;
  if (camera.planar) {
    // Camera::frame fits max(half width, half height) to the height: a box wider than the
    // viewport's shape gets the height that makes its width fit
    const glm::vec3 c = box.centre(), half = 0.5f * (box.hi - box.lo);
    const float h = std::max(half.y, half.x / a);
    camera.frame(glm::vec3(c.x - std::min(half.x, h), c.y - h, c.z - half.z),
                 glm::vec3(c.x + std::min(half.x, h), c.y + h, c.z + half.z));
    return;
  }
  camera.frame(box.lo, box.hi);  // the bounding sphere fits the vertical field of view
  if (a < 1.0f) {                // ... and, in a narrow viewport, the horizontal one
    const float half = 0.5f * camera.fov_y;
    camera.distance *= std::sin(half) / std::sin(std::atan(a * std::tan(half)));
  }
}

Box runawayBox(std::span<const float> intact, std::span<const float> found, float reach) {
  const Box core = boxOf(intact);
  if (core.empty()) return boxOf(found);
  const glm::vec3 c = core.centre();
  const glm::vec3 size = core.hi - core.lo;
  const float r = reach * 0.5f * std::max({size.x, size.y, size.z});
  Box b = core;
  for (size_t i = 0; i + 2 < found.size(); i += 3) {
    const glm::vec3 p(found[i], found[i + 1], found[i + 2]);
    const glm::vec3 d = glm::abs(p - c);
    if (d.x <= r && d.y <= r && d.z <= r) b.add(p);  // false for a NaN
  }
  return b;
}

void SceneFraming::reset(const Box& initial) {
  seen_ = initial;
  held_ = false;
  pending_ = true;
  user_moved_ = false;
}

namespace {
bool sameView(const render::Camera& a, const render::Camera& b) {
  return a.target == b.target && a.distance == b.distance && a.yaw == b.yaw && a.pitch == b.pitch;
}

Box grown(const Box& b, float factor) {
  const glm::vec3 c = b.centre(), half = 0.5f * factor * (b.hi - b.lo);
  return {c - half, c + half};
}
}  // namespace

void SceneFraming::update(render::Camera& camera, std::span<const float> xyz, float aspect,
                          bool follow) {
  const Box now = boxOf(xyz);
  if (!held_) seen_.add(now);
  if (!pending_ && !sameView(camera, last_)) user_moved_ = true;
  if (follow && !now.empty()) {
    camera.target = now.centre();  // re-centre; the zoom and the angles stay the user's
  } else if (!user_moved_ && (pending_ || aspect != aspect_ || !framed_.contains(seen_))) {
    framed_ = grown(seen_, kHeadroom);
    frameBox(camera, framed_, aspect);
    pending_ = false;
  }
  aspect_ = aspect;
  last_ = camera;
}

void ColumnFraming::reset(const Box& initial) {
  seen_ = initial;
  framed_ = Box{};
}

void ColumnFraming::apply(render::Camera& camera, std::span<const float> xyz, float aspect) {
  seen_.add(boxOf(xyz));
  if (seen_.empty()) return;
  // the framing depends on the angles (a 3-D box's sphere does not, a planar one's shape does)
  const bool moved = camera.planar != planar_ || camera.yaw != yaw_ || camera.pitch != pitch_;
  if (framed_.empty() || moved || aspect != aspect_ || !framed_.contains(seen_)) {
    framed_ = grown(seen_, SceneFraming::kHeadroom);
    render::Camera c = camera;
    frameBox(c, framed_, aspect);
    target_ = c.target, distance_ = c.distance;
    aspect_ = aspect, planar_ = camera.planar, yaw_ = camera.yaw, pitch_ = camera.pitch;
  }
  camera.target = target_, camera.distance = distance_;
}

}  // namespace app
