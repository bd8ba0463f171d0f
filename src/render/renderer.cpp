// The scene renderer: one pass per kind (grid, surface, springs, particles, axes, trails).
// Uploads follow docs/architecture.md#two-upload-paths. The topology path (SceneView::topology or a
// count changed) rebuilds the index buffers of triangles and lines. Per frame: the positions, once,
// shared by particles, springs and surface; the surface normals; one strain per spring (the colour
// map runs in the shader). Radii go up with the topology; point and line flags only when their
// content changed (they carry per-frame highlights, but rarely change). Everything is plain
// OpenGL 3.3 core, cheap enough for Mesa's llvmpipe (whose cost is per primitive and per byte
// uploaded: particles are point sprites, springs GL_LINES whose ends the vertex shader fetches by
// index from the shared positions, rather than two CPU-coloured vertices per spring).
#include "render/renderer.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <glm/gtc/type_ptr.hpp>
#include <limits>
#include <span>

#include "render/background.hpp"
#include "render/colliders.hpp"
#include "render/color_vertex.hpp"
#include "render/frame.hpp"
#include "render/ground.hpp"
#include "render/points.hpp"
#include "render/program.hpp"
#include "render/shaders.hpp"
#include "render/springs.hpp"
#include "render/surface.hpp"

#include "render/trails.hpp"

namespace render {

namespace {

// ---- the planar shadow (3-D scenes, on the ground grid) ----
// the direction light travels: nearly straight down (the shadow lies under its caster: a contact
// cue more than a lighting effect), tilted a little so that a vertical sheet still casts one
constexpr glm::vec3 kShadowLight{0.18f, -1.0f, -0.12f};
constexpr float kShadowAlpha = 0.42f;  // under a caster touching the ground
// a caster this many scene extents above the ground casts the faintest shadow
constexpr float kShadowFadeExtents = 0.6f;
// One glBufferData per buffer and frame (the driver orphans the old storage).
void upload(GLenum target, GLuint buffer, size_t bytes, const void* data, GLenum usage) {
  glBindBuffer(target, buffer);
  glBufferData(target, static_cast<GLsizeiptr>(bytes), bytes ? data : nullptr, usage);
}

}  // namespace

struct Renderer::Impl {
  bool ready = false;

  // the programs (render/program.hpp: uniforms set by name)
  Buffer positions;  // 3 floats a point, per frame: shared by points, springs, surface, shadow
  Program lineProg, surfaceProg, shadowProg;
  PointsPass points;
  SpringsPass springs{lineProg};
  SurfacePass surface{surfaceProg};
  BackgroundPass background;
  GroundPass ground{lineProg};
  ColliderPass colliders{surfaceProg};
  TrailsPass trails{lineProg};
  WindPass wind{lineProg};

  enum Vao {

    kVaoShadowMesh,  // positions and SceneView::shadow_triangles
    kVaos
  };
  enum Buf {

    kShadowTriangles,

    kBufs
  };
  GLuint vao[kVaos]{}, buf[kBufs]{};

  // topology state
  bool haveTopology = false;
  std::uint64_t topology = 0;
  size_t nPoints = 0, nLines = 0, nTriangleIndices = 0, nRadii = 0, nFlags = 0, nUv = 0,
         nShadowIndices = 0, nLevels = 0;

  GLsizei shadowIndexCount = 0;

  ~Impl() { release(); }

  // the buffers, vertex arrays and textures; the programs go with their owner
  void release() {
    if (!glDeleteVertexArrays) return;  // the loader is gone: so is the context
    if (!vao[0]) return;
    glDeleteVertexArrays(kVaos, vao);
    glDeleteBuffers(kBufs, buf);
    std::fill(std::begin(vao), std::end(vao), 0u);
    std::fill(std::begin(buf), std::end(buf), 0u);
    ready = false;
  }

  bool init(std::string* error) {
    if (ready) return true;
    if (!glCreateProgram) {
      if (error) *error = "OpenGL functions are not loaded (no current context?)";
      return false;
    }
    positions.create();
    if (!createPrograms(error)) {
      release();
      return false;
    }
    createVertexArrays();
    surface.init(positions);

    ground.init();
    colliders.init();
    trails.init();
    wind.init();
    ready = true;
    return true;
  }

  bool createPrograms(std::string* error) {
    if (!points.init(positions, error) || !lineProg.link("line.vert", "line.frag", error) ||
        !springs.init(positions, error) ||
        !surfaceProg.link("surface.vert", "surface.frag", error) || !background.init(error) ||
        !shadowProg.link("shadow.vert", "shadow.frag", error))
      return false;
    return true;
  }

