#include "render/shaders.hpp"

#include <glad/gl.h>

#include <algorithm>

namespace render {

std::string_view shaderSource(std::string_view name) {
  for (int i = 0; i < detail::kEmbeddedShaderCount; ++i)
    if (name == detail::kEmbeddedShaders[i].name) return detail::kEmbeddedShaders[i].text;
  return {};
}

namespace {

util::Expected<GLuint> compileShader(GLenum type, std::string_view name) {
  const std::string_view text = shaderSource(name);
  if (text.empty())
    return util::fail("shader " + std::string(name) + " is not embedded in the binary");
  const GLuint s = glCreateShader(type);
  const char* src = text.data();
  const GLint len = static_cast<GLint>(text.size());
  glShaderSource(s, 1, &src, &len);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint logLen = 0;
    glGetShaderiv(s, GL_INFO_LOG_LENGTH, &logLen);
    std::string log(static_cast<size_t>(std::max(logLen, 1)), '\0');
    glGetShaderInfoLog(s, logLen, nullptr, log.data());
    glDeleteShader(s);
    return util::fail("cannot compile shader " + std::string(name) + ": " + log.c_str());
  }
  return s;
}

}  // namespace

util::Expected<unsigned> linkProgram(std::string_view vert, std::string_view frag) {
  const util::Expected<GLuint> vertex = compileShader(GL_VERTEX_SHADER, vert);
  if (!vertex) return util::fail(vertex.problem());
  const GLuint vs = *vertex;
  const util::Expected<GLuint> fragment = compileShader(GL_FRAGMENT_SHADER, frag);
  if (!fragment) {
    glDeleteShader(vs);
    return util::fail(fragment.problem());
  }
  const GLuint fs = *fragment;
  const GLuint p = glCreateProgram();
  glAttachShader(p, vs);
  glAttachShader(p, fs);
  glLinkProgram(p);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint logLen = 0;
    glGetProgramiv(p, GL_INFO_LOG_LENGTH, &logLen);
    std::string log(static_cast<size_t>(std::max(logLen, 1)), '\0');
    glGetProgramInfoLog(p, logLen, nullptr, log.data());
    glDeleteProgram(p);
    return util::fail("cannot link " + std::string(vert) + " + " + std::string(frag) + ": " +
                      log.c_str());
  }
  return p;
}

}  // namespace render
