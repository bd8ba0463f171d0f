// The cloth's surface: lit on both sides (shaders/surface.vert/frag), with a faint checker over its
// material coordinates, drawn from a coarser surface level where the camera is too far away to
// resolve its cells (docs/architecture.md#surface-levels), and/or as a wireframe. Pushed back by a
// polygon offset, so that the springs lying on it stay visible.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "render/frame.hpp"
#include "render/gl_objects.hpp"
#include "render/program.hpp"
#include "render/renderer.hpp"

namespace render {

// The triangles of `in` whose indices are all below n, into `out` (GL would read out of bounds).
void validTriangles(std::span<const std::uint32_t> in, std::size_t n,
                    std::vector<std::uint32_t>& out);

class SurfacePass {
 public:
  // `litProgram`: the lit program, shared with the colliders' pass
  explicit SurfacePass(Program& litProgram) : litProgram_(litProgram) {}
  // `positions`: the points' positions, shared with the other passes (attribute 0)
  void init(const Buffer& positions);
  // A new topology: the valid triangles, the levels' and the material coordinates.
  void uploadTopology(const SceneView& view, std::size_t n);
  bool hasTriangles() const { return !triangles_.empty(); }
  // The surface level to draw filled this frame (see kLevelCellPixels), or -1: the whole surface.
  // cellPixels above kLevelCellPixels: that bound instead (DrawOptions::surface_cell_pixels).
  int chooseLevel(const SceneView& view, const Frame& frame, float cellPixels = 0.0f);
  // This frame's vertex normals: before any pass that reads the surface's vertex array (the
  // shadow's too).
  void uploadNormals(const SceneView& view, std::size_t n);
  void setGhost(const DrawOptions& options);  // a ghosted lane's tint and opacity
  // Filled (options.show_surface, from `level`) and/or as a wireframe (options.wireframe).
  void draw(const Frame& frame, const DrawOptions& options, int level);
  // The whole surface, with the program in use (the shadow's).
  void drawForShadow() const;

 private:
  void uploadUv(const SceneView& view, std::size_t n);
  void uploadLevels(const SceneView& view, std::size_t n);
  float medianEdgePixels(std::span<const float> positions, const Frame& frame);
  void drawFilled(int level);

  Program& litProgram_;
  VertexArray vao_;
  Buffer normals_, uv_, triangleIndices_;
  // SceneView::surface_levels' valid triangles one after another (not bound to a vertex array:
  // drawFilled binds it to the surface's in place of the whole surface's triangles)
  Buffer levelIndices_;

  // topology state
  bool haveUv_ = false;  // the view's surface_uv covers every point: the checker is drawn
  std::vector<std::uint32_t> triangles_;  // the valid triangles of the view
  // the levels' triangles in levelIndices_: level k's are [levelFirst_[k], levelFirst_[k + 1])
  std::vector<std::size_t> levelFirst_;
  int lastLevel_ = -1;  // the level drawn last frame; -1: the whole surface

  // per-frame scratch, kept to avoid reallocation
  std::vector<float> normalScratch_, edgeScratch_;
};

}  // namespace render
