// The ground: a grid of faded lines under a 3-D scene (behind a planar one) that follows the
// camera, and the axes at the origin. Where it lies (a Grid) is shared: the planar shadow falls on
// it and the collider planes are drawn as discs as wide as it.
#pragma once

#include <cstddef>
#include <vector>

#include "render/camera.hpp"
#include "render/color_vertex.hpp"
#include "render/frame.hpp"
#include "render/gl_objects.hpp"
#include "render/program.hpp"
#include "render/scene_view.hpp"

namespace render {

// Level and spacing fixed when the topology changes (the level lowered when the scene falls
// through it); centre and reach follow the camera.
struct Grid {
  bool valid = false;
  bool planar = false;
  float level = 0.0f;    // y of the floor (z of the back plane when planar), m
  glm::vec2 centre{0};   // in the grid plane, m
  float extent = 1.0f;   // of the scene when the topology changed, m
  float spacing = 1.0f;  // m
  int half = 10;         // cells from the centre to the edge

  float reach() const { return spacing * static_cast<float>(half); }  // centre to edge, m
  glm::vec3 centreInWorld() const {
    return planar ? glm::vec3(centre, level) : glm::vec3(centre.x, level, centre.y);
  }
};

class GroundPass {
 public:
  // `lineProgram`: the coloured-line program, shared with the other passes that draw with it
  explicit GroundPass(Program& lineProgram) : lineProgram_(lineProgram) {}
  void init();
  void invalidate() { grid_.valid = false; }  // a new topology: placed afresh at the next update
  // Places the grid under the view's n points (on a floor collider where there is one) and about
  // the camera's target; rebuilds the lines when anything moved.
  void update(const SceneView& view, std::size_t n, const Camera& camera);
  const Grid& grid() const { return grid_; }
  // The grid, first, behind everything, blended and not writing depth.
  void drawGrid(const Frame& frame);
  // The axes at the origin, over the scene's depth like any line.
  void drawAxes(const Frame& frame);

 private:
  bool place(const SceneView& view, std::size_t n);  // true when placed afresh or lowered
  bool follow(const Camera& camera);                 // true when centre or reach changed
  void build(bool planar);                           // the grid's lines, then the axes'
  void addAxes();

  Program& lineProgram_;
  VertexArray vao_;
  Buffer vertices_;  // the grid's lines, then the axes'
  Grid grid_;
  bool dirty_ = true;  // the lines are to be rebuilt
  int gridVertices_ = 0, axesVertices_ = 0;
  std::vector<ColorVertex> vertexScratch_;
};

}  // namespace render
