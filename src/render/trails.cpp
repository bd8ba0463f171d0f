#include "render/trails.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "render/renderer.hpp"

#include "render/palette.hpp"

namespace render {

namespace {

constexpr const std::array<glm::vec3, 6>& kTrailPalette = palette::kTrails;
constexpr float kTrailAlpha = 0.9f;  // of the newest sample; older ones fade linearly to 0
constexpr glm::vec3 kWindColor = palette::kWind;

void createColorLines(VertexArray& vao, Buffer& vertices) {
  vao.create();
  vertices.create();
  glBindVertexArray(vao.id());
  attachColorVertices(vertices);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

// blended over the scene, not writing depth
void beginBlendedLines(Program& lineProgram, const Frame& f, const VertexArray& vao) {
  lineProgram.use();
  lineProgram.set("u_view_proj", f.viewProj);
  glBindVertexArray(vao.id());
  glEnable(GL_BLEND);
  glDepthMask(GL_FALSE);
}

void endBlendedLines() {
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

}  // namespace

void TrailsPass::init() {
  createColorLines(vao_, vertices_);
}

void TrailsPass::build(const SceneView& v) {
  vertexScratch_.clear();
  first_.clear();
  count_.clear();
  const size_t available = v.trails.size() / 3;
  size_t offset = 0;
  for (size_t k = 0; k < v.trail_lengths.size() && offset < available; ++k) {
    const size_t len = std::min<size_t>(v.trail_lengths[k], available - offset);
    if (len >= 2) {
      first_.push_back(static_cast<int>(vertexScratch_.size()));
      count_.push_back(static_cast<int>(len));
      const glm::vec3& c = kTrailPalette[k % kTrailPalette.size()];
      for (size_t i = 0; i < len; ++i) {
        const float* p = &v.trails[3 * (offset + i)];
        const float age = static_cast<float>(i + 1) / static_cast<float>(len);  // 1 = newest
        vertexScratch_.push_back(colorVertex({p[0], p[1], p[2]}, c, kTrailAlpha * age));
      }
    }
    offset += len;
  }
}

void TrailsPass::draw(const SceneView& v, const Frame& f) {
  build(v);
  if (count_.empty()) return;
  upload(GL_ARRAY_BUFFER, vertices_, vertexScratch_.size() * sizeof(ColorVertex),
         vertexScratch_.data(), GL_STREAM_DRAW);
  beginBlendedLines(lineProgram_, f, vao_);
  glMultiDrawArrays(GL_LINE_STRIP, first_.data(), count_.data(),
                    static_cast<GLsizei>(count_.size()));
  endBlendedLines();
}

void WindPass::init() {
  createColorLines(vao_, vertices_);
}

void WindPass::draw(const SceneView& v, const Frame& f) {
  constexpr size_t kPerEnd = 4;  // x y z alpha
  vertexScratch_.clear();
  for (size_t i = 0; i + kPerEnd <= v.wind_streaks.size(); i += kPerEnd) {
    const float* e = &v.wind_streaks[i];
    vertexScratch_.push_back(colorVertex({e[0], e[1], e[2]}, kWindColor, e[3]));
  }
  vertexScratch_.resize(vertexScratch_.size() / 2 * 2);  // whole streaks only
  upload(GL_ARRAY_BUFFER, vertices_, vertexScratch_.size() * sizeof(ColorVertex),
         vertexScratch_.data(), GL_STREAM_DRAW);
  beginBlendedLines(lineProgram_, f, vao_);
  glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(vertexScratch_.size()));
  endBlendedLines();
}

// ---- the grab line ----

namespace {
// the grabbed point's colour (points.cpp), and the line a little wider than a rod: it is the
// user's own hand on the scene
constexpr glm::vec3 kGrabColor{1.0f, 0.92f, 0.15f};
constexpr float kGrabWidthScale = 1.25f;
constexpr int kGrabLineFloats = 6;  // two x y z
}  // namespace

util::Problem GrabLinePass::init() {
  if (auto problem = program_.link("segment.vert", "spring.frag")) return problem;
  vao_.create();
  return std::nullopt;
}

void GrabLinePass::draw(const SceneView& v, const Frame& f) {
  if (v.grab_line.size() < kGrabLineFloats) return;
  const std::span<const float> g = v.grab_line;
  for (int i = 0; i < kGrabLineFloats; ++i)
    if (!std::isfinite(g[i])) return;
  program_.use();
  program_.set("u_view_proj", f.viewProj);
  program_.set("u_viewport", glm::vec2(static_cast<float>(f.width), static_cast<float>(f.height)));
  program_.set("u_a", glm::vec3(g[0], g[1], g[2]));
  program_.set("u_b", glm::vec3(g[3], g[4], g[5]));
  program_.set("u_width_px", kGrabWidthScale * lineWidthPx(f.height, true));
  program_.set("u_color", kGrabColor);
  program_.set("u_tint", glm::vec4(0.0f));
  program_.set("u_opacity", 1.0f);
  glDisable(GL_DEPTH_TEST);
  glBindVertexArray(vao_.id());
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glEnable(GL_DEPTH_TEST);
}

// ---- the arrows ----

util::Problem ArrowsPass::init() {
  if (auto problem = program_.link("segment.vert", "spring.frag")) return problem;
  vao_.create();
  return std::nullopt;
}

void ArrowsPass::segment(const glm::vec3& a, const glm::vec3& b) {
  program_.set("u_a", a);
  program_.set("u_b", b);
  glDrawArrays(GL_TRIANGLES, 0, 6);
}

glm::vec3 ArrowsPass::color(ArrowKind kind) {
  switch (kind) {
    case ArrowKind::Velocity:
      return kVelocityColor;
    case ArrowKind::Acceleration:
      return kAccelerationColor;
    case ArrowKind::Gravity:
      return {0.72f, 0.45f, 1.0f};  // violet
    case ArrowKind::Spring:
      return {0.3f, 0.68f, 1.0f};  // sky blue
    case ArrowKind::Damping:
      return {1.0f, 0.42f, 0.68f};  // pink
    case ArrowKind::Drag:
      return {0.25f, 0.95f, 0.9f};  // cyan
    case ArrowKind::Grab:
      return {1.0f, 0.92f, 0.15f};  // the grabbed body's yellow
    case ArrowKind::Contact:
      return {0.95f, 0.95f, 0.95f};  // white
  }
  return kVelocityColor;
}

void ArrowsPass::draw(const SceneView& v, const Frame& f, const glm::vec4& tint, float opacity,
                      bool motion, bool forces) {
  if (v.arrows.empty()) return;
  program_.use();
  program_.set("u_view_proj", f.viewProj);
  program_.set("u_viewport", glm::vec2(static_cast<float>(f.width), static_cast<float>(f.height)));
  program_.set("u_width_px", lineWidthPx(f.height, true));
  program_.set("u_tint", tint);
  program_.set("u_opacity", opacity);
  // the heads open across the line of sight: the camera's forward axis in the world
  const glm::vec3 forward = -glm::vec3(f.view[0][2], f.view[1][2], f.view[2][2]);
  glDisable(GL_DEPTH_TEST);
  if (opacity < 1.0f) glEnable(GL_BLEND), glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glBindVertexArray(vao_.id());
  for (const Arrow& arrow : v.arrows) {
    const glm::vec3 a(arrow.tail[0], arrow.tail[1], arrow.tail[2]);
    const glm::vec3 b(arrow.head[0], arrow.head[1], arrow.head[2]);
    if (!(isForce(arrow.kind) ? forces : motion)) continue;
    const float len = glm::length(b - a);
    if (!std::isfinite(len) || len <= 0.0f) continue;
    const glm::vec3 dir = (b - a) / len;
    glm::vec3 across = glm::cross(dir, forward);
    // an arrow along the line of sight: any side will do
    if (glm::length(across) < 1e-4f) across = glm::cross(dir, glm::vec3(0.0f, 1.0f, 0.0f));
    if (glm::length(across) < 1e-4f) across = glm::cross(dir, glm::vec3(1.0f, 0.0f, 0.0f));
    across = glm::normalize(across);
    program_.set("u_color", color(arrow.kind));
    const float head = kHeadOfLength * len;
    const glm::vec3 back = -std::cos(kHeadAngle) * dir * head;
    const glm::vec3 side = std::sin(kHeadAngle) * across * head;
    segment(a, b);
    segment(b, b + back + side);
    segment(b, b + back - side);
  }
  if (opacity < 1.0f) glDisable(GL_BLEND);
  glEnable(GL_DEPTH_TEST);
}

}  // namespace render
