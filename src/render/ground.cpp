#include "render/ground.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "render/colliders.hpp"

namespace render {

namespace {

constexpr glm::vec3 kGridColor{0.62f, 0.64f, 0.68f};
constexpr std::array<glm::vec3, 3> kAxisColors{{{0.95f, 0.25f, 0.22f},   // x red
                                                {0.30f, 0.88f, 0.30f},   // y green
                                                {0.30f, 0.50f, 1.0f}}};  // z blue
constexpr float kGridCellsAcross = 8.0f;  // the spacing is the nice step nearest extent / 8
constexpr float kGridMargin = 0.03f;      // gap under the lowest point, fraction of the extent
// the floor is lowered (to a full margin under the scene) once the scene comes closer to it than
// this fraction of the margin: it never sits in the scene, and does not move for every dip
constexpr float kGridLowerWithin = 0.5f;
constexpr float kPlanarGridDepth = 0.25f;  // planar scenes: grid behind, fraction of the extent
constexpr float kMinExtent = 1e-3f;        // m: a single point still gets a finite grid
// m: the grid of a scene that is one point (a new scene's anchor, edit mode) is laid out as for a
// scene this wide, so that it reads at the view's scale while things are built around it
constexpr float kOnePointExtent = 1.0f;
// the grid reaches this many scene extents or camera distances: it fills the view at any zoom
constexpr float kGridReach = 3.0f;
// cells from the centre to the edge: a few at least; at most 401 lines per direction, whose
// cost (per primitive on llvmpipe) stays far below the scene's
constexpr int kGridMinHalf = 4, kGridMaxHalf = 200;
constexpr int kGridSegments = 12;   // per line, so that alpha can fade towards the edge
constexpr int kGridMajorEvery = 5;  // every 5th line is stronger
constexpr float kGridAlphaMajor = 0.42f, kGridAlphaMinor = 0.22f;
constexpr float kGridFadeStart = 0.3f;  // fraction of the reach where the fade begins
constexpr float kAxisLength = 1.5f;     // grid cells: longer than a cell, shorter than the scene

// 1, 2 or 5 times a power of ten, at least x.
float niceStep(float x) {
  if (!(x > 0.0f) || !std::isfinite(x)) return 1.0f;
  const float p = std::pow(10.0f, std::floor(std::log10(x)));
  const float m = x / p;
  return (m <= 1.0f ? 1.0f : m <= 2.0f ? 2.0f : m <= 5.0f ? 5.0f : 10.0f) * p;
}

// The bounds of the finite ones of the first n points; both 0 if there is none.
void finiteBounds(std::span<const float> positions, size_t n, glm::vec3& lo, glm::vec3& hi) {
  lo = glm::vec3(std::numeric_limits<float>::max());
  hi = glm::vec3(-std::numeric_limits<float>::max());
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    const glm::vec3 p(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
    any = true;
  }
  if (!any) lo = hi = glm::vec3(0.0f);
}

}  // namespace

void GroundPass::init() {
  vao_.create();
  vertices_.create();
  glBindVertexArray(vao_.id());
  attachColorVertices(vertices_);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void GroundPass::update(const SceneView& v, size_t n, const Camera& cam) {
  if (place(v, n)) dirty_ = true;
  if (follow(cam)) dirty_ = true;
  // a floor collider is the ground: the grid (and the shadows) lie on it
  float floor_level = 0.0f;
  if (!v.planar && floorLevel(v.colliders, floor_level) && grid_.level != floor_level) {
    grid_.level = floor_level;
    dirty_ = true;
  }
  if (dirty_) build(v.planar);
}

bool GroundPass::place(const SceneView& v, size_t n) {
  glm::vec3 lo, hi;
  finiteBounds(v.positions, n, lo, hi);
  // the grid plane: x-z under the scene, or x-y behind a planar one
  const float spread = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
  const float extent = spread > 0.0f ? std::max(spread, kMinExtent) : kOnePointExtent;
  const float margin = kGridMargin * extent;
  const float floor = v.planar ? lo.z : lo.y;
  bool moved = false;
  if (!grid_.valid || grid_.planar != v.planar) {
    grid_.valid = true;
    grid_.planar = v.planar;
    grid_.extent = extent;
    grid_.spacing = niceStep(extent / kGridCellsAcross);
    grid_.level = v.planar ? lo.z - kPlanarGridDepth * extent : lo.y - margin;
    moved = true;
  }
  // lowered when the scene falls through it (never raised: no jumping floor)
  if (floor - kGridLowerWithin * margin < grid_.level) {
    grid_.level = floor - margin;
    moved = true;
  }
  return moved;
}

// centred under the camera's target (snapped to the spacing, so lines never slide) and wide
// enough to fill the view: it follows pans and zooms
bool GroundPass::follow(const Camera& cam) {
  const glm::vec2 target =
      grid_.planar ? glm::vec2(cam.target.x, cam.target.y) : glm::vec2(cam.target.x, cam.target.z);
  glm::vec2 centre = glm::round(target / grid_.spacing) * grid_.spacing;
  if (!std::isfinite(centre.x) || !std::isfinite(centre.y)) centre = glm::vec2(0.0f);
  const float want = kGridReach * std::max(grid_.extent, cam.distance) / grid_.spacing;
  const int half = std::isfinite(want)
                       ? std::clamp(static_cast<int>(std::ceil(want)), kGridMinHalf, kGridMaxHalf)
                       : kGridMaxHalf;
  if (centre == grid_.centre && half == grid_.half) return false;
  grid_.centre = centre;
  grid_.half = half;
  return true;
}

void GroundPass::build(bool planar) {
  dirty_ = false;
  vertexScratch_.clear();
  const float s = grid_.spacing;
  const float reach = s * static_cast<float>(grid_.half);
  const auto world = [&](float a, float b) {
    return planar ? glm::vec3(a, b, grid_.level) : glm::vec3(a, grid_.level, b);
  };
  const auto fade = [&](float a, float b) {
    const float r = std::hypot(a - grid_.centre.x, b - grid_.centre.y) / reach;
    const float t = std::clamp((r - kGridFadeStart) / (1.0f - kGridFadeStart), 0.0f, 1.0f);
    return 1.0f - t * t * (3.0f - 2.0f * t);
  };
  const auto add = [&](float a, float b, float alpha) {
    vertexScratch_.push_back(colorVertex(world(a, b), kGridColor, alpha * fade(a, b)));
  };
  for (int i = -grid_.half; i <= grid_.half; ++i) {
    const float alpha = (i % kGridMajorEvery == 0) ? kGridAlphaMajor : kGridAlphaMinor;
    const float fixedCoord = s * static_cast<float>(i);
    for (int k = 0; k < kGridSegments; ++k) {  // along the second coordinate, then the first
      const float u0 = -reach + 2.0f * reach * k / kGridSegments;
      const float u1 = -reach + 2.0f * reach * (k + 1) / kGridSegments;
      add(grid_.centre.x + fixedCoord, grid_.centre.y + u0, alpha);
      add(grid_.centre.x + fixedCoord, grid_.centre.y + u1, alpha);
    }
    for (int k = 0; k < kGridSegments; ++k) {
      const float u0 = -reach + 2.0f * reach * k / kGridSegments;
      const float u1 = -reach + 2.0f * reach * (k + 1) / kGridSegments;
      add(grid_.centre.x + u0, grid_.centre.y + fixedCoord, alpha);
      add(grid_.centre.x + u1, grid_.centre.y + fixedCoord, alpha);
    }
  }
  gridVertices_ = static_cast<int>(vertexScratch_.size());
  addAxes();
  upload(GL_ARRAY_BUFFER, vertices_, vertexScratch_.size() * sizeof(ColorVertex),
         vertexScratch_.data(), GL_STATIC_DRAW);
}

// axes at the origin, kAxisLength cells long: x red, y green, z blue
void GroundPass::addAxes() {
  const float len = kAxisLength * grid_.spacing;
  for (int a = 0; a < 3; ++a) {
    glm::vec3 tip(0.0f);
    tip[a] = len;
    vertexScratch_.push_back(colorVertex(glm::vec3(0.0f), kAxisColors[a]));
    vertexScratch_.push_back(colorVertex(tip, kAxisColors[a]));
  }
  axesVertices_ = 6;
}

void GroundPass::drawGrid(const Frame& f) {
  if (gridVertices_ == 0) return;
  lineProgram_.use();
  lineProgram_.set("u_view_proj", f.viewProj);
  glBindVertexArray(vao_.id());
  glEnable(GL_BLEND);
  glDepthMask(GL_FALSE);
  glDrawArrays(GL_LINES, 0, gridVertices_);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

void GroundPass::drawAxes(const Frame& f) {
  if (axesVertices_ == 0) return;
  lineProgram_.use();
  lineProgram_.set("u_view_proj", f.viewProj);
  glBindVertexArray(vao_.id());
  glDrawArrays(GL_LINES, gridVertices_, axesVertices_);
}

}  // namespace render
