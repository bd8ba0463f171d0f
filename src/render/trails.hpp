// The trails (SceneView::trails: recent positions of a few points) and the wind's streaks
// (SceneView::wind_streaks, docs/architecture.md#wind-streaks): coloured lines built on the CPU
// each frame, drawn blended over the scene without writing depth. The mouse's pull
// (SceneView::grab_line): one wide line over everything.
#pragma once

#include <string>
#include <vector>

#include "render/color_vertex.hpp"
#include "render/frame.hpp"
#include "render/gl_objects.hpp"
#include "render/program.hpp"
#include "render/scene_view.hpp"

namespace render {

class TrailsPass {
 public:
  // `lineProgram`: the coloured-line program, shared with the other passes that draw with it
  explicit TrailsPass(Program& lineProgram) : lineProgram_(lineProgram) {}
  void init();
  // Each trail a line strip in its palette colour, fading from the newest sample to the oldest.
  void draw(const SceneView& view, const Frame& frame);

 private:
  void build(const SceneView& view);

  Program& lineProgram_;
  VertexArray vao_;
  Buffer vertices_;
  // this frame's, kept to avoid reallocation: the vertices, and each strip's first and count
  std::vector<ColorVertex> vertexScratch_;
  std::vector<int> first_, count_;
};

class WindPass {
 public:
  explicit WindPass(Program& lineProgram) : lineProgram_(lineProgram) {}
  void init();
  // The streaks as pale blue lines, depth-tested (the scene hides those behind it).
  void draw(const SceneView& view, const Frame& frame);

 private:
  Program& lineProgram_;
  VertexArray vao_;
  Buffer vertices_;
  std::vector<ColorVertex> vertexScratch_;  // this frame's, kept to avoid reallocation
};

// The grab line in the grabbed point's yellow, kGrabWidthScale times a rod's width, drawn over
// the scene without depth test (the pull must show even where the body is behind the cloth).
class GrabLinePass {
 public:
  util::Problem init();
  void draw(const SceneView& view, const Frame& frame);

 private:
  Program program_;  // segment.vert, spring.frag
  VertexArray vao_;  // no attributes
};

// The traced body's arrows (SceneView::arrows): a shaft and an open head of two strokes, as wide as
// a rod, velocity green and acceleration orange, over the scene without depth test; a ghosted
// lane's mixed toward its colour and translucent as its bodies are (DrawOptions::tint, opacity).
class ArrowsPass {
 public:
  util::Problem init();
  // the motion's arrows when `motion`, the forces' when `forces`
  void draw(const SceneView& view, const Frame& frame, const glm::vec4& tint, float opacity,
            bool motion, bool forces);
  static constexpr glm::vec3 kVelocityColor{0.25f, 0.9f, 0.35f};
  static constexpr glm::vec3 kAccelerationColor{1.0f, 0.55f, 0.1f};
  // Each kind's colour (the forces' apart from the motion's green and orange, from the strain's
  // grey-red-blue and from each other; a spring and a rod both pull along themselves: one blue).
  static glm::vec3 color(ArrowKind kind);
  // the head's strokes: this fraction of the arrow long, at kHeadAngle to the shaft
  static constexpr float kHeadOfLength = 0.25f, kHeadAngle = 0.45f;  // rad

 private:
  void segment(const glm::vec3& a, const glm::vec3& b);
  Program program_;  // segment.vert, spring.frag
  VertexArray vao_;  // no attributes
};

}  // namespace render
