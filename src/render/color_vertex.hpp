// The vertices of the coloured-line program (shaders/line.vert): a position and an RGBA8 colour.
// The ground grid, the axes, the trails and the wind's streaks are built of them on the CPU.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "render/gl_objects.hpp"

namespace render {

struct ColorVertex {
  float x, y, z;
  std::uint8_t rgba[4];
};
static_assert(sizeof(ColorVertex) == 16);

// `c` and `alpha` (linear 0..1) clamped and rounded to bytes.
ColorVertex colorVertex(const glm::vec3& p, const glm::vec3& c, float alpha = 1.0f);

// The bound vertex array reads `vertices` as ColorVertex: attribute 0 the position, 1 the colour.
void attachColorVertices(const Buffer& vertices);

}  // namespace render
