#include "render/points.hpp"

#include <glad/gl.h>

#include <algorithm>

#include "render/palette.hpp"

namespace render {

namespace {

constexpr glm::vec3 kColorMoving = palette::kBody;
constexpr glm::vec3 kColorFixed = palette::kPin;
constexpr glm::vec3 kColorGrabbed = palette::kGrabbed;
constexpr float kDefaultRadius = 0.02f;  // m, when the view carries no radii

}  // namespace

// positions, radii, flags (the last two may be constant attributes instead)
util::Problem PointsPass::init(const Buffer& positions) {
  if (auto problem = program_.link("point.vert", "point.frag")) return problem;
  program_.use();  // the constant uniforms, once
  program_.set("u_color_moving", kColorMoving);
  program_.set("u_color_fixed", kColorFixed);
  program_.set("u_color_highlight", kHighlightMagenta);
  program_.set("u_color_grabbed", kColorGrabbed);
  glUseProgram(0);
  vao_.create();
  radiiBuffer_.create();
  flagsBuffer_.create();
  flaggedIndexBuffer_.create();
  glBindVertexArray(vao_.id());
  attachPositions(positions);
  glBindBuffer(GL_ARRAY_BUFFER, radiiBuffer_.id());
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, flagsBuffer_.id());
  glVertexAttribIPointer(2, 1, GL_UNSIGNED_BYTE, 0, nullptr);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, flaggedIndexBuffer_.id());  // only the flagged ones' draw
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return std::nullopt;
}

// Whether radii and flags are arrays or constants is vertex array state, set here; the constants
// themselves are set by draw (they are context state, which other passes change).
void PointsPass::uploadTopology(const SceneView& v, size_t n) {
  glBindVertexArray(vao_.id());
  if (v.radii.size() == n) {
    upload(GL_ARRAY_BUFFER, radiiBuffer_, v.radii.size_bytes(), v.radii.data(), GL_STATIC_DRAW);
    glEnableVertexAttribArray(1);
  } else {
    glDisableVertexAttribArray(1);
  }
  if (v.flags.size() == n)
    glEnableVertexAttribArray(2);
  else
    glDisableVertexAttribArray(2);
  glBindVertexArray(0);
  flagsUploaded_ = false;
}

bool PointsPass::collectFlagged(const SceneView& v, size_t n) {
  flagged_.clear();
  if (v.flags.size() != n) return false;
  for (size_t i = 0; i < n; ++i)
    if (v.flags[i] & (kPointHighlight | kPointGrabbed))
      flagged_.push_back(static_cast<std::uint32_t>(i));
  if (flagged_.empty()) return false;
  uploadIndices(vao_, flaggedIndexBuffer_, flagged_);
  return true;
}

// Point flags mix bits fixed with the topology (kPointFixed) and per-frame state (a divergence
// culprit, the body the mouse holds), so the topology path cannot own them; but they change
// only on the frames where such a state begins or ends. They are uploaded when they differ
// from the copy last uploaded: comparing n bytes costs far less than an upload, which the
// driver copies and may have to synchronise with the previous frame's draw.
void PointsPass::uploadFlagsIfChanged(const SceneView& v) {
  if (flagsUploaded_ && std::ranges::equal(v.flags, uploadedFlags_)) return;
  flagsUploaded_ = true;
  uploadedFlags_.assign(v.flags.begin(), v.flags.end());
  upload(GL_ARRAY_BUFFER, flagsBuffer_, v.flags.size_bytes(), v.flags.data(), GL_DYNAMIC_DRAW);
}

void PointsPass::setGhost(const DrawOptions& o) {
  program_.use();
  program_.set("u_tint", o.tint);
  program_.set("u_opacity", o.opacity);
}

void PointsPass::draw(const SceneView& v, const Frame& f, const DrawOptions& o) {
  const size_t n = f.points;
  program_.use();
  program_.set("u_view", f.view);
  program_.set("u_proj", f.proj);
  program_.set("u_viewport_height", static_cast<float>(f.height));
  program_.set("u_radius_scale", o.point_scale);
  glBindVertexArray(vao_.id());
  // constants where the view has no array (context state: other passes may change them)
  if (v.radii.size() != n) glVertexAttrib1f(1, kDefaultRadius);
  if (v.flags.size() == n)
    uploadFlagsIfChanged(v);
  else
    glVertexAttribI4ui(2, 0, 0, 0, 0);
  // smooth sprite edges when multisampled (no effect on a single-sample target); the
  // coverage alpha itself is not written (llvmpipe ignores GL_SAMPLE_ALPHA_TO_ONE)
  glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);
  if (o.show_points)
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(n));
  else
    glDrawElements(GL_POINTS, static_cast<GLsizei>(flagged_.size()), GL_UNSIGNED_INT, nullptr);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE);
}

void PointsPass::drawForShadow(const SceneView& v, size_t n) const {
  glBindVertexArray(vao_.id());
  if (v.radii.size() != n) glVertexAttrib1f(1, kDefaultRadius);
  glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(n));
}

}  // namespace render
