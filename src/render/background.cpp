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

void clearTarget(const DrawOptions& o, int width, int height, bool colour) {
  glViewport(0, 0, width, height);
  glDisable(GL_SCISSOR_TEST);
  glDepthMask(GL_TRUE);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glStencilMask(0xFF);
  const glm::vec3 mid = backgroundColor(o, 0.5f);
  glClearColor(mid.r, mid.g, mid.b, 1.0f);
  glClearDepth(1.0);
  glClearStencil(0);
  glClear((colour ? GL_COLOR_BUFFER_BIT : 0) | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
}

BackgroundPass::~BackgroundPass() {
  releaseCache();
}

void BackgroundPass::releaseCache() {
  if (glDeleteFramebuffers && cacheFbo_) {  // else the context is gone, and its objects with it
    const GLuint fbo = cacheFbo_, rb = cacheColor_;
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &rb);
  }
  cacheFbo_ = cacheColor_ = 0;
  cacheWidth_ = cacheHeight_ = 0;
}

bool BackgroundPass::covers(const DrawOptions& o) {
  return hasGradient(o);
}

util::Problem BackgroundPass::init() {
  if (auto problem = program_.link("background.vert", "background.frag")) return problem;
  empty_.create();
  return std::nullopt;
}

bool BackgroundPass::ensureCache(const DrawOptions& o, int width, int height) {
  if (cacheFbo_ && width == cacheWidth_ && height == cacheHeight_ &&
      o.background == cacheBackground_ && o.background_gradient == cacheGradient_)
    return true;
  GLint target = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
  if (!cacheFbo_ || width != cacheWidth_ || height != cacheHeight_) {
    releaseCache();
    GLuint fbo = 0, rb = 0;
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    cacheFbo_ = fbo, cacheColor_ = rb, cacheWidth_ = width, cacheHeight_ = height;
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) releaseCache();
  }
  if (cacheFbo_) {
    glBindFramebuffer(GL_FRAMEBUFFER, cacheFbo_);
    glViewport(0, 0, width, height);
    drawTriangle(o, height);
    cacheBackground_ = o.background, cacheGradient_ = o.background_gradient;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(target));
  return cacheFbo_ != 0;
}

void BackgroundPass::draw(const DrawOptions& o, int width, int height) {
  if (!hasGradient(o)) return;
  // a multisampled target cannot take a blit from a single-sample image: the triangle there
  GLint sampleBuffers = 0;
  glGetIntegerv(GL_SAMPLE_BUFFERS, &sampleBuffers);
  if (sampleBuffers == 0 && ensureCache(o, width, height)) {
    GLint target = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, cacheFbo_);
    glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(target));
    return;
  }
  drawTriangle(o, height);
}

void BackgroundPass::drawTriangle(const DrawOptions& o, int height) {
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
