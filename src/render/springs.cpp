#include "render/springs.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>

namespace render {

namespace {

// ---- colours (linear 0..1): the strain map of renderer.hpp's strainColor ----
constexpr glm::vec3 kStrainRest{0.74f, 0.75f, 0.77f};
constexpr glm::vec3 kStrainStretched{0.93f, 0.13f, 0.10f};
constexpr glm::vec3 kStrainCompressed{0.12f, 0.36f, 0.98f};
constexpr glm::vec3 kRigid{0.87f, 0.86f, 0.83f};
// a culprit spring is drawn once more, this many times as wide as a spring: it stands out of a
// dense cloth
constexpr float kHighlightWidthScale = 2.0f;
// ... and, in the one-colour fallback, this wide (pixels) where the context allows wide lines
constexpr float kHighlightLineWidth = 3.0f;
// texture units of the texture buffers
constexpr GLint kPositionsUnit = 0, kLinesUnit = 1, kStrainUnit = 2, kLineFlagsUnit = 3;
// spring.vert draws each line as a quad of two triangles
constexpr int kVerticesPerQuad = 6;

// The scale the map divides by, or 0 where it cannot (the map then shows the sign only).
float usableScale(float scale) {
  return scale > 0.0f && std::isfinite(scale) ? scale : 0.0f;
}

}  // namespace

float lineWidthPx(int height, bool rod) {
  const float h = static_cast<float>(std::max(height, 0));
  const float at720 = rod ? kRodWidthAt720 : kSpringWidthAt720;
  return std::max(kMinLineWidthPx, at720 * h / kLineWidthReferenceHeight);
}

glm::vec3 strainColor(float strain, float scale) {
  if (std::isnan(strain)) return kStrainRest;
  scale = usableScale(scale);
  float t = scale > 0.0f ? strain / scale : strain > 0.0f ? 1.0f : strain < 0.0f ? -1.0f : 0.0f;
  t = std::clamp(t, -1.0f, 1.0f);
  const float a = std::abs(t);
  const float s = a * (2.0f - a);  // ease-out (as spring.vert)
  return t >= 0.0f ? glm::mix(kStrainRest, kStrainStretched, s)
                   : glm::mix(kStrainRest, kStrainCompressed, s);
}

util::Problem SpringsPass::init(const Buffer& positions) {
  if (auto problem = springProgram_.link("spring.vert", "spring.frag")) return problem;
  springProgram_.use();  // the constant uniforms, once
  springProgram_.set("u_color_rest", kStrainRest);
  springProgram_.set("u_color_stretched", kStrainStretched);
  springProgram_.set("u_color_compressed", kStrainCompressed);
  springProgram_.set("u_color_rigid", kRigid);
  springProgram_.set("u_color_highlight", kHighlightMagenta);
  springProgram_.set("u_positions", kPositionsUnit);
  springProgram_.set("u_lines", kLinesUnit);
  springProgram_.set("u_strain", kStrainUnit);
  springProgram_.set("u_line_flags", kLineFlagsUnit);
  glUseProgram(0);
  for (Buffer* b : {&lineIndexBuffer_, &highlightIndexBuffer_, &strainBuffer_, &flagsBuffer_})
    b->create();
  createVertexArrays(positions);
  createTextures(positions);
  queryLimits();
  return std::nullopt;
}

// Lines in one colour (the highlighted ones; all when texture buffers cannot hold them):
// positions, line index pairs; attribute 1, the colour, is left a constant. The strain-coloured
// lines need none: spring.vert fetches what it needs.
void SpringsPass::createVertexArrays(const Buffer& positions) {
  springsVao_.create();
  for (auto [vao, indices] : {std::pair{&linesVao_, &lineIndexBuffer_},
                              std::pair{&highlightVao_, &highlightIndexBuffer_}}) {
    vao->create();
    glBindVertexArray(vao->id());
    attachPositions(positions);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices->id());
  }
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void SpringsPass::queryLimits() {
  // wide lines: within the implementation's range, and not in a forward-compatible context
  // (the window's), where a width above 1 is an error
  GLfloat range[2] = {1.0f, 1.0f};
  GLint contextFlags = 0;
  glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, range);
  glGetIntegerv(GL_CONTEXT_FLAGS, &contextFlags);
  wideLines_ =
      range[1] >= kHighlightLineWidth && !(contextFlags & GL_CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT);
  GLint texels = 0;
  glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &texels);
  maxTexels_ = static_cast<size_t>(std::max(texels, 0));
}

