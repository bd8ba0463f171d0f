// Draws a SceneView into the currently bound framebuffer (needs only a current OpenGL 3.3 core
// context: a GLFW window or a headless EGL context). Particles are sphere impostors (point
// sprites), springs GL_LINES coloured by strain in the shader, cloth a lit two-sided surface. Two
// upload paths (docs/architecture.md#two-upload-paths): index buffers when SceneView::topology
// changes; positions (one buffer for particles, springs and surface) and one strain per spring
// every frame.
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

// The diverging strain colour map that shaders/spring.vert applies per line, restated for the CPU
// (legend, tests; a test holds the shader's pixels equal to it). With
//   t = clamp(strain / scale, -1, 1)    (t = sign(strain) if scale is not positive and finite)
//   s = |t| (2 - |t|)                    (ease-out: slope 2 at rest, 0 at full scale, so that
//                                         small strains already leave the grey)
//   colour = rest (1 - s) + end s,       end = stretched if t >= 0, else compressed,
// rest = (0.74, 0.75, 0.77) light grey, stretched = (0.93, 0.13, 0.10) red, compressed =
// (0.12, 0.36, 0.98) blue (linear RGB); a NaN strain is drawn at rest.
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
  void setPostAntialias(bool) {}  // TEMPORARY shim until the looks branch lands
  void endScene() {}              // TEMPORARY shim
  unsigned finalFramebuffer() const { return fbo_; }  // TEMPORARY shim
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
