#include "render/color_vertex.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cstddef>

namespace render {

namespace {

std::uint8_t toByte(float v) {
  v = std::clamp(v, 0.0f, 1.0f);
  return static_cast<std::uint8_t>(v * 255.0f + 0.5f);
}

}  // namespace

ColorVertex colorVertex(const glm::vec3& p, const glm::vec3& c, float alpha) {
  return {p.x, p.y, p.z, {toByte(c.r), toByte(c.g), toByte(c.b), toByte(alpha)}};
}

void attachColorVertices(const Buffer& vertices) {
  glBindBuffer(GL_ARRAY_BUFFER, vertices.id());
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(ColorVertex), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(ColorVertex),
                        reinterpret_cast<const void*>(offsetof(ColorVertex, rgba)));
}

}  // namespace render