// the texture buffers, read by texelFetch: views of the position and line index buffers (no
// copies), strain and flags per line
void SpringsPass::createTextures(const Buffer& positions) {
  const std::pair<Texture*, const Buffer*> views[] = {
      {&positionsTexture_, &positions},
      {&lineIndexTexture_, &lineIndexBuffer_},
      {&strainTexture_, &strainBuffer_},
      {&flagsTexture_, &flagsBuffer_},
      {&highlightIndexTexture_, &highlightIndexBuffer_}};
  const GLenum formats[] = {GL_R32F, GL_R32UI, GL_R32F, GL_R8UI, GL_R32UI};
  for (int i = 0; i < 5; ++i) {
    views[i].first->create();
    // a generated name becomes a buffer object when first bound: glTexBuffer needs an object
    glBindBuffer(GL_TEXTURE_BUFFER, views[i].second->id());
    glBindTexture(GL_TEXTURE_BUFFER, views[i].first->id());
    glTexBuffer(GL_TEXTURE_BUFFER, formats[i], views[i].second->id());
  }
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
}

void SpringsPass::uploadTopology(const SceneView& v, size_t n) {
  viewLines_ = v.lines.size() / 2;
  lineIndices_.clear();
  lineIds_.clear();
  for (size_t l = 0; l < viewLines_; ++l) {
    const std::uint32_t a = v.lines[2 * l], b = v.lines[2 * l + 1];
    if (a < n && b < n) {
      lineIndices_.insert(lineIndices_.end(), {a, b});
      lineIds_.push_back(static_cast<std::uint32_t>(l));
    }
  }
  if (lineIds_.size() == viewLines_) lineIds_.clear();  // all valid: the identity
  lineCount_ = static_cast<int>(lineIndices_.size() / 2);
  uploadIndices(linesVao_, lineIndexBuffer_, lineIndices_);
  flagsUploaded_ = false;  // the highlighted lines' indices are rebuilt too
}

// A per-line array of the view as the drawn lines see it: itself when every line is drawn,
// else gathered into scratch (zeros where the view lacks it).
template <class T>
std::span<const T> SpringsPass::perDrawnLine(std::span<const T> values,
                                             std::vector<T>& scratch) const {
  const bool complete = values.size() == viewLines_;
  if (complete && lineIds_.empty()) return values;
  scratch.assign(static_cast<size_t>(lineCount_), T{});
  if (complete)
    for (size_t k = 0; k < scratch.size(); ++k) scratch[k] = values[lineIds_[k]];
  return scratch;
}

// one float per line, every frame (the colour map runs in spring.vert)
void SpringsPass::uploadStrain(const SceneView& v) {
  const std::span<const float> strain = perDrawnLine(v.line_strain, strainScratch_);
  upload(GL_TEXTURE_BUFFER, strainBuffer_, strain.size_bytes(), strain.data(), GL_STREAM_DRAW);
}

// Line flags carry a per-frame state (the divergence culprit) but change rarely: uploaded,
// and the highlighted lines' index buffer rebuilt, only when they differ from the copy last
// uploaded (comparing a byte per line costs less than the upload and the rebuild).
void SpringsPass::uploadFlagsIfChanged(const SceneView& v) {
  const std::span<const std::uint8_t> flags = perDrawnLine(v.line_flags, flagsScratch_);
  if (flagsUploaded_ && std::ranges::equal(flags, uploadedFlags_)) return;
  flagsUploaded_ = true;
  uploadedFlags_.assign(flags.begin(), flags.end());
  upload(GL_TEXTURE_BUFFER, flagsBuffer_, flags.size_bytes(), flags.data(), GL_DYNAMIC_DRAW);
  highlightScratch_.clear();
  for (size_t k = 0; k < flags.size(); ++k)
    if (flags[k] & kLineHighlight)
      highlightScratch_.insert(highlightScratch_.end(),
                               {lineIndices_[2 * k], lineIndices_[2 * k + 1]});
  highlightCount_ = static_cast<int>(highlightScratch_.size() / 2);
  uploadIndices(highlightVao_, highlightIndexBuffer_, highlightScratch_);
}

