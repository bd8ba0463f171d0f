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
#include "render/trails.hpp"

namespace render {

namespace {

// ---- colours (linear 0..1) ----
constexpr glm::vec3 kStrainRest{0.74f, 0.75f, 0.77f};
constexpr glm::vec3 kStrainStretched{0.93f, 0.13f, 0.10f};
constexpr glm::vec3 kStrainCompressed{0.12f, 0.36f, 0.98f};
constexpr glm::vec3 kRigid{0.87f, 0.86f, 0.83f};
constexpr glm::vec3 kClothFront{0.30f, 0.52f, 0.74f};
constexpr glm::vec3 kClothBack{0.74f, 0.56f, 0.40f};
constexpr glm::vec3 kWire{0.10f, 0.14f, 0.20f};
// ---- sizes ----
// a culprit spring is drawn once more this wide (pixels), where the context allows wide lines:
// it stands out of a dense cloth
constexpr float kHighlightLineWidth = 3.0f;
// texture units of the spring pass's texture buffers
constexpr GLint kPositionsUnit = 0, kLinesUnit = 1, kStrainUnit = 2, kLineFlagsUnit = 3;
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

// The scale the map divides by, or 0 where it cannot (the map then shows the sign only).
float usableScale(float scale) {
  return scale > 0.0f && std::isfinite(scale) ? scale : 0.0f;
}

}  // namespace

glm::vec3 strainColor(float strain, float scale) {
  if (std::isnan(strain)) return kStrainRest;
  scale = usableScale(scale);
  float t = scale > 0.0f ? strain / scale : strain > 0.0f ? 1.0f : strain < 0.0f ? -1.0f : 0.0f;
  t = std::clamp(t, -1.0f, 1.0f);
  const float a = std::abs(t);
  const float s = a * (2.0f - a);  // ease-out (as spring.vert)
  return t >= 0.0f ? glm::mix(kStrainRest, kStrainStretched, s)
                   : glm::mix(kStrainRest, kStrainCompressed, s);
}

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
  Program lineProg, springProg, surfaceProg, shadowProg;
  PointsPass points;
  BackgroundPass background;
  GroundPass ground{lineProg};
  ColliderPass colliders{surfaceProg};
  TrailsPass trails{lineProg};
  WindPass wind{lineProg};

  enum Vao {
    kVaoSurface,
    kVaoSprings,     // no attributes: spring.vert fetches what it needs
    kVaoLines,       // the lines indexed over the position attribute, in one colour
    kVaoHighlight,   // the highlighted ones, likewise
    kVaoShadowMesh,  // positions and SceneView::shadow_triangles
    kVaos
  };
  enum Buf {
    kNormals,
    kUv,  // SceneView::surface_uv, with the topology
    kTriangles,
    kLines,           // point index pairs of the drawn lines (also a texture buffer)
    kHighlightLines,  // point index pairs of the highlighted ones
    kStrain,          // per drawn line, a texture buffer
    kLineFlags,       // per drawn line, a texture buffer
    kShadowTriangles,
    kLevelTriangles,  // SceneView::surface_levels, one after another
    kBufs
  };
  enum Tex { kTexPositions, kTexLines, kTexStrain, kTexLineFlags, kTexs };
  GLuint vao[kVaos]{}, buf[kBufs]{}, tex[kTexs]{};
  bool wideLines = false;  // glLineWidth(kHighlightLineWidth) is allowed
  size_t maxTexels = 0;    // GL_MAX_TEXTURE_BUFFER_SIZE

  // topology state
  bool haveTopology = false;
  std::uint64_t topology = 0;
  size_t nPoints = 0, nLines = 0, nTriangleIndices = 0, nRadii = 0, nFlags = 0, nUv = 0,
         nShadowIndices = 0, nLevels = 0;
  bool haveUv = false;  // the view's surface_uv covers every point: the checker is drawn
  std::vector<std::uint32_t> triangles;    // the valid triangles of the view
  std::vector<std::uint32_t> lineIndices;  // the valid lines of the view (index pairs)
  std::vector<std::uint32_t> lineIds;      // the view's index of each; empty: all are valid
  GLsizei triangleIndexCount = 0, lineCount = 0, highlightCount = 0, shadowIndexCount = 0;
  // the surface levels' valid triangles in kLevelTriangles: level k's are [first[k], first[k+1])
  std::vector<size_t> levelFirst;
  int surfaceLevel = -1;  // the level drawn last frame; -1: the whole surface

  // the flags last uploaded (flags change rarely: a highlight, a grab, not every frame)
  bool lineFlagsUploaded = false;
  std::vector<std::uint8_t> uploadedLineFlags;