  // the buffers and how each pass reads them
  void createVertexArrays() {
    glGenVertexArrays(kVaos, vao);
    glGenBuffers(kBufs, buf);
    const auto positions = [&] { attachPositions(this->positions); };
    glBindVertexArray(vao[kVaoShadowMesh]);
    positions();
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[kShadowTriangles]);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
  }

  // ---- the topology path ----
  // A new topology id, or a count that changed under the same id (a view that breaks the
  // contract must not make GL read out of bounds), rebuilds the index buffers and the radii.
  void updateTopology(const SceneView& v, size_t n) {
    const bool changed = !haveTopology || v.topology != topology || n != nPoints ||
                         v.lines.size() / 2 != nLines || v.triangles.size() != nTriangleIndices ||
                         v.shadow_triangles.size() != nShadowIndices || v.radii.size() != nRadii ||
                         v.flags.size() != nFlags || v.surface_uv.size() != nUv ||
                         v.surface_levels.size() != nLevels;
    if (!changed) return;
    haveTopology = true;
    topology = v.topology;
    nPoints = n;
    nLines = v.lines.size() / 2;
    nTriangleIndices = v.triangles.size();
    nShadowIndices = v.shadow_triangles.size();
    nRadii = v.radii.size();
    nFlags = v.flags.size();
    nUv = v.surface_uv.size();
    nLevels = v.surface_levels.size();
    points.uploadTopology(v, n);
    surface.uploadTopology(v, n);

    std::vector<std::uint32_t> shadow;
    validTriangles(v.shadow_triangles, n, shadow);
    shadowIndexCount = static_cast<GLsizei>(shadow.size());
    uploadIndices(kVaoShadowMesh, kShadowTriangles, shadow);

    springs.uploadTopology(v, n);
    ground.invalidate();
  }

  void uploadIndices(Vao a, Buf b, const std::vector<std::uint32_t>& indices) {
    glBindVertexArray(vao[a]);
    upload(GL_ELEMENT_ARRAY_BUFFER, buf[b], indices.size() * sizeof(std::uint32_t), indices.data(),
           GL_STATIC_DRAW);
    glBindVertexArray(0);
  }

  // ---- the passes of one frame ----
  struct FrameInfo : Frame {
    bool surface = false;  // the surface or its wireframe is drawn
    bool lines = false;
    int level = -1;  // the surface level drawn filled; -1: the whole surface
  };

  void clear(const DrawOptions& o, int width, int height) {
    if (width <= 0 || height <= 0) return;
    clearTarget(o, width, height);
    if (ready) background.draw(o, height);
  }

  void draw(const SceneView& v, const Camera& cam, const DrawOptions& o, int width, int height) {
    int x = 0;
    if (o.viewport_width > 0 && o.viewport_x >= 0 && o.viewport_x + o.viewport_width <= width) {
      x = o.viewport_x;
      width = o.viewport_width;  // the aspect ratio and point sizes follow the viewport
    }
    if (!ready || width <= 0 || height <= 0) return;
    setPassState(x, width, height, o.clear_depth);

    FrameInfo f;
    f.points = v.positions.size() / 3;
    updateTopology(v, f.points);
    f.view = cam.view();
    f.proj = cam.projection(static_cast<float>(width) / static_cast<float>(height));
    f.viewProj = f.proj * f.view;
    f.width = width;
    f.height = height;
    f.orthographic = cam.planar;
    f.surface = (o.show_surface || o.wireframe) && surface.hasTriangles();
    f.lines = o.show_lines && springs.lineCount() > 0;
    f.level = f.surface && o.show_surface ? surface.chooseLevel(v, f) : -1;
    // hidden particles (a cloth's beads) still show the ones that matter: a divergence's
    // culprit, the one the mouse holds
    const bool drawPoints = f.points > 0 && (o.show_points || points.collectFlagged(v, f.points));

    // positions: one upload shared by particles, springs and surface
    if (f.surface || f.lines || drawPoints)
      upload(GL_ARRAY_BUFFER, positions, v.positions.size_bytes(), v.positions.data(),
             GL_STREAM_DRAW);
    // the normals before any pass that reads the surface's vertex array (the shadow's too)
    if (f.surface) surface.uploadNormals(v, f.points);
    if (o.show_grid || o.show_axes || !v.colliders.empty()) ground.update(v, f.points, cam);
    // the colliders of the lane drawn solid only (a ghost's would cover the scene twice)
    if (!v.colliders.empty() && o.opacity >= 1.0f) {
      const Grid& grid = ground.grid();
      colliders.draw(v.colliders, f, grid.centreInWorld(), grid.reach());
    } else {
      colliders.skip();
    }
    if (o.show_grid) ground.drawGrid(f);
    if (o.show_grid && o.show_shadow && !v.planar && ground.grid().valid)
      drawShadowPass(v, f, o, drawPoints && o.show_points);
    setGhost(o);
    if (f.surface) surface.draw(f, o, f.level);
    if (f.lines) springs.draw(v, f, o);
    if (drawPoints) points.draw(v, f, o);
    if (o.opacity < 1.0f) glDepthMask(GL_TRUE), glDisable(GL_BLEND), glEnable(GL_DEPTH_TEST);
    if (o.show_axes) ground.drawAxes(f);
    if (o.show_trails && !v.trail_lengths.empty()) trails.draw(v, f);
    // the air once, with the lane drawn solid (a ghost's would draw it twice)
    if (o.show_wind && o.opacity >= 1.0f && v.wind_streaks.size() >= 8) wind.draw(v, f);
    glBindVertexArray(0);
    glUseProgram(0);
  }

