// Owned OpenGL object names, and the uploads the passes share. A name is made by create() on the
// current context and deleted with its owner, unless the loader, and so the context, is gone
// already. The headers of the passes stay free of GL's: names are unsigned, enums unsigned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace render {

enum class GlObjectKind { kBuffer, kVertexArray, kTexture };

template <GlObjectKind Kind>
class GlObject {
 public:
  GlObject() = default;
  ~GlObject();
  GlObject(const GlObject&) = delete;
  GlObject& operator=(const GlObject&) = delete;
  void create();  // glGen*: a buffer or vertex array becomes an object when first bound
  unsigned id() const { return id_; }

 private:
  unsigned id_ = 0;
};

extern template class GlObject<GlObjectKind::kBuffer>;
extern template class GlObject<GlObjectKind::kVertexArray>;
extern template class GlObject<GlObjectKind::kTexture>;
using Buffer = GlObject<GlObjectKind::kBuffer>;
using VertexArray = GlObject<GlObjectKind::kVertexArray>;
using Texture = GlObject<GlObjectKind::kTexture>;

// One glBufferData per buffer and frame (the driver orphans the old storage). `target` and `usage`
// are GLenums.
void upload(unsigned target, const Buffer& buffer, std::size_t bytes, const void* data,
            unsigned usage);

// An element buffer is part of its vertex array's state: binds `vao` around the upload.
void uploadIndices(const VertexArray& vao, const Buffer& buffer,
                   std::span<const std::uint32_t> indices);

// The points' positions (x y z floats, one buffer that the passes share) as attribute 0 of the
// bound vertex array.
void attachPositions(const Buffer& positions);

}  // namespace render
