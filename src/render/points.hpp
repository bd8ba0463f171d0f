// The particles as sphere impostors: point sprites that shaders/point.frag shades as lit spheres,
// coloured by their PointFlag bits (moving, fixed, a divergence's culprit, held by the mouse).
// Where particles are hidden (a cloth's beads), the culprit and the held one are still drawn.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "render/frame.hpp"
#include "render/gl_objects.hpp"
#include "render/program.hpp"
#include "render/renderer.hpp"

namespace render {

class PointsPass {
 public:
  // `positions`: the points' positions, shared with the other passes (attribute 0)
  util::Problem init(const Buffer& positions);
  // A new topology: the radii (constant for a topology, SceneView's contract), and whether radii
  // and flags are arrays or constants (a view without them).
  void uploadTopology(const SceneView& view, std::size_t n);
  // The highlighted and grabbed points, for a frame whose particles are hidden: gathered into
  // the element buffer (rarely more than one or two). Returns whether there are any.
  bool collectFlagged(const SceneView& view, std::size_t n);
  void setGhost(const DrawOptions& options);  // a ghosted lane's tint and opacity
  // All points, or (options.show_points off) those that collectFlagged gathered.
  void draw(const SceneView& view, const Frame& frame, const DrawOptions& options);
  // All points, with the program in use (the shadow's, which reads the radius as attribute 1).
  void drawForShadow(const SceneView& view, std::size_t n) const;

 private:
  void uploadFlagsIfChanged(const SceneView& view);

  Program program_;  // point.vert/frag
  VertexArray vao_;
  Buffer radiiBuffer_, flagsBuffer_, flaggedIndexBuffer_;
  // the flags last uploaded (flags change rarely: a highlight, a grab, not every frame)
  bool flagsUploaded_ = false;
  std::vector<std::uint8_t> uploadedFlags_;
  std::vector<std::uint32_t> flagged_;  // this frame's, kept to avoid reallocation
};

}  // namespace render
