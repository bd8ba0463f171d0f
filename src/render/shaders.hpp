// GLSL sources from shaders/, compiled into the binary (scripts/embed_shaders.cmake).
#pragma once

#include <string_view>

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

}  // namespace render