  // The tint and opacity of the lit passes; a translucent lane blends over the target without
  // writing depth.
  void setGhost(const DrawOptions& o) {
    points.setGhost(o);
    springs.setGhost(o);
    surface.setGhost(o);
    if (o.opacity < 1.0f) {
      // an x-ray over the lane drawn first: lanes that still coincide would otherwise fight
      // over equal depths in blotches
      glEnable(GL_BLEND);
      glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
      glDepthMask(GL_FALSE);
      glDisable(GL_DEPTH_TEST);
    }
  }

  // the viewport and the GL state every pass starts from
  static void setPassState(int x, int width, int height, bool clearDepth) {
    glViewport(x, 0, width, height);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDepthMask(GL_TRUE);
    if (clearDepth) {
      // only this viewport: a neighbouring scene keeps its depth
      glEnable(GL_SCISSOR_TEST);
      glScissor(x, 0, width, height);
      glClearDepth(1.0);
      glClear(GL_DEPTH_BUFFER_BIT);
    }
    glDisable(GL_SCISSOR_TEST);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);  // springs win over the wireframe on shared edges
    glDisable(GL_CULL_FACE);
    glDisable(GL_BLEND);
    glDisable(GL_STENCIL_TEST);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glLineWidth(1.0f);
    // blending keeps the destination alpha at 1 (PNGs stay opaque)
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  }

  // The planar shadow of the cloth, springs and particles on the ground (after the grid, before
  // the scene): blended black, each pixel darkened once however many casters overlap it (the
  // stencil counts; a target without stencil bits darkens overlaps twice), no depth written.
  void drawShadowPass(const SceneView& v, const FrameInfo& f, const DrawOptions& o,
                      bool withPoints) {
    shadowProg.use();
    shadowProg.set("u_view_proj", f.viewProj);
    shadowProg.set("u_light", glm::normalize(kShadowLight));
    shadowProg.set("u_level", ground.grid().level);
    shadowProg.set("u_fade_height", kShadowFadeExtents * ground.grid().extent);
    shadowProg.set("u_alpha", kShadowAlpha);
    shadowProg.set("u_points", 0);
    glEnable(GL_BLEND);
    glDepthMask(GL_FALSE);
    glEnable(GL_STENCIL_TEST);
    glStencilMask(0xFF);
    glStencilFunc(GL_EQUAL, 0, 0xFF);
    glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
    if (f.surface) {  // a fine cloth's coarser shadow mesh where it has one
      if (shadowIndexCount > 0) {
        glBindVertexArray(vao[kVaoShadowMesh]);
        glDrawElements(GL_TRIANGLES, shadowIndexCount, GL_UNSIGNED_INT, nullptr);
      } else {
        surface.drawForShadow();
      }
    }
    if (f.lines) springs.drawForShadow();
    colliders.drawSpheresForShadow();
    if (withPoints) {
      shadowProg.set("u_points", 1);
      shadowProg.set("u_point_scale",
                     f.proj[1][1] * 0.5f * static_cast<float>(f.height) * o.point_scale);
      points.drawForShadow(v, f.points);
    }
    glDisable(GL_STENCIL_TEST);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
  }
};

Renderer::Renderer() : impl_(std::make_unique<Impl>()) {}
Renderer::~Renderer() = default;

bool Renderer::init(std::string* error) {
  return impl_->init(error);
}

void Renderer::clear(const DrawOptions& options, int width, int height) {
  impl_->clear(options, width, height);
}

void Renderer::draw(const SceneView& view, const Camera& camera, const DrawOptions& options,
                    int width, int height) {
  impl_->draw(view, camera, options, width, height);
}

}  // namespace render
