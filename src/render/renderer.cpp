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
#include "render/trails.hpp"

namespace render {

namespace {

// ---- colours (linear 0..1) ----
constexpr glm::vec3 kClothFront{0.30f, 0.52f, 0.74f};
constexpr glm::vec3 kClothBack{0.74f, 0.56f, 0.40f};
constexpr glm::vec3 kWire{0.10f, 0.14f, 0.20f};
// checker squares across one unit of SceneView::surface_uv (the cloth's larger side): enough to
// see motion and folds, few enough to stay a texture and not a pattern
constexpr float kCheckerSquares = 12.0f;

// ---- the planar shadow (3-D scenes, on the ground grid) ----
// the direction light travels: nearly straight down (the shadow lies under its caster: a contact
// cue more than a lighting effect), tilted a little so that a vertical sheet still casts one
constexpr glm::vec3 kShadowLight{0.18f, -1.0f, -0.12f};
constexpr float kShadowAlpha = 0.42f;  // under a caster touching the ground
// a caster this many scene extents above the ground casts the faintest shadow
constexpr float kShadowFadeExtents = 0.6f;
// Surface levels (SceneView::surface_levels): the coarsest level whose cells are at most
// kLevelCellPixels across on screen is drawn; one already drawn is kept until its cells pass
// kLevelKeepPixels, so that a cloth swinging near the bound does not switch every frame. At 2.5
// pixels a coarse cell's shading and outline look as the whole surface's do (compared in
// screenshots, docs/architecture.md#surface-levels); the normals are the whole surface's.
constexpr float kLevelCellPixels = 2.5f, kLevelKeepPixels = 3.0f;
constexpr size_t kLevelSampleTriangles = 64;  // whose edges measure the surface's cells
constexpr float kMinClipW = 1e-6f;            // a vertex nearer the eye's plane is not measured

// One glBufferData per buffer and frame (the driver orphans the old storage).
void upload(GLenum target, GLuint buffer, size_t bytes, const void* data, GLenum usage) {
  glBindBuffer(target, buffer);
  glBufferData(target, static_cast<GLsizeiptr>(bytes), bytes ? data : nullptr, usage);
}

}  // namespace

void vertexNormals(std::span<const float> positions, std::span<const std::uint32_t> triangles,
                   std::vector<float>& normals) {
  const size_t n = positions.size() / 3;
  normals.assign(3 * n, 0.0f);
  const float* x = positions.data();
  const auto at = [x](std::uint32_t i) { return glm::vec3(x[3 * i], x[3 * i + 1], x[3 * i + 2]); };
  for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
    const std::uint32_t a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
    if (a >= n || b >= n || c >= n) continue;
    const glm::vec3 pa = at(a);
    const glm::vec3 nrm = glm::cross(at(b) - pa, at(c) - pa);  // length = 2 * area: area-weighted
    for (std::uint32_t i : {a, b, c}) {
      normals[3 * i] += nrm.x;
      normals[3 * i + 1] += nrm.y;
      normals[3 * i + 2] += nrm.z;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    float* p = &normals[3 * i];
    const float len = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    // a zero or non-finite sum stays (or becomes) 0: the shader then uses the view direction
    const float inv = len > 0.0f && std::isfinite(len) ? 1.0f / len : 0.0f;
    for (int c = 0; c < 3; ++c) p[c] = inv > 0.0f ? p[c] * inv : 0.0f;
  }
}

struct Renderer::Impl {
  bool ready = false;

  // the programs (render/program.hpp: uniforms set by name)
  Buffer positions;  // 3 floats a point, per frame: shared by points, springs, surface, shadow
  Program lineProg, surfaceProg, shadowProg;
  PointsPass points;
  SpringsPass springs{lineProg};
  BackgroundPass background;
  GroundPass ground{lineProg};
  ColliderPass colliders{surfaceProg};
  TrailsPass trails{lineProg};
  WindPass wind{lineProg};

  enum Vao {
    kVaoSurface,
    kVaoShadowMesh,  // positions and SceneView::shadow_triangles
    kVaos
  };
  enum Buf {
    kNormals,
    kUv,  // SceneView::surface_uv, with the topology
    kTriangles,
    kShadowTriangles,
    kLevelTriangles,  // SceneView::surface_levels, one after another
    kBufs
  };
  GLuint vao[kVaos]{}, buf[kBufs]{};

  // topology state
  bool haveTopology = false;
  std::uint64_t topology = 0;
  size_t nPoints = 0, nLines = 0, nTriangleIndices = 0, nRadii = 0, nFlags = 0, nUv = 0,
         nShadowIndices = 0, nLevels = 0;
  bool haveUv = false;  // the view's surface_uv covers every point: the checker is drawn
  std::vector<std::uint32_t> triangles;  // the valid triangles of the view
  GLsizei triangleIndexCount = 0, shadowIndexCount = 0;
  // the surface levels' valid triangles in kLevelTriangles: level k's are [first[k], first[k+1])
  std::vector<size_t> levelFirst;
  int surfaceLevel = -1;  // the level drawn last frame; -1: the whole surface

