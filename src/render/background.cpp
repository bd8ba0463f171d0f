#include "render/background.hpp"

#include <glad/gl.h>

#include <cmath>

namespace render {

namespace {

bool hasGradient(const DrawOptions& o) {
  return std::isfinite(o.background_gradient) && o.background_gradient != 0.0f;
}

}  // namespace

glm::vec3 backgroundColor(const DrawOptions& o, float v) {
  const float g = std::isfinite(o.background_gradient) ? o.background_gradient : 0.0f;
  return glm::clamp(o.background * (1.0f + g * (v - 0.5f)), 0.0f, 1.0f);
}

void clearTarget(const DrawOptions& o, int width, int height) {
  glViewport(0, 0, width, height);
  glDisable(GL_SCISSOR_TEST);
  glDepthMask(GL_TRUE);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glStencilMask(0xFF);
  const glm::vec3 mid = backgroundColor(o, 0.5f);
  glClearColor(mid.r, mid.g, mid.b, 1.0f);
  glClearDepth(1.0);
  glClearStencil(0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
}

util::Problem BackgroundPass::init() {
  if (auto problem = program_.link("background.vert", "background.frag")) return problem;
  empty_.create();
  return std::nullopt;
}

void BackgroundPass::draw(const DrawOptions& o, int height) {
  if (!hasGradient(o)) return;
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_STENCIL_TEST);
  program_.use();
  program_.set("u_color", o.background);
  program_.set("u_gradient", o.background_gradient);
  program_.set("u_height", static_cast<float>(height));
  glBindVertexArray(empty_.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace render
