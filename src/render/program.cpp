#include "render/program.hpp"

#include <glad/gl.h>

#include <glm/gtc/type_ptr.hpp>

#include "render/shaders.hpp"

namespace render {

Program::~Program() {
  // the loader gone, so is the context, and the program with it
  if (id_ && glDeleteProgram) glDeleteProgram(id_);
}

util::Problem Program::link(std::string_view vert, std::string_view frag) {
  if (id_ && glDeleteProgram) glDeleteProgram(id_);
  locations_.clear();
  const util::Expected<unsigned> linked = linkProgram(vert, frag);
  id_ = linked ? *linked : 0;
  return linked.error();
}

void Program::use() const {
  glUseProgram(id_);
}

int Program::location(const char* name) {
  for (const auto& [known, loc] : locations_)
    if (known == name) return loc;
  const GLint loc = glGetUniformLocation(id_, name);
  locations_.emplace_back(name, loc);
  return loc;
}

void Program::set(const char* name, int value) {
  glUniform1i(location(name), value);
}

void Program::set(const char* name, float value) {
  glUniform1f(location(name), value);
}

void Program::set(const char* name, const glm::vec2& value) {
  glUniform2fv(location(name), 1, glm::value_ptr(value));
}

void Program::set(const char* name, const glm::vec3& value) {
  glUniform3fv(location(name), 1, glm::value_ptr(value));
}

void Program::set(const char* name, const glm::vec4& value) {
  glUniform4fv(location(name), 1, glm::value_ptr(value));
}

void Program::set(const char* name, const glm::mat4& value) {
  glUniformMatrix4fv(location(name), 1, GL_FALSE, glm::value_ptr(value));
}

}  // namespace render
