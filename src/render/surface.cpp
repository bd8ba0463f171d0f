#include "render/surface.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>

#include "render/palette.hpp"

namespace render {

namespace {

// colours (linear 0..1)
constexpr glm::vec3 kClothFront = palette::kClothFront;
constexpr glm::vec3 kClothBack = palette::kClothBack;
constexpr glm::vec3 kWire{0.10f, 0.14f, 0.20f};
// checker squares across one unit of SceneView::surface_uv (the cloth's larger side): enough to
// see motion and folds, few enough to stay a texture and not a pattern
constexpr float kCheckerSquares = 12.0f;
// a ghosted lane's surface: net lines across one unit of surface_uv (every third checker edge:
// its shape reads, and lane 0 under it keeps its look, docs/lab.md#lanes)
constexpr float kGhostNetLines = 4.0f;
// Surface levels (SceneView::surface_levels): the coarsest level whose cells are at most
// kLevelCellPixels across on screen is drawn; one already drawn is kept until its cells pass
// kLevelKeepPixels, so that a cloth swinging near the bound does not switch every frame. At 2.5
// pixels a coarse cell's shading and outline look as the whole surface's do (compared in
// screenshots, docs/architecture.md#surface-levels); the normals are the whole surface's.
constexpr float kLevelCellPixels = 2.5f, kLevelKeepPixels = 3.0f;
constexpr size_t kLevelSampleTriangles = 64;  // whose edges measure the surface's cells
constexpr float kMinClipW = 1e-6f;            // a vertex nearer the eye's plane is not measured

}  // namespace

void vertexNormals(std::span<const float> positions, std::span<const std::uint32_t> triangles,
                   std::vector<float>& normals) {
  const size_t n = positions.size() / 3;
  normals.assign(3 * n, 0.0f);
  const float* x = positions.data();
  const auto at = [x](std::uint32_t i) { return glm::vec3(x[3 * i], x[3 * i + 1], x[3 * i + 2]); };
  for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
    const std::uint32_t a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
    if (a >= n || b >= n || c >= n) continue;
    const glm::vec3 pa = at(a);
    const glm::vec3 nrm = glm::cross(at(b) - pa, at(c) - pa);  // length = 2 * area: area-weighted
    for (std::uint32_t i : {a, b, c}) {
      normals[3 * i] += nrm.x;
      normals[3 * i + 1] += nrm.y;
      normals[3 * i + 2] += nrm.z;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    float* p = &normals[3 * i];
    const float len = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    // a zero or non-finite sum stays (or becomes) 0: the shader then uses the view direction
    const float inv = len > 0.0f && std::isfinite(len) ? 1.0f / len : 0.0f;
    for (int c = 0; c < 3; ++c) p[c] = inv > 0.0f ? p[c] * inv : 0.0f;
  }
}

void validTriangles(std::span<const std::uint32_t> in, size_t n, std::vector<std::uint32_t>& out) {
  out.clear();
  for (size_t t = 0; t + 2 < in.size(); t += 3) {
    const std::uint32_t a = in[t], b = in[t + 1], c = in[t + 2];
    if (a < n && b < n && c < n) out.insert(out.end(), {a, b, c});
  }
}

// positions, normals, material coordinates, triangles
void SurfacePass::init(const Buffer& positions) {
  for (Buffer* b : {&normals_, &uv_, &triangleIndices_, &levelIndices_}) b->create();
  vao_.create();
  glBindVertexArray(vao_.id());
  attachPositions(positions);
  glBindBuffer(GL_ARRAY_BUFFER, normals_.id());
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, uv_.id());
  glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 0, nullptr);  // enabled with the topology
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, triangleIndices_.id());
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void SurfacePass::uploadTopology(const SceneView& v, size_t n) {
  uploadUv(v, n);
  validTriangles(v.triangles, n, triangles_);
  uploadIndices(vao_, triangleIndices_, triangles_);
  uploadLevels(v, n);
}

