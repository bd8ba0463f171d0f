// GLSL sources from shaders/, compiled into the binary (scripts/embed_files.cmake), and the
// programs linked from them.
#pragma once

#include <string>
#include <string_view>

#include "util/expected.hpp"

namespace render {
namespace detail {
struct EmbeddedShader {
  const char* name;
  const char* text;
};
extern const EmbeddedShader kEmbeddedShaders[];
extern const int kEmbeddedShaderCount;
}  // namespace detail

// The text of shaders/NAME, or an empty view if there is none.
std::string_view shaderSource(std::string_view name);

// Compiles shaders/VERT and shaders/FRAG and links them (needs a current context): the program, or
// the problem with the compiler's or linker's log.
util::Expected<unsigned> linkProgram(std::string_view vert, std::string_view frag);

}  // namespace render
