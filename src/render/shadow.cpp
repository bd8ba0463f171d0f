#include "render/shadow.hpp"

#include <glad/gl.h>

#include <vector>

namespace render {

namespace {

// the direction light travels: nearly straight down (the shadow lies under its caster: a contact
// cue more than a lighting effect), tilted a little so that a vertical sheet still casts one
constexpr glm::vec3 kShadowLight{0.18f, -1.0f, -0.12f};
constexpr float kShadowAlpha = 0.42f;  // under a caster touching the ground
// a caster this many scene extents above the ground casts the faintest shadow
constexpr float kShadowFadeExtents = 0.6f;
// Stencil bits: each pixel is darkened once by the scene's casters and once more by the collider
// spheres', so that a solid ball's shadow reads inside the shadow of a cloth draped over it (the
// cloth is thin, the ball is not)
constexpr GLuint kSceneShadowBit = 1, kColliderShadowBit = 2;

// the casters that follow darken the pixels whose `bit` is clear, and set it
void darkenOncePer(GLuint bit) {
  glStencilMask(bit);
  glStencilFunc(GL_EQUAL, 0, bit);
  glStencilOp(GL_KEEP, GL_KEEP, GL_INVERT);
}

}  // namespace

util::Problem ShadowPass::init(const Buffer& positions) {
  if (auto problem = program_.link("shadow.vert", "shadow.frag")) return problem;
  coarseVao_.create();
  coarseTriangles_.create();
  glBindVertexArray(coarseVao_.id());
  attachPositions(positions);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, coarseTriangles_.id());
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return std::nullopt;
}

void ShadowPass::uploadTopology(const SceneView& v, size_t n) {
  std::vector<std::uint32_t> coarse;
  validTriangles(v.shadow_triangles, n, coarse);
  coarseIndexCount_ = static_cast<int>(coarse.size());
  uploadIndices(coarseVao_, coarseTriangles_, coarse);
}

void ShadowPass::draw(const SceneView& v, const Frame& f, const DrawOptions& o, const Grid& ground,
                      const ShadowCasters& casters) {
  program_.use();
  program_.set("u_view_proj", f.viewProj);
  program_.set("u_light", glm::normalize(kShadowLight));
  program_.set("u_level", ground.level);
  program_.set("u_fade_height", kShadowFadeExtents * ground.extent);
  program_.set("u_alpha", kShadowAlpha);
  program_.set("u_points", 0);
  glEnable(GL_BLEND);
  glDepthMask(GL_FALSE);
  glEnable(GL_STENCIL_TEST);
  darkenOncePer(kSceneShadowBit);
  if (casters.surface) {  // a fine cloth's coarser shadow mesh where it has one
    if (coarseIndexCount_ > 0) {
      glBindVertexArray(coarseVao_.id());
      glDrawElements(GL_TRIANGLES, coarseIndexCount_, GL_UNSIGNED_INT, nullptr);
    } else {
      casters.surface->drawForShadow();
    }
  }
  if (casters.springs) casters.springs->drawForShadow();
  if (casters.points) {
    program_.set("u_points", 1);
    program_.set("u_point_scale",
                 f.proj[1][1] * 0.5f * static_cast<float>(f.height) * o.point_scale);
    casters.points->drawForShadow(v, f.points);
    program_.set("u_points", 0);
  }
  if (casters.colliders) {
    darkenOncePer(kColliderShadowBit);
    casters.colliders->drawSpheresForShadow();
  }
  glStencilMask(0xFF);
  glDisable(GL_STENCIL_TEST);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

}  // namespace render
