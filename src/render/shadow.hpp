// The planar shadow of a 3-D scene on the ground grid: the cloth, springs, collider spheres and
// particles projected along a light from nearly straight above (shaders/shadow.vert), a contact
// cue more than a lighting effect. Drawn after the grid and before the scene: blended black, each
// pixel darkened once however many of the scene's casters overlap it, and once more under a
// collider sphere (a stencil bit each: a solid ball's shadow reads inside a draped cloth's; a
// target without stencil bits darkens overlaps twice), no depth written.
#pragma once

#include <cstddef>
#include <string>

#include "render/colliders.hpp"
#include "render/frame.hpp"
#include "render/gl_objects.hpp"
#include "render/ground.hpp"
#include "render/points.hpp"
#include "render/program.hpp"
#include "render/springs.hpp"
#include "render/surface.hpp"

namespace render {

// What casts a shadow this frame: the passes drawn (null: not drawn this frame).
struct ShadowCasters {
  const SurfacePass* surface = nullptr;  // from the coarse shadow mesh where the view has one
  const SpringsPass* springs = nullptr;
  const ColliderPass* colliders = nullptr;  // its spheres (this frame's mesh: none if skipped)
  const PointsPass* points = nullptr;       // all points (when they are shown)
};

class ShadowPass {
 public:
  // `positions`: the points' positions, shared with the other passes (attribute 0)
  util::Problem init(const Buffer& positions);
  // A new topology: the coarse shadow mesh (SceneView::shadow_triangles; a fine cloth's).
  void uploadTopology(const SceneView& view, std::size_t n);
  void draw(const SceneView& view, const Frame& frame, const DrawOptions& options,
            const Grid& ground, const ShadowCasters& casters);

 private:
  Program program_;        // shadow.vert/frag
  VertexArray coarseVao_;  // positions and the coarse mesh's triangles
  Buffer coarseTriangles_;
  int coarseIndexCount_ = 0;
};

}  // namespace render
