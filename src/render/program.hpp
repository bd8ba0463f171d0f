// A shader program linked from the embedded shaders (render/shaders.hpp), whose uniforms are set by
// name. Each name's location is looked up at its first set and kept: a pass sets a handful of
// uniforms a frame, so a short list searched by name costs nothing next to its draws.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/expected.hpp"

namespace render {

class Program {
 public:
  Program() = default;
  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  // Compiles shaders/VERT and shaders/FRAG and links them (needs a current context). The problem,
  // with the compiler's or linker's log, when either fails.
  util::Problem link(std::string_view vert, std::string_view frag);
  void use() const;
  unsigned id() const { return id_; }

  // A uniform of this program, which must be in use (OpenGL 3.3 has no glProgramUniform). A name
  // the linker dropped (unused by the shaders) has location -1, which GL ignores.
  void set(const char* name, int value);
  void set(const char* name, float value);
  void set(const char* name, const glm::vec2& value);
  void set(const char* name, const glm::vec3& value);
  void set(const char* name, const glm::vec4& value);
  void set(const char* name, const glm::mat4& value);

 private:
  int location(const char* name);

  unsigned id_ = 0;
  std::vector<std::pair<std::string, int>> locations_;  // looked up so far
};

}  // namespace render
