// Offscreen render target (colour RGBA8 + depth 24 / stencil 8, multisampled when asked; the
// resolve or FXAA pass into the final target) and the PNG writer used for screenshots and the
// tests.
#include <glad/gl.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "render/fxaa.hpp"
#include "render/renderer.hpp"
#include "render/shaders.hpp"
#include "render/upscale.hpp"
#include "util/atomic_file.hpp"
#include "util/png.hpp"

namespace render {

namespace {

const char* statusText(GLenum status) {
  switch (status) {
    case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT:
      return "incomplete attachment";
    case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT:
      return "missing attachment";
    case GL_FRAMEBUFFER_UNSUPPORTED:
      return "unsupported format combination";
    case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE:
      return "incomplete multisample";
    default:
      return "incomplete";
  }
}

// A renderbuffer of `format`, multisampled when samples > 1, attached to the bound framebuffer.
GLuint attachRenderbuffer(GLenum attachment, GLenum format, GLsizei samples, int width,
                          int height) {
  GLuint rb = 0;
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  if (samples > 1)
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, format, width, height);
  else
    glRenderbufferStorage(GL_RENDERBUFFER, format, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, attachment, GL_RENDERBUFFER, rb);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  return rb;
}

// An RGBA8 texture attached as colour: what the post pass samples (bilinear, clamped: FXAA's
// taps fall between pixels and at the border).
GLuint attachColorTexture(int width, int height) {
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  return tex;
}

}  // namespace

void Framebuffer::releaseObjects() {
  if (glDeleteFramebuffers) {  // else the loader (and the context) is already gone
    GLuint fbos[] = {fbo_, resolveFbo_};
    GLuint rbs[] = {color_, depth_, resolveColor_};
    GLuint tex = colorTex_;
    glDeleteFramebuffers(2, fbos);
    glDeleteRenderbuffers(3, rbs);
    glDeleteTextures(1, &tex);
  }
  fbo_ = color_ = colorTex_ = depth_ = resolveFbo_ = resolveColor_ = 0;
}

Framebuffer::~Framebuffer() {
  if (fbo_ || resolveFbo_) releaseObjects();
}

namespace {
// Why a framebuffer of this size cannot be made with the current context, or nothing.
std::optional<std::string> sizeProblem(int width, int height) {
  if (width <= 0 || height <= 0)
    return "framebuffer size must be positive (got " + std::to_string(width) + "x" +
           std::to_string(height) + ")";
  if (!glGenFramebuffers) return "OpenGL functions are not loaded (no current context?)";
  GLint maxSize = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
  if (maxSize > 0 && (width > maxSize || height > maxSize))
    return "framebuffer " + std::to_string(width) + "x" + std::to_string(height) +
           " exceeds the largest renderbuffer (" + std::to_string(maxSize) + ")";
  return std::nullopt;
}
}  // namespace

util::Problem Framebuffer::resize(int width, int height, int samples) {
  if (auto problem = sizeProblem(width, height)) return problem;
  GLint maxSamples = 1;
  glGetIntegerv(GL_MAX_SAMPLES, &maxSamples);
  samples = std::clamp(samples, 1, std::max(1, static_cast<int>(maxSamples)));
  const bool post = samples == 1 && postAntialias_;
  if (fbo_ && width == width_ && height == height_ && samples == samples_ && post == post_)
    return std::nullopt;

  GLint previous = 0;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
  // a binding of this target's own old objects is not restored: their names are deleted, and
  // binding a deleted name is an error in a core context
  if (previous != 0 &&
      (static_cast<GLuint>(previous) == fbo_ || static_cast<GLuint>(previous) == resolveFbo_))
    previous = 0;
  releaseObjects();
  width_ = height_ = samples_ = 0;
  ended_ = false;

  glGenFramebuffers(1, &fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  if (post)
    colorTex_ = attachColorTexture(width, height);
  else
    color_ = attachRenderbuffer(GL_COLOR_ATTACHMENT0, GL_RGBA8, samples, width, height);
  depth_ =
      attachRenderbuffer(GL_DEPTH_STENCIL_ATTACHMENT, GL_DEPTH24_STENCIL8, samples, width, height);
  GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status == GL_FRAMEBUFFER_COMPLETE && samples > 1) {
    glGenFramebuffers(1, &resolveFbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, resolveFbo_);
    resolveColor_ = attachRenderbuffer(GL_COLOR_ATTACHMENT0, GL_RGBA8, 1, width, height);
    status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    releaseObjects();
    return "cannot create a " + std::to_string(width) + "x" + std::to_string(height) + " (" +
           std::to_string(samples) + " samples) framebuffer: " + statusText(status);
  }
  width_ = width;
  height_ = height;
  samples_ = samples;
  post_ = post;
  return std::nullopt;
}

