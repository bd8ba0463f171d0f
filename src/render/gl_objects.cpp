#include "render/gl_objects.hpp"

#include <glad/gl.h>

namespace render {

template <GlObjectKind Kind>
GlObject<Kind>::~GlObject() {
  if (!id_) return;
  if constexpr (Kind == GlObjectKind::kBuffer) {
    if (glDeleteBuffers) glDeleteBuffers(1, &id_);
  } else if constexpr (Kind == GlObjectKind::kVertexArray) {
    if (glDeleteVertexArrays) glDeleteVertexArrays(1, &id_);
  } else {
    if (glDeleteTextures) glDeleteTextures(1, &id_);
  }
}

template <GlObjectKind Kind>
void GlObject<Kind>::create() {
  if constexpr (Kind == GlObjectKind::kBuffer)
    glGenBuffers(1, &id_);
  else if constexpr (Kind == GlObjectKind::kVertexArray)
    glGenVertexArrays(1, &id_);
  else
    glGenTextures(1, &id_);
}

template class GlObject<GlObjectKind::kBuffer>;
template class GlObject<GlObjectKind::kVertexArray>;
template class GlObject<GlObjectKind::kTexture>;

void upload(unsigned target, const Buffer& buffer, std::size_t bytes, const void* data,
            unsigned usage) {
  glBindBuffer(target, buffer.id());
  glBufferData(target, static_cast<GLsizeiptr>(bytes), bytes ? data : nullptr, usage);
}

void uploadIndices(const VertexArray& vao, const Buffer& buffer,
                   std::span<const std::uint32_t> indices) {
  glBindVertexArray(vao.id());
  upload(GL_ELEMENT_ARRAY_BUFFER, buffer, indices.size_bytes(), indices.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
}

void attachPositions(const Buffer& positions) {
  glBindBuffer(GL_ARRAY_BUFFER, positions.id());
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
}

}  // namespace render
