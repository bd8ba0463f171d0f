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

GLuint compileShader(GLenum type, std::string_view name, std::string* error) {
  const std::string_view text = shaderSource(name);
  if (text.empty()) {
    if (error) *error = "shader " + std::string(name) + " is not embedded in the binary";
    return 0;
  }
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
    if (error) *error = "cannot compile shader " + std::string(name) + ": " + log.c_str();
    glDeleteShader(s);
    return 0;
  }
  return s;
}

}  // namespace

unsigned linkProgram(std::string_view vert, std::string_view frag, std::string* error) {
  const GLuint vs = compileShader(GL_VERTEX_SHADER, vert, error);
  if (!vs) return 0;
  const GLuint fs = compileShader(GL_FRAGMENT_SHADER, frag, error);
  if (!fs) {
    glDeleteShader(vs);
    return 0;
  }
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
    if (error)
      *error = "cannot link " + std::string(vert) + " + " + std::string(frag) + ": " + log.c_str();
    glDeleteProgram(p);
    return 0;
  }
  return p;
}

}  // namespace render