void Framebuffer::setPostAntialias(bool on) {
  postAntialias_ = on;
  // rebuilt at once (a texture for the scene, a final target) when it changes anything
  if (fbo_ && samples_ == 1 && post_ != on) resize(width_, height_, samples_);
}

void Framebuffer::bind() const {
  ended_ = false;
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  if (fbo_) glViewport(0, 0, width_, height_);
}

unsigned Framebuffer::finalFramebuffer() const {
  return resolveFbo_ ? resolveFbo_ : fbo_;
}

void Framebuffer::resolveInto(unsigned target) {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
}

void Framebuffer::applyPostPass(int x0) {
  // the scene back to memory, filtered on the CPU, and into the scene's own texture: the UI is
  // then drawn over the filtered scene (fxaa.hpp says why not a shader pass). Only columns
  // [x0, width): left of them the panel covers the scene.
  const int w = width_ - x0;
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  scenePixels_.resize(static_cast<size_t>(w) * static_cast<size_t>(height_) * 4);
  glReadPixels(x0, 0, w, height_, GL_RGBA, GL_UNSIGNED_BYTE, scenePixels_.data());
  fxaa(scenePixels_, filteredPixels_, luma_, w, height_, postThreads_);
  glBindTexture(GL_TEXTURE_2D, colorTex_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glTexSubImage2D(GL_TEXTURE_2D, 0, x0, 0, w, height_, GL_RGBA, GL_UNSIGNED_BYTE,
                  filteredPixels_.data());
  glBindTexture(GL_TEXTURE_2D, 0);
}

void Framebuffer::endScene(int sceneX) {
  if (!fbo_) return;
  if (samples_ > 1)
    resolveInto(resolveFbo_);
  else if (post_)
    applyPostPass(std::clamp(sceneX, 0, width_ - 1));
  ended_ = true;
  glBindFramebuffer(GL_FRAMEBUFFER, finalFramebuffer());
  glViewport(0, 0, width_, height_);
}

void Framebuffer::endSceneInto(Framebuffer& target) {
  if (!fbo_ || !target.post_ || samples_ > 1) return endScene();
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  scenePixels_.resize(static_cast<size_t>(width_) * static_cast<size_t>(height_) * 4);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, scenePixels_.data());
  if (post_) fxaa(scenePixels_, filteredPixels_, luma_, width_, height_, postThreads_);
  upscaleBilinear(post_ ? filteredPixels_ : scenePixels_, width_, height_, upscaled_, target.width_,
                  target.height_, stretched_, postThreads_);
  glBindTexture(GL_TEXTURE_2D, target.colorTex_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, target.width_, target.height_, GL_RGBA, GL_UNSIGNED_BYTE,
                  upscaled_.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  ended_ = target.ended_ = true;
  glBindFramebuffer(GL_FRAMEBUFFER, target.finalFramebuffer());
  glViewport(0, 0, target.width_, target.height_);
}

void Framebuffer::read(std::vector<unsigned char>& rgba) {
  if (!fbo_) {
    rgba.clear();
    return;
  }
  GLint previous = 0;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
  GLuint source = fbo_;
  if (ended_) {
    source = finalFramebuffer();
  } else if (samples_ > 1) {
    resolveInto(resolveFbo_);
    source = resolveFbo_;
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, source);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glPixelStorei(GL_PACK_ROW_LENGTH, 0);
  const size_t row = static_cast<size_t>(width_) * 4;
  rgba.resize(row * static_cast<size_t>(height_));
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
  // GL's rows run bottom-up: flip to top row first
  std::vector<unsigned char> tmp(row);
  for (int y = 0; y < height_ / 2; ++y) {
    unsigned char* a = rgba.data() + static_cast<size_t>(y) * row;
    unsigned char* b = rgba.data() + static_cast<size_t>(height_ - 1 - y) * row;
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
}

util::Problem writePng(const std::string& path, int width, int height,
                       const std::vector<unsigned char>& rgba) {
  return util::writePng(path, width, height, rgba);
}

}  // namespace render
