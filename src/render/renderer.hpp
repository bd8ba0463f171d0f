// Draws a SceneView into the currently bound framebuffer (needs only a current OpenGL 3.3 core
// context: a GLFW window or a headless EGL context). Particles are sphere impostors (point
// sprites), springs and rods screen-space quads (lineWidthPx wide) coloured by strain in the
// shader, cloth a lit two-sided surface. Two
// upload paths (docs/architecture.md#two-upload-paths): index buffers when SceneView::topology
// changes; positions (one buffer for particles, springs and surface) and one strain per spring
// every frame.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "render/camera.hpp"
#include "render/pass_timer.hpp"
#include "render/scene_view.hpp"
#include "util/expected.hpp"

namespace render {

struct DrawOptions {
  float strain_scale = 0.05f;  // |strain| drawn at full colour
  float point_scale = 1.0f;    // multiplies every radius
  bool show_points = true, show_lines = true, show_surface = true, wireframe = false;
  bool show_grid = true, show_axes = true, show_trails = true;
  bool show_wind = true;     // SceneView::wind_streaks
  bool show_arrows = false;  // SceneView::arrows: the motion's
  bool show_forces = false;  // SceneView::arrows: the forces' (docs/exploring.md#forces)
  // a 3-D scene casts a soft planar shadow on the ground grid (a contact cue: how high is it?);
  // drawn only with the grid, which defines the ground
  bool show_shadow = true;
  // clear() fills the whole target with a vertical gradient around this colour: see
  // backgroundColor (background_gradient 0: this colour everywhere)
  glm::vec3 background{0.13f, 0.14f, 0.16f};
  float background_gradient = 0.5f;
  // the scene's part of the framebuffer: columns [viewport_x, viewport_x + viewport_width)
  // (0 width: all of it); draw() touches nothing outside it (a panel covers the rest)
  int viewport_x = 0, viewport_width = 0;
  // draw() first clears the depth buffer inside its viewport. Off by default: clear() resets the
  // depth of the whole target once per frame, so that several scenes drawn into one viewport
  // (overlaid lanes) depth-test against each other. On: the scene is drawn over whatever is
  // there regardless of depth (an inset, a side-by-side lane in a target not cleared since).
  bool clear_depth = false;
  // A cloth's surface level is drawn filled where its cells are at most this many pixels across on
  // screen (docs/architecture.md#surface-levels); 0: the renderer's own bound (kLevelCellPixels,
  // where a level looks as the whole surface does). A software GL's front end asks for coarser
  // cells: there the triangles, not the pixels, are the cost.
  float surface_cell_pixels = 0.0f;
  // A ghosted lane (docs/lab.md#lanes): particles, springs and surface mixed toward tint.rgb by
  // tint.a, and drawn with this opacity (below 1: blended over what is there like an x-ray,
  // without depth test or depth writes, so that the lane drawn first stays whole under it).
  glm::vec4 tint{0.0f, 0.0f, 0.0f, 0.0f};
  float opacity = 1.0f;
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

// The width of a drawn spring or rod (pixels): it scales with the picture, so that a clip reads
// the same on a projector at any size. kSpringWidthAt720 px in a target 720 rows high (a rod
// kRodWidthAt720: a pendulum's rods are its whole picture), in proportion to the target's height
// (a side-by-side column keeps the full height's width), never below kMinLineWidthPx.
inline constexpr float kLineWidthReferenceHeight = 720.0f;               // rows
inline constexpr float kSpringWidthAt720 = 2.5f, kRodWidthAt720 = 4.0f;  // pixels
inline constexpr float kMinLineWidthPx = 1.0f;
float lineWidthPx(int height, bool rod);

// The colour clear() gives a row at height v (0 the bottom row's centre, 1 the top's): options.
// background at mid height, lighter above and darker below, background * (1 + g (v - 1/2)) with
// g = options.background_gradient, clamped to 0..1.
glm::vec3 backgroundColor(const DrawOptions& options, float v);

// Unit per-vertex normals of a triangle mesh (3 floats per point into `normals`, resized to the
// positions' size, no allocation once it has the capacity): the sum of the normals of the
// triangles around each vertex, weighted by their areas, normalised; (0, 0, 0) for a vertex in no
// triangle or whose triangles cancel. Triangles with an index out of range are skipped. O(points
// + triangles).
void vertexNormals(std::span<const float> positions, std::span<const std::uint32_t> triangles,
                   std::vector<float>& normals);

class Renderer {
 public:
  Renderer();
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;
  util::Problem init();  // compiles the shaders; needs a current context
  // Fills the whole width x height target (the panel's area too) with the background gradient
  // (backgroundColor) and resets its depth: once per frame, before the draws.
  void clear(const DrawOptions& options, int width, int height);
  // Draws the view into the options' viewport of the width x height target, over what is there:
  // it never clears colour (and depth only when options.clear_depth), so that several scenes
  // can share a target.
  void draw(const SceneView& view, const Camera& camera, const DrawOptions& options, int width,
            int height);
  // The ground grid's cell size as last drawn (m); 0 before a grid was drawn.
  float gridSpacing() const;
  // Times clear's and draw's passes (pass_timer.hpp); null: none. The timer outlives the draws.
  void setTimer(PassTimer* timer);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// An offscreen render target: the scene is drawn into it (bind), then endScene resolves it into
// the final colour target, over which overlays (the UI) are drawn unblurred, and which read() and
// the window's blit (finalFramebuffer) take. Multisampled when samples > 1 (endScene resolves);
// with one sample, an optional anti-aliasing pass (render::fxaa on the CPU, setPostAntialias)
// runs in endScene instead: on software GL multisampling and shader passes cost too much. Depth has
// 8 stencil bits (the renderer's shadow marks the pixels it darkened).
class Framebuffer {
 public:
  Framebuffer() = default;
  ~Framebuffer();
  Framebuffer(const Framebuffer&) = delete;
  Framebuffer& operator=(const Framebuffer&) = delete;
  util::Problem resize(int width, int height, int samples);
  // FXAA in endScene for a single-sample target (no effect when multisampled). Off: endScene
  // costs nothing and the scene target is the final one.
  void setPostAntialias(bool on);
  // Threads the post pass may share its rows over (render::fxaa; 1 by default).
  void setPostThreads(int threads) { postThreads_ = threads; }
  void bind() const;  // subsequent draws go here (the scene)
  // Resolves the multisampled scene, or applies the post pass (to columns [sceneX, width) only:
  // the scene's viewport, right of a panel), into the final target and binds that for further
  // draws (overlays), with the viewport over all of it.
  void endScene(int sceneX = 0);
  // RGBA8, top row first (as PNG wants): the final target after endScene; before it (or without
  // it), the scene as drawn so far, resolved when multisampled (no post pass).
  void read(std::vector<unsigned char>& rgba);
  // The GL framebuffer to blit to the window from (after endScene).
  unsigned finalFramebuffer() const;
  // endScene for a scene drawn smaller than the picture: this target's scene (all of it, with
  // the post pass when asked) stretched bilinearly over all of `target` (render::upscale, on the
  // CPU: llvmpipe's scaling blit costs more than the smaller scene saves), which must be a
  // single-sample target with the post pass set, and which is then bound for further draws as
  // after its own endScene. The window's scene on a software GL (app::FrameDriver).
  void endSceneInto(Framebuffer& target);
  int width() const { return width_; }
  int height() const { return height_; }
  int samples() const { return samples_; }

 private:
  void resolveInto(unsigned target);  // the multisampled scene into `target`
  void applyPostPass(int x0);         // fxaa() on columns [x0, width), back into the texture
  void releaseObjects();
  // the scene target (colour a renderbuffer, or a texture that the post pass rewrites) and the
  // final one when it is another (multisampled)
  unsigned fbo_ = 0, color_ = 0, colorTex_ = 0, depth_ = 0, resolveFbo_ = 0, resolveColor_ = 0;
  std::vector<unsigned char> scenePixels_, filteredPixels_;  // the post pass's, reused
  std::vector<unsigned char> luma_, upscaled_;
  std::vector<std::uint32_t> stretched_;  // the enlargement's scratch
  int width_ = 0, height_ = 0, samples_ = 0;
  bool postAntialias_ = false;  // asked for
  int postThreads_ = 1;
  bool post_ = false;           // built: single-sample with the post pass
  mutable bool ended_ = false;  // endScene since the last bind
};

// Writes an RGBA8 image (top row first) as PNG, through a temporary file renamed into place.
util::Problem writePng(const std::string& path, int width, int height,
                       const std::vector<unsigned char>& rgba);

}  // namespace render
