#include "render/shaders.hpp"

namespace render {

std::string_view shaderSource(std::string_view name) {
  for (int i = 0; i < detail::kEmbeddedShaderCount; ++i)
    if (name == detail::kEmbeddedShaders[i].name) return detail::kEmbeddedShaders[i].text;
  return {};
}

}  // namespace render
