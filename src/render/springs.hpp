// Springs coloured by strain and rods in a neutral colour (shaders/spring.vert: screen-space quads
// lineWidthPx wide, whose ends, strains and flags it fetches from texture buffers by line index:
// one float per spring uploaded a frame rather than CPU-built vertices). A divergence's culprit
// is drawn once more on top, magenta and twice as wide.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "render/frame.hpp"
#include "render/gl_objects.hpp"
#include "render/program.hpp"
#include "render/renderer.hpp"

namespace render {

class SpringsPass {
 public:
  // `lineProgram`: the coloured-line program (lines in one colour), shared with other passes
  explicit SpringsPass(Program& lineProgram) : lineProgram_(lineProgram) {}
  // `positions`: the points' positions, shared with the other passes (attribute 0, and read by
  // spring.vert as a texture buffer)
  util::Problem init(const Buffer& positions);
  // A new topology: the lines whose indices are in range (GL would read out of bounds).
  void uploadTopology(const SceneView& view, std::size_t n);
  int lineCount() const { return lineCount_; }  // drawn: those in range
  void setGhost(const DrawOptions& options);    // a ghosted lane's tint and opacity
  // `thin`: the lines a pixel wide (GL_LINES), over a cloth's surface: a 128² cloth's springs
  // at a spring's width would paint the surface over, and a line is one primitive, a quad two
  void draw(const SceneView& view, const Frame& frame, const DrawOptions& options, bool thin);
  // The lines, with the program in use (the shadow's).
  void drawForShadow() const;

 private:
  void createVertexArrays(const Buffer& positions);
  void createTextures(const Buffer& positions);
  void queryLimits();
  template <class T>
  std::span<const T> perDrawnLine(std::span<const T> values, std::vector<T>& scratch) const;
  void uploadStrain(const SceneView& view);
  void uploadFlagsIfChanged(const SceneView& view);
  void drawQuads(const Frame& frame, int count, bool highlighted);
  void drawInOneColour(const Frame& frame, const VertexArray& vao, const glm::vec3& color,
                       int indices);

  Program& lineProgram_;
  Program springProgram_;        // spring.vert/frag
  VertexArray springsVao_;       // no attributes: spring.vert fetches what it needs
  VertexArray linesVao_;         // the lines indexed over the position attribute, in one colour
  VertexArray highlightVao_;     // the highlighted ones, likewise
  Buffer lineIndexBuffer_;       // point index pairs of the drawn lines (also a texture buffer)
  Buffer highlightIndexBuffer_;  // point index pairs of the highlighted ones
  Buffer strainBuffer_, flagsBuffer_;  // per drawn line, texture buffers
  Texture positionsTexture_, lineIndexTexture_, strainTexture_, flagsTexture_,
      highlightIndexTexture_;
  bool wideLines_ = false;     // glLineWidth(kHighlightLineWidth) is allowed (the fallback's)
  std::size_t maxTexels_ = 0;  // GL_MAX_TEXTURE_BUFFER_SIZE

  // topology state
  std::size_t viewLines_ = 0;               // in the view
  std::vector<std::uint32_t> lineIndices_;  // the valid lines of the view (index pairs)
  std::vector<std::uint32_t> lineIds_;      // the view's index of each; empty: all are valid
  int lineCount_ = 0, highlightCount_ = 0;
  // the flags last uploaded (flags change rarely: a highlight, not every frame)
  bool flagsUploaded_ = false;
  std::vector<std::uint8_t> uploadedFlags_;
  // per-frame scratch, kept to avoid reallocation
  std::vector<float> strainScratch_;
  std::vector<std::uint8_t> flagsScratch_;
  std::vector<std::uint32_t> highlightScratch_;
};

}  // namespace render
