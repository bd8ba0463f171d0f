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
  glm::vec3 background{0.13f, 0.14f, 0.16f};
  // the scene's part of the framebuffer: columns [viewport_x, viewport_x + viewport_width)
  // (0 width: all of it); the rest is cleared to the background (a panel covers it)
  int viewport_x = 0, viewport_width = 0;
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