  // per-frame scratch, kept to avoid reallocation
  std::vector<float> normals;

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
    // the surface: positions, normals, triangles
    glBindVertexArray(vao[kVaoSurface]);
    positions();
    glBindBuffer(GL_ARRAY_BUFFER, buf[kNormals]);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
    glBindBuffer(GL_ARRAY_BUFFER, buf[kUv]);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, 0, nullptr);  // enabled with the topology
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[kTriangles]);
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
    uploadSurfaceUv(v, n);
    // keep only triangles and lines whose indices are in range: GL would read out of bounds
    validTriangles(v.triangles, n, triangles);
    triangleIndexCount = static_cast<GLsizei>(triangles.size());
    uploadIndices(kVaoSurface, kTriangles, triangles);
    std::vector<std::uint32_t> shadow;
    validTriangles(v.shadow_triangles, n, shadow);
    shadowIndexCount = static_cast<GLsizei>(shadow.size());
    uploadIndices(kVaoShadowMesh, kShadowTriangles, shadow);
    uploadSurfaceLevels(v, n);
    springs.uploadTopology(v, n);
    ground.invalidate();
  }

  // material coordinates go up with the topology; without them (or with the wrong count) the
  // attribute is a constant and the checker is off
  void uploadSurfaceUv(const SceneView& v, size_t n) {
    haveUv = n > 0 && v.surface_uv.size() == 2 * n;
    glBindVertexArray(vao[kVaoSurface]);
    if (haveUv) {
      upload(GL_ARRAY_BUFFER, buf[kUv], v.surface_uv.size_bytes(), v.surface_uv.data(),
             GL_STATIC_DRAW);
      glEnableVertexAttribArray(2);
    } else {
      glDisableVertexAttribArray(2);
    }
    glBindVertexArray(0);
  }

  // an element buffer is part of its vertex array's state: bind that first
  static void validTriangles(std::span<const std::uint32_t> in, size_t n,
                             std::vector<std::uint32_t>& out) {
    out.clear();
    for (size_t t = 0; t + 2 < in.size(); t += 3) {
      const std::uint32_t a = in[t], b = in[t + 1], c = in[t + 2];
      if (a < n && b < n && c < n) out.insert(out.end(), {a, b, c});
    }
  }

  // The coarsest surface level whose cells are small enough on screen (kLevelCellPixels, or
  // kLevelKeepPixels for the level drawn last), or -1: the whole surface. Level k's cells are
  // 2^(k+1) of the whole surface's, whose size is the median of sampled edges' on-screen lengths.
  int chooseSurfaceLevel(const SceneView& v, const glm::mat4& viewProj, int width, int height) {
    const int levels = levelFirst.empty() ? 0 : static_cast<int>(levelFirst.size()) - 1;
    const float cell = levels > 0 ? medianEdgePixels(v.positions, viewProj, width, height) : NAN;
    int chosen = -1;
    float stride = 2.0f;
    for (int k = 0; k < levels && cell > 0.0f; ++k, stride *= 2.0f) {
      const float bound = k <= surfaceLevel ? kLevelKeepPixels : kLevelCellPixels;
      if (stride * cell <= bound && levelFirst[k + 1] > levelFirst[k]) chosen = k;
    }
    return surfaceLevel = chosen;
  }

  // The median on-screen length (pixels) of the edges of kLevelSampleTriangles triangles spread
  // over the whole surface, those with a vertex at or behind the eye left out; NaN if none.
  std::vector<float> edgeScratch;
  float medianEdgePixels(std::span<const float> p, const glm::mat4& viewProj, int width,
                         int height) {
    const size_t count = triangles.size() / 3;
    const size_t samples = std::min(count, kLevelSampleTriangles);
    const glm::vec2 half(0.5f * static_cast<float>(width), 0.5f * static_cast<float>(height));
    edgeScratch.clear();
    for (size_t s = 0; s < samples; ++s) {
      const size_t t = s * count / samples;
      glm::vec2 q[3];
      bool visible = true;
      for (int c = 0; c < 3; ++c) {
        const std::uint32_t i = triangles[3 * t + static_cast<size_t>(c)];
        const glm::vec4 clip = viewProj * glm::vec4(p[3 * i], p[3 * i + 1], p[3 * i + 2], 1.0f);
        visible = visible && clip.w > kMinClipW;
        q[c] = glm::vec2(clip) / clip.w * half;
      }
      for (int c = 0; visible && c < 3; ++c)
        if (const float l = glm::length(q[(c + 1) % 3] - q[c]); std::isfinite(l))
          edgeScratch.push_back(l);
    }
    if (edgeScratch.empty()) return NAN;
    const auto middle = edgeScratch.begin() + static_cast<long>(edgeScratch.size() / 2);
    std::nth_element(edgeScratch.begin(), middle, edgeScratch.end());
    return *middle;
  }

  // the levels' valid triangles one after another into kLevelTriangles (not bound to a vertex
  // array: drawSurfacePass binds it to the surface's in place of kTriangles)
  void uploadSurfaceLevels(const SceneView& v, size_t n) {
    std::vector<std::uint32_t> all, valid;
    levelFirst.assign(1, 0);
    for (const auto& level : v.surface_levels) {
      validTriangles(level, n, valid);
      all.insert(all.end(), valid.begin(), valid.end());
      levelFirst.push_back(all.size());
    }
    upload(GL_ARRAY_BUFFER, buf[kLevelTriangles], all.size() * sizeof(std::uint32_t), all.data(),
           GL_STATIC_DRAW);
    surfaceLevel = -1;
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
    f.surface = (o.show_surface || o.wireframe) && triangleIndexCount > 0;
    f.lines = o.show_lines && springs.lineCount() > 0;
    f.level = f.surface && o.show_surface ? chooseSurfaceLevel(v, f.viewProj, width, height) : -1;
    // hidden particles (a cloth's beads) still show the ones that matter: a divergence's
    // culprit, the one the mouse holds
    const bool drawPoints = f.points > 0 && (o.show_points || points.collectFlagged(v, f.points));

    // positions: one upload shared by particles, springs and surface
    if (f.surface || f.lines || drawPoints)
      upload(GL_ARRAY_BUFFER, positions, v.positions.size_bytes(), v.positions.data(),
             GL_STREAM_DRAW);
    // the normals before any pass that reads the surface's vertex array (the shadow's too)
    if (f.surface) {
      vertexNormals(v.positions.first(3 * f.points), triangles, normals);
      upload(GL_ARRAY_BUFFER, buf[kNormals], normals.size() * sizeof(float), normals.data(),
             GL_STREAM_DRAW);
    }
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
    if (f.surface) drawSurfacePass(f, o);
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
    surfaceProg.use();
    surfaceProg.set("u_tint", o.tint);
    surfaceProg.set("u_opacity", o.opacity);
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

  // the lit cloth and/or its wireframe, pushed back so that springs on it stay visible
  void drawSurfacePass(const FrameInfo& f, const DrawOptions& o) {
    surfaceProg.use();
    surfaceProg.set("u_view", f.view);
    surfaceProg.set("u_proj", f.proj);
    surfaceProg.set("u_orthographic", f.orthographic ? 1 : 0);
    glBindVertexArray(vao[kVaoSurface]);
    if (!haveUv) glVertexAttrib2f(2, 0.0f, 0.0f);
    if (o.show_surface) {
      surfaceProg.set("u_checker_squares", haveUv ? kCheckerSquares : 0.0f);
      surfaceProg.set("u_color_front", kClothFront);
      surfaceProg.set("u_color_back", kClothBack);
      glEnable(GL_POLYGON_OFFSET_FILL);
      glPolygonOffset(kSurfaceOffsetFactor, kSurfaceOffsetUnits);
      if (f.level >= 0) {  // the level's triangles in place of the whole surface's, for this draw
        const size_t k = static_cast<size_t>(f.level);
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[kLevelTriangles]);
        glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(levelFirst[k + 1] - levelFirst[k]),
                       GL_UNSIGNED_INT,
                       reinterpret_cast<const void*>(levelFirst[k] * sizeof(std::uint32_t)));
        glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[kTriangles]);
      } else {
        glDrawElements(GL_TRIANGLES, triangleIndexCount, GL_UNSIGNED_INT, nullptr);
      }
      glDisable(GL_POLYGON_OFFSET_FILL);
    }
    if (o.wireframe) {
      surfaceProg.set("u_checker_squares", 0.0f);
      surfaceProg.set("u_color_front", kWire);
      surfaceProg.set("u_color_back", kWire);
      glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
      glDrawElements(GL_TRIANGLES, triangleIndexCount, GL_UNSIGNED_INT, nullptr);
      glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    }
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
      const bool coarse = shadowIndexCount > 0;
      glBindVertexArray(vao[coarse ? kVaoShadowMesh : kVaoSurface]);
      glDrawElements(GL_TRIANGLES, coarse ? shadowIndexCount : triangleIndexCount, GL_UNSIGNED_INT,
                     nullptr);
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