void SpringsPass::setGhost(const DrawOptions& o) {
  springProgram_.use();
  springProgram_.set("u_tint", o.tint);
  springProgram_.set("u_opacity", o.opacity);
}

// The culprits are drawn after all lines, so that no neighbour drawn later covers them.
void SpringsPass::draw(const SceneView& v, const Frame& f, const DrawOptions& o, bool thin) {
  uploadFlagsIfChanged(v);
  // GL 3.3 promises texture buffers of only 65 536 texels (desktop drivers 2^27): beyond the
  // limit the lines are drawn 1 pixel wide in the rest colour, indexed over the position
  // attribute
  const size_t need = std::max(3 * f.points, lineIndices_.size());
  if (need > maxTexels_) {
    drawInOneColour(f, linesVao_, kStrainRest, 2 * lineCount_);
    if (highlightCount_ > 0) {
      if (wideLines_) glLineWidth(kHighlightLineWidth);
      drawInOneColour(f, highlightVao_, kHighlightMagenta, 2 * highlightCount_);
      glLineWidth(1.0f);
    }
    return;
  }
  uploadStrain(v);
  springProgram_.use();
  springProgram_.set("u_view_proj", f.viewProj);
  springProgram_.set("u_strain_scale", usableScale(o.strain_scale));
  springProgram_.set("u_viewport",
                     glm::vec2(static_cast<float>(f.width), static_cast<float>(f.height)));
  for (const auto& [unit, texture] :
       {std::pair{kPositionsUnit, &positionsTexture_}, std::pair{kLinesUnit, &lineIndexTexture_},
        std::pair{kStrainUnit, &strainTexture_}, std::pair{kLineFlagsUnit, &flagsTexture_}}) {
    glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
    glBindTexture(GL_TEXTURE_BUFFER, texture->id());
  }
  glBindVertexArray(springsVao_.id());
  springProgram_.set("u_thin", thin ? 1 : 0);
  if (thin) {
    springProgram_.set("u_all_highlighted", 0);
    glDrawArrays(GL_LINES, 0, 2 * lineCount_);
    springProgram_.set("u_thin", 0);  // the culprits stand out of the thin lines
  } else {
    drawQuads(f, lineCount_, false);
  }
  if (highlightCount_ > 0) {
    // the same quads over the culprits' index pairs, all in the highlight colour, wider
    glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(kLinesUnit));
    glBindTexture(GL_TEXTURE_BUFFER, highlightIndexTexture_.id());
    drawQuads(f, highlightCount_, true);
  }
  glActiveTexture(GL_TEXTURE0);
}

// `count` lines of the bound index texture as quads, springs and rods each at their width
// (the culprits' kHighlightWidthScale times a spring's)
void SpringsPass::drawQuads(const Frame& f, int count, bool highlighted) {
  const float spring = lineWidthPx(f.height, false), rod = lineWidthPx(f.height, true);
  const float scale = highlighted ? kHighlightWidthScale : 1.0f;
  springProgram_.set("u_width_px", scale * spring);
  springProgram_.set("u_rod_width_px", highlighted ? scale * spring : rod);
  springProgram_.set("u_all_highlighted", highlighted ? 1 : 0);
  glDrawArrays(GL_TRIANGLES, 0, kVerticesPerQuad * count);
}

// indexed lines through the per-vertex colour program, the colour a constant attribute
void SpringsPass::drawInOneColour(const Frame& f, const VertexArray& vao, const glm::vec3& color,
                                  int indices) {
  lineProgram_.use();
  lineProgram_.set("u_view_proj", f.viewProj);
  glBindVertexArray(vao.id());
  glVertexAttrib4f(1, color.r, color.g, color.b, 1.0f);
  glDrawElements(GL_LINES, indices, GL_UNSIGNED_INT, nullptr);
}

void SpringsPass::drawForShadow() const {
  glBindVertexArray(linesVao_.id());
  glDrawElements(GL_LINES, 2 * lineCount_, GL_UNSIGNED_INT, nullptr);
}

}  // namespace render
