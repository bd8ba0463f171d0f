// Offscreen render target (colour RGBA8 + depth 24 renderbuffers, multisampled when asked) and
// the PNG writer used for screenshots and the tests.
#include <glad/gl.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "render/renderer.hpp"
#include "util/atomic_file.hpp"

// the implementation is compiled here with internal linkage, so that it cannot clash with
// Debian's libstb (which the imgui package links)
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace render {

namespace {

void deleteObjects(unsigned& fbo, unsigned& color, unsigned& depth, unsigned& resolveFbo,
                   unsigned& resolveColor) {
  if (glDeleteFramebuffers) {  // else the loader (and the context) is already gone
    GLuint fbos[] = {fbo, resolveFbo};
    GLuint rbs[] = {color, depth, resolveColor};
    glDeleteFramebuffers(2, fbos);
    glDeleteRenderbuffers(3, rbs);
  }
  fbo = color = depth = resolveFbo = resolveColor = 0;
}

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

}  // namespace

Framebuffer::~Framebuffer() {
  if (fbo_ || resolveFbo_) deleteObjects(fbo_, color_, depth_, resolveFbo_, resolveColor_);
}

bool Framebuffer::resize(int width, int height, int samples, std::string* error) {
  if (width <= 0 || height <= 0) {
    if (error)
      *error = "framebuffer size must be positive (got " + std::to_string(width) + "x" +
               std::to_string(height) + ")";
    return false;
  }
  if (!glGenFramebuffers) {
    if (error) *error = "OpenGL functions are not loaded (no current context?)";
    return false;
  }
  GLint maxSamples = 1, maxSize = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &maxSamples);
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
  if (maxSize > 0 && (width > maxSize || height > maxSize)) {
    if (error)
      *error = "framebuffer " + std::to_string(width) + "x" + std::to_string(height) +
               " exceeds the largest renderbuffer (" + std::to_string(maxSize) + ")";
    return false;
  }
  samples = std::clamp(samples, 1, std::max(1, static_cast<int>(maxSamples)));
  if (fbo_ && width == width_ && height == height_ && samples == samples_) return true;

  GLint previous = 0;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
  deleteObjects(fbo_, color_, depth_, resolveFbo_, resolveColor_);
  width_ = height_ = samples_ = 0;

  const auto makeTarget = [&](GLsizei s, GLuint& fbo, GLuint& color, GLuint* depth) {
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &color);
    glBindRenderbuffer(GL_RENDERBUFFER, color);
    if (s > 1)
      glRenderbufferStorageMultisample(GL_RENDERBUFFER, s, GL_RGBA8, width, height);
    else
      glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    if (depth) {
      glGenRenderbuffers(1, depth);
      glBindRenderbuffer(GL_RENDERBUFFER, *depth);
      if (s > 1)
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, s, GL_DEPTH_COMPONENT24, width, height);
      else
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
      glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, *depth);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER);
  };

  GLenum status = makeTarget(samples, fbo_, color_, &depth_);
  if (status == GL_FRAMEBUFFER_COMPLETE && samples > 1)
    status = makeTarget(1, resolveFbo_, resolveColor_, nullptr);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    deleteObjects(fbo_, color_, depth_, resolveFbo_, resolveColor_);
    if (error)
      *error = "cannot create a " + std::to_string(width) + "x" + std::to_string(height) + " (" +
               std::to_string(samples) + " samples) framebuffer: " + statusText(status);
    return false;
  }
  width_ = width;
  height_ = height;
  samples_ = samples;
  return true;
}

void Framebuffer::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  if (fbo_) glViewport(0, 0, width_, height_);
}

void Framebuffer::read(std::vector<unsigned char>& rgba) {
  if (!fbo_) {
    rgba.clear();
    return;
  }
  GLint previous = 0;
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
  GLuint source = fbo_;
  if (samples_ > 1) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolveFbo_);
    glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT,
                      GL_NEAREST);
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

bool writePng(const std::string& path, int width, int height,
              const std::vector<unsigned char>& rgba, std::string* error) {
  const auto fail = [&](const std::string& why) {
    if (error) *error = "cannot write PNG '" + path + "': " + why;
    return false;
  };
  if (width <= 0 || height <= 0) return fail("image size must be positive");
  if (rgba.size() < static_cast<size_t>(width) * static_cast<size_t>(height) * 4)
    return fail("pixel buffer is smaller than " + std::to_string(width) + "x" +
                std::to_string(height) + " RGBA");
  // encoded in memory, then written atomically: never a truncated PNG under the final name
  int len = 0;
  unsigned char* png = stbi_write_png_to_mem(rgba.data(), width * 4, width, height, 4, &len);
  if (!png) return fail("PNG encoding failed");
  std::string why;
  const bool ok = util::writeFileAtomically(
      path, std::string_view(reinterpret_cast<const char*>(png), static_cast<size_t>(len)), &why);
  STBIW_FREE(png);
  if (!ok) return fail(why);
  return true;
}

}  // namespace render