// material coordinates go up with the topology; without them (or with the wrong count) the
// attribute is a constant and the checker is off
void SurfacePass::uploadUv(const SceneView& v, size_t n) {
  haveUv_ = n > 0 && v.surface_uv.size() == 2 * n;
  glBindVertexArray(vao_.id());
  if (haveUv_) {
    upload(GL_ARRAY_BUFFER, uv_, v.surface_uv.size_bytes(), v.surface_uv.data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(2);
  } else {
    glDisableVertexAttribArray(2);
  }
  glBindVertexArray(0);
}

void SurfacePass::uploadLevels(const SceneView& v, size_t n) {
  std::vector<std::uint32_t> all, valid;
  levelFirst_.assign(1, 0);
  for (const auto& level : v.surface_levels) {
    validTriangles(level, n, valid);
    all.insert(all.end(), valid.begin(), valid.end());
    levelFirst_.push_back(all.size());
  }
  upload(GL_ARRAY_BUFFER, levelIndices_, all.size() * sizeof(std::uint32_t), all.data(),
         GL_STATIC_DRAW);
  lastLevel_ = -1;
}

// The coarsest level whose cells are small enough on screen (kLevelCellPixels, or
// kLevelKeepPixels for the level drawn last), or -1: the whole surface. Level k's cells are
// 2^(k+1) of the whole surface's, whose size is the median of sampled edges' on-screen lengths.
int SurfacePass::chooseLevel(const SceneView& v, const Frame& f, float cellPixels) {
  const float drawBound = std::max(kLevelCellPixels, cellPixels);
  const float keepBound = drawBound * (kLevelKeepPixels / kLevelCellPixels);
  const int levels = levelFirst_.empty() ? 0 : static_cast<int>(levelFirst_.size()) - 1;
  const float cell = levels > 0 ? medianEdgePixels(v.positions, f) : NAN;
  int chosen = -1;
  float stride = 2.0f;
  for (int k = 0; k < levels && cell > 0.0f; ++k, stride *= 2.0f) {
    const float bound = k <= lastLevel_ ? keepBound : drawBound;
    if (stride * cell <= bound && levelFirst_[k + 1] > levelFirst_[k]) chosen = k;
  }
  return lastLevel_ = chosen;
}

// The median on-screen length (pixels) of the edges of kLevelSampleTriangles triangles spread
// over the whole surface, those with a vertex at or behind the eye left out; NaN if none.
float SurfacePass::medianEdgePixels(std::span<const float> p, const Frame& f) {
  const size_t count = triangles_.size() / 3;
  const size_t samples = std::min(count, kLevelSampleTriangles);
  const glm::vec2 half(0.5f * static_cast<float>(f.width), 0.5f * static_cast<float>(f.height));
  edgeScratch_.clear();
  for (size_t s = 0; s < samples; ++s) {
    const size_t t = s * count / samples;
    glm::vec2 q[3];
    bool visible = true;
    for (int c = 0; c < 3; ++c) {
      const std::uint32_t i = triangles_[3 * t + static_cast<size_t>(c)];
      const glm::vec4 clip = f.viewProj * glm::vec4(p[3 * i], p[3 * i + 1], p[3 * i + 2], 1.0f);
      visible = visible && clip.w > kMinClipW;
      q[c] = glm::vec2(clip) / clip.w * half;
    }
    for (int c = 0; visible && c < 3; ++c)
      if (const float l = glm::length(q[(c + 1) % 3] - q[c]); std::isfinite(l))
        edgeScratch_.push_back(l);
  }
  if (edgeScratch_.empty()) return NAN;
  const auto middle = edgeScratch_.begin() + static_cast<long>(edgeScratch_.size() / 2);
  std::nth_element(edgeScratch_.begin(), middle, edgeScratch_.end());
  return *middle;
}

void SurfacePass::uploadNormals(const SceneView& v, size_t n) {
  vertexNormals(v.positions.first(3 * n), triangles_, normalScratch_);
  upload(GL_ARRAY_BUFFER, normals_, normalScratch_.size() * sizeof(float), normalScratch_.data(),
         GL_STREAM_DRAW);
}

void SurfacePass::setGhost(const DrawOptions& o) {
  litProgram_.use();
  litProgram_.set("u_tint", o.tint);
  litProgram_.set("u_opacity", o.opacity);
  // a ghost (translucent) as a net over its material coordinates, or without them its outline
  litProgram_.set("u_ghost_net", o.opacity >= 1.0f ? 0.0f : haveUv_ ? kGhostNetLines : -1.0f);
}

void SurfacePass::draw(const Frame& f, const DrawOptions& o, int level) {
  litProgram_.use();
  litProgram_.set("u_view", f.view);
  litProgram_.set("u_proj", f.proj);
  litProgram_.set("u_orthographic", f.orthographic ? 1 : 0);
  glBindVertexArray(vao_.id());
  if (!haveUv_) glVertexAttrib2f(2, 0.0f, 0.0f);
  if (o.show_surface) drawFilled(level);
  if (o.wireframe) {
    litProgram_.set("u_checker_squares", 0.0f);
    litProgram_.set("u_color_front", kWire);
    litProgram_.set("u_color_back", kWire);
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(triangles_.size()), GL_UNSIGNED_INT, nullptr);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  }
}

void SurfacePass::drawFilled(int level) {
  litProgram_.set("u_checker_squares", haveUv_ ? kCheckerSquares : 0.0f);
  litProgram_.set("u_color_front", kClothFront);
  litProgram_.set("u_color_back", kClothBack);
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(kSurfaceOffsetFactor, kSurfaceOffsetUnits);
  if (level >= 0) {  // the level's triangles in place of the whole surface's, for this draw
    const size_t k = static_cast<size_t>(level);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, levelIndices_.id());
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(levelFirst_[k + 1] - levelFirst_[k]),
                   GL_UNSIGNED_INT,
                   reinterpret_cast<const void*>(levelFirst_[k] * sizeof(std::uint32_t)));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, triangleIndices_.id());
  } else {
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(triangles_.size()), GL_UNSIGNED_INT, nullptr);
  }
  glDisable(GL_POLYGON_OFFSET_FILL);
}

void SurfacePass::drawForShadow() const {
  glBindVertexArray(vao_.id());
  glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(triangles_.size()), GL_UNSIGNED_INT, nullptr);
}

}  // namespace render