  // per-frame scratch, kept to avoid reallocation
  std::vector<float> normals, strainScratch;
  std::vector<std::uint8_t> lineFlagsScratch;
  std::vector<std::uint32_t> highlightIndices;

  ~Impl() { release(); }

  // the buffers, vertex arrays and textures; the programs go with their owner
  void release() {
    if (!glDeleteVertexArrays) return;  // the loader is gone: so is the context
    if (!vao[0]) return;
    glDeleteVertexArrays(kVaos, vao);
    glDeleteBuffers(kBufs, buf);
    glDeleteTextures(kTexs, tex);
    std::fill(std::begin(vao), std::end(vao), 0u);
    std::fill(std::begin(buf), std::end(buf), 0u);
    std::fill(std::begin(tex), std::end(tex), 0u);
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
    createLineTextures();
    // wide lines: within the implementation's range, and not in a forward-compatible context
    // (the window's), where a width above 1 is an error
    GLfloat range[2] = {1.0f, 1.0f};
    GLint flags = 0;
    glGetFloatv(GL_ALIASED_LINE_WIDTH_RANGE, range);
    glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
    wideLines =
        range[1] >= kHighlightLineWidth && !(flags & GL_CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT);
    GLint texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &texels);
    maxTexels = static_cast<size_t>(std::max(texels, 0));
    ready = true;
    return true;
  }

  bool createPrograms(std::string* error) {
    if (!points.init(positions, error) || !lineProg.link("line.vert", "line.frag", error) ||
        !springProg.link("spring.vert", "spring.frag", error) ||
        !surfaceProg.link("surface.vert", "surface.frag", error) || !background.init(error) ||
        !shadowProg.link("shadow.vert", "shadow.frag", error))
      return false;
    // the constant uniforms, once
    springProg.use();
    springProg.set("u_color_rest", kStrainRest);
    springProg.set("u_color_stretched", kStrainStretched);
    springProg.set("u_color_compressed", kStrainCompressed);
    springProg.set("u_color_rigid", kRigid);
    springProg.set("u_color_highlight", kHighlightMagenta);
    springProg.set("u_positions", kPositionsUnit);
    springProg.set("u_lines", kLinesUnit);
    springProg.set("u_strain", kStrainUnit);
    springProg.set("u_line_flags", kLineFlagsUnit);
    glUseProgram(0);
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
    // lines in one colour (the highlighted ones; all when texture buffers cannot hold them):
    // positions, line index pairs; attribute 1, the colour, is left a constant
    glBindVertexArray(vao[kVaoLines]);
    positions();
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[kLines]);
    glBindVertexArray(vao[kVaoHighlight]);
    positions();
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[kHighlightLines]);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
  }

  // the spring pass's texture buffers, read by texelFetch: views of the position and line index
  // buffers (no copies), strain and flags per line
  void createLineTextures() {
    glGenTextures(kTexs, tex);
    const std::pair<Tex, GLuint> views[] = {{kTexPositions, positions.id()},
                                            {kTexLines, buf[kLines]},
                                            {kTexStrain, buf[kStrain]},
                                            {kTexLineFlags, buf[kLineFlags]}};
    const GLenum formats[] = {GL_R32F, GL_R32UI, GL_R32F, GL_R8UI};
    for (int i = 0; i < kTexs; ++i) {
      // a generated name becomes a buffer object when first bound: glTexBuffer needs an object
      glBindBuffer(GL_TEXTURE_BUFFER, views[i].second);
      glBindTexture(GL_TEXTURE_BUFFER, tex[views[i].first]);
      glTexBuffer(GL_TEXTURE_BUFFER, formats[i], views[i].second);
    }
    glBindBuffer(GL_TEXTURE_BUFFER, 0);
    glBindTexture(GL_TEXTURE_BUFFER, 0);
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
    lineIndices.clear();
    lineIds.clear();
    for (size_t l = 0; l < nLines; ++l) {
      const std::uint32_t a = v.lines[2 * l], b = v.lines[2 * l + 1];
      if (a < n && b < n) {
        lineIndices.insert(lineIndices.end(), {a, b});
        lineIds.push_back(static_cast<std::uint32_t>(l));
      }
    }
    if (lineIds.size() == nLines) lineIds.clear();  // all valid: the identity
    lineCount = static_cast<GLsizei>(lineIndices.size() / 2);
    uploadIndices(kVaoLines, kLines, lineIndices);
    lineFlagsUploaded = false;  // the highlighted lines' indices are rebuilt too
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

  // ---- the per-frame path ----
  // A per-line array of the view as the drawn lines see it: itself when every line is drawn,
  // else gathered into scratch (zeros where the view lacks it).
  template <class T>
  std::span<const T> perDrawnLine(std::span<const T> values, std::vector<T>& scratch) const {
    const bool complete = values.size() == nLines;
    if (complete && lineIds.empty()) return values;
    scratch.assign(static_cast<size_t>(lineCount), T{});
    if (complete)
      for (size_t k = 0; k < scratch.size(); ++k) scratch[k] = values[lineIds[k]];
    return scratch;
  }

  // one float per line, every frame (the colour map runs in spring.vert)
  void uploadLineStrain(const SceneView& v) {
    const std::span<const float> strain = perDrawnLine(v.line_strain, strainScratch);
    upload(GL_TEXTURE_BUFFER, buf[kStrain], strain.size_bytes(), strain.data(), GL_STREAM_DRAW);
  }

  // Line flags carry a per-frame state (the divergence culprit) but change rarely: uploaded,
  // and the highlighted lines' index buffer rebuilt, only when they differ from the copy last
  // uploaded (comparing nLines bytes costs less than the upload and the rebuild).
  void uploadLineFlagsIfChanged(const SceneView& v) {
    const std::span<const std::uint8_t> flags = perDrawnLine(v.line_flags, lineFlagsScratch);
    if (lineFlagsUploaded && std::ranges::equal(flags, uploadedLineFlags)) return;
    lineFlagsUploaded = true;
    uploadedLineFlags.assign(flags.begin(), flags.end());
    upload(GL_TEXTURE_BUFFER, buf[kLineFlags], flags.size_bytes(), flags.data(), GL_DYNAMIC_DRAW);
    highlightIndices.clear();
    for (size_t k = 0; k < flags.size(); ++k)
      if (flags[k] & kLineHighlight)
        highlightIndices.insert(highlightIndices.end(),
                                {lineIndices[2 * k], lineIndices[2 * k + 1]});
    highlightCount = static_cast<GLsizei>(highlightIndices.size() / 2);
    uploadIndices(kVaoHighlight, kHighlightLines, highlightIndices);
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
    f.lines = o.show_lines && lineCount > 0;
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
    if (f.lines) drawSpringPass(v, f, o);
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
    for (Program* p : {&springProg, &surfaceProg}) {
      p->use();
      p->set("u_tint", o.tint);
      p->set("u_opacity", o.opacity);
    }
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

  // Springs coloured by strain, rods neutral (spring.vert: GL_LINES whose ends and colours are
  // fetched from texture buffers, one strain per line uploaded per frame). The culprits are
  // drawn once more on top (wider where allowed), so that no neighbour drawn later covers them.
  void drawSpringPass(const SceneView& v, const FrameInfo& f, const DrawOptions& o) {
    uploadLineFlagsIfChanged(v);
    // GL 3.3 promises texture buffers of only 65 536 texels (desktop drivers 2^27): beyond the
    // limit the lines are drawn in the rest colour, indexed over the position attribute
    const size_t need = std::max(3 * f.points, lineIndices.size());
    if (need <= maxTexels) {
      uploadLineStrain(v);
      springProg.use();
      springProg.set("u_view_proj", f.viewProj);
      springProg.set("u_strain_scale", usableScale(o.strain_scale));
      for (const auto& [unit, t] :
           {std::pair{kPositionsUnit, kTexPositions}, std::pair{kLinesUnit, kTexLines},
            std::pair{kStrainUnit, kTexStrain}, std::pair{kLineFlagsUnit, kTexLineFlags}}) {
        glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
        glBindTexture(GL_TEXTURE_BUFFER, tex[t]);
      }
      glActiveTexture(GL_TEXTURE0);
      glBindVertexArray(vao[kVaoSprings]);
      glDrawArrays(GL_LINES, 0, 2 * lineCount);
    } else {
      drawLinesInOneColour(f, kVaoLines, kStrainRest, 2 * lineCount);
    }
    if (highlightCount > 0) {
      if (wideLines) glLineWidth(kHighlightLineWidth);
      drawLinesInOneColour(f, kVaoHighlight, kHighlightMagenta, 2 * highlightCount);
      glLineWidth(1.0f);
    }
  }

  // indexed lines through the per-vertex colour program, the colour a constant attribute
  void drawLinesInOneColour(const FrameInfo& f, Vao a, const glm::vec3& color, GLsizei indices) {
    lineProg.use();
    lineProg.set("u_view_proj", f.viewProj);
    glBindVertexArray(vao[a]);
    glVertexAttrib4f(1, color.r, color.g, color.b, 1.0f);
    glDrawElements(GL_LINES, indices, GL_UNSIGNED_INT, nullptr);
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
    if (f.lines) {
      glBindVertexArray(vao[kVaoLines]);
      glDrawElements(GL_LINES, 2 * lineCount, GL_UNSIGNED_INT, nullptr);
    }
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
