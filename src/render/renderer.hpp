// Draws a SceneView into the currently bound framebuffer (needs only a current OpenGL 3.3 core
// context: a GLFW window or a headless EGL context). Particles are sphere impostors (point
// sprites), springs GL_LINES coloured by strain, cloth a lit two-sided surface. Two upload paths
// (DESIGN.md §3.7): topology when SceneView::topology changes, positions once per frame.
#pragma once

#include <glm/glm.hpp>
#include <memory>
#include <string>
#include <vector>

#include "render/camera.hpp"
#include "render/scene_view.hpp"

namespace render {

struct DrawOptions {
  float strain_scale = 0.05f;  // |strain| drawn at full colour
  float point_scale = 1.0f;    // multiplies every radius
  bool show_points = true, show_lines = true, show_surface = true, wireframe = false;
  bool show_grid = true, show_axes = true, show_trails = true;
  glm::vec3 background{0.13f, 0.14f, 0.16f};  // what clear() fills the whole target with
  // the scene's part of the framebuffer: columns [viewport_x, viewport_x + viewport_width)
  // (0 width: all of it); draw() touches nothing outside it (a panel covers the rest)
  int viewport_x = 0, viewport_width = 0;
  // draw() first clears the depth buffer inside its viewport. Off by default: clear() resets the
  // depth of the whole target once per frame, so that several scenes drawn into one viewport
  // (overlaid lanes) depth-test against each other. On: the scene is drawn over whatever is
  // there regardless of depth (an inset, a side-by-side lane in a target not cleared since).
  bool clear_depth = false;
};

// The diverging strain colour map (blue compressed, light grey at rest, red stretched), clamped at
// |strain| = scale. The renderer applies it on the CPU, per line and frame.
glm::vec3 strainColor(float strain, float scale);

class Renderer {
 public:
  Renderer();
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;
  bool init(std::string* error);  // compiles the shaders; needs a current context
  // Fills the whole width x height target (the panel's area too) with options.background and
  // resets its depth: once per frame, before the draws.
  void clear(const DrawOptions& options, int width, int height);
  // Draws the view into the options' viewport of the width x height target, over what is there:
  // it never clears colour (and depth only when options.clear_depth), so that several scenes
  // can share a target.
  void draw(const SceneView& view, const Camera& camera, const DrawOptions& options, int width,
            int height);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// An offscreen render target (multisampled when samples > 1, resolved for reading).
class Framebuffer {
 public:
  Framebuffer() = default;
  ~Framebuffer();
  Framebuffer(const Framebuffer&) = delete;
  Framebuffer& operator=(const Framebuffer&) = delete;
  bool resize(int width, int height, int samples, std::string* error);
  void bind() const;  // subsequent draws go here
  // RGBA8, top row first (as PNG wants), after resolving the multisampled buffer.
  void read(std::vector<unsigned char>& rgba);
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  unsigned fbo_ = 0, color_ = 0, depth_ = 0, resolveFbo_ = 0, resolveColor_ = 0;
  int width_ = 0, height_ = 0, samples_ = 0;
};

// Writes an RGBA8 image (top row first) as PNG, through a temporary file renamed into place.
bool writePng(const std::string& path, int width, int height,
              const std::vector<unsigned char>& rgba, std::string* error);

}  // namespace render
