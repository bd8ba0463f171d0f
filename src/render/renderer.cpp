// The scene renderer: the passes of a frame in their order, each in its own file with its program
// and buffers (docs/architecture.md#the-renderer-by-passes): background.cpp (the clear),
// colliders.cpp, ground.cpp (grid and axes), shadow.cpp, surface.cpp (the cloth), springs.cpp,
// points.cpp (particles), trails.cpp (trails and the wind's streaks). Uploads follow
// docs/architecture.md#two-upload-paths. The topology path (SceneView::topology or a count
// changed) rebuilds the index buffers of triangles and lines. Per frame: the positions, once,
// shared by particles, springs, surface and shadow; the surface normals; one strain per spring (the
// colour map runs in the shader). Radii go up with the topology; point and line flags only when
// their content changed (they carry per-frame highlights, but rarely change). Everything is plain
// OpenGL 3.3 core, cheap enough for Mesa's llvmpipe (whose cost is per primitive and per byte
// uploaded: particles are point sprites, springs GL_LINES whose ends the vertex shader fetches by
// index from the shared positions, rather than two CPU-coloured vertices per spring).
#include "render/renderer.hpp"

#include <glad/gl.h>

#include <cstdint>
#include <optional>

#include "render/background.hpp"
#include "render/colliders.hpp"
#include "render/frame.hpp"
#include "render/gl_objects.hpp"
#include "render/ground.hpp"
#include "render/points.hpp"
#include "render/program.hpp"
#include "render/shadow.hpp"
#include "render/springs.hpp"
#include "render/surface.hpp"
#include "render/trails.hpp"

namespace render {

namespace {

// A view's topology id and counts: a new id, or a count that changed under the same id (a view
// that breaks the contract must not make GL read out of bounds), rebuilds the index buffers and
// the radii.
struct TopologyKey {
  std::uint64_t id = 0;
  size_t points = 0, lines = 0, triangleIndices = 0, shadowIndices = 0, radii = 0, flags = 0,
         uv = 0, levels = 0;
  bool operator==(const TopologyKey&) const = default;
};

TopologyKey topologyOf(const SceneView& v, size_t n) {
  return {v.topology,
          n,
          v.lines.size() / 2,
          v.triangles.size(),
          v.shadow_triangles.size(),
          v.radii.size(),
          v.flags.size(),
          v.surface_uv.size(),
          v.surface_levels.size()};
}

// What a frame draws, decided before its first pass.
struct Drawn {
  bool surface = false;  // the surface or its wireframe
  bool lines = false;
  bool points = false;  // all points, or (particles hidden) the flagged ones
  int level = -1;       // the surface level drawn filled; -1: the whole surface
};

Frame frameOf(const Camera& cam, int width, int height, size_t points) {
  Frame f;
  f.view = cam.view();
  f.proj = cam.projection(static_cast<float>(width) / static_cast<float>(height));
  f.viewProj = f.proj * f.view;
  f.width = width;
  f.height = height;
  f.orthographic = cam.planar;
  f.points = points;
  return f;
}

// the viewport and the GL state every pass starts from
void setPassState(int x, int width, int height, bool clearDepth) {
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

}  // namespace

struct Renderer::Impl {
  // The GL side, made by init (it needs a context): the passes and what they share.
  struct Passes {
    Buffer positions;     // x y z per point, every frame: points, springs, surface, shadow
    Program lineProgram;  // line.vert/frag: grid, axes, trails, wind, springs in one colour
    Program litProgram;   // surface.vert/frag: the cloth and the colliders
    BackgroundPass background;
    GroundPass ground{lineProgram};
    ColliderPass colliders{litProgram};
    ShadowPass shadow;
    SurfacePass surface{litProgram};
    SpringsPass springs{lineProgram};
    PointsPass points;
    TrailsPass trails{lineProgram};
    WindPass wind{lineProgram};
    GrabLinePass grab;
    ArrowsPass arrows;
    std::optional<TopologyKey> topology;  // of the view last drawn
    PassTimer* timer = nullptr;           // --stats: each pass timed

    util::Problem init();
    void updateTopology(const SceneView& v, size_t n);
    Drawn decide(const SceneView& v, const Frame& f, const DrawOptions& o);
    void draw(const SceneView& v, const Camera& cam, const DrawOptions& o, int width, int height);
    void drawGround(const SceneView& v, const Frame& f, const DrawOptions& o, const Drawn& d);
    void drawScene(const SceneView& v, const Frame& f, const DrawOptions& o, const Drawn& d);
    void drawOverlays(const SceneView& v, const Frame& f, const DrawOptions& o);
  };
  std::unique_ptr<Passes> passes;  // null before init

  util::Problem init() {
    if (passes) return std::nullopt;
    if (!glCreateProgram) return "OpenGL functions are not loaded (no current context?)";
    auto made = std::make_unique<Passes>();
    if (auto problem = made->init()) return problem;  // what it made goes with it
    passes = std::move(made);
    return std::nullopt;
  }

  void clear(const DrawOptions& o, int width, int height) {
    if (width <= 0 || height <= 0) return;
    PassScope timed(passes ? passes->timer : nullptr, Pass::Background);
    // the gradient covers every pixel: the colour needs no clearing under it
    clearTarget(o, width, height, !(passes && BackgroundPass::covers(o)));
    if (passes) passes->background.draw(o, width, height);
  }

  void draw(const SceneView& v, const Camera& cam, const DrawOptions& o, int width, int height) {
    int x = 0;
    if (o.viewport_width > 0 && o.viewport_x >= 0 && o.viewport_x + o.viewport_width <= width) {
      x = o.viewport_x;
      width = o.viewport_width;  // the aspect ratio and point sizes follow the viewport
    }
    if (!passes || width <= 0 || height <= 0) return;
    setPassState(x, width, height, o.clear_depth);
    passes->draw(v, cam, o, width, height);
  }
};

util::Problem Renderer::Impl::Passes::init() {
  positions.create();
  // in this order, up to the first that fails
  util::Problem problem = points.init(positions);
  if (!problem) problem = lineProgram.link("line.vert", "line.frag");
  if (!problem) problem = springs.init(positions);
  if (!problem) problem = litProgram.link("surface.vert", "surface.frag");
  if (!problem) problem = background.init();
  if (!problem) problem = shadow.init(positions);
  if (!problem) problem = colliders.init();
  if (!problem) problem = grab.init();
  if (!problem) problem = arrows.init();
  if (problem) return problem;
  surface.init(positions);
  ground.init();
  trails.init();
  wind.init();
  return std::nullopt;
}

void Renderer::Impl::Passes::updateTopology(const SceneView& v, size_t n) {
  const TopologyKey key = topologyOf(v, n);
  if (topology == key) return;
  topology = key;
  points.uploadTopology(v, n);
  surface.uploadTopology(v, n);
  shadow.uploadTopology(v, n);
  springs.uploadTopology(v, n);
  ground.invalidate();
}

Drawn Renderer::Impl::Passes::decide(const SceneView& v, const Frame& f, const DrawOptions& o) {
  Drawn d;
  d.surface = (o.show_surface || o.wireframe) && surface.hasTriangles();
  d.lines = o.show_lines && springs.lineCount() > 0;
  d.level = d.surface && o.show_surface ? surface.chooseLevel(v, f, o.surface_cell_pixels) : -1;
  // hidden particles (a cloth's beads) still show the ones that matter: a divergence's
  // culprit, the one the mouse holds
  d.points = f.points > 0 && (o.show_points || points.collectFlagged(v, f.points));
  return d;
}

void Renderer::Impl::Passes::draw(const SceneView& v, const Camera& cam, const DrawOptions& o,
                                  int width, int height) {
  const size_t n = v.positions.size() / 3;
  updateTopology(v, n);
  const Frame f = frameOf(cam, width, height, n);
  const Drawn d = decide(v, f, o);
  {
    PassScope timed(timer, Pass::Upload);
    // positions: one upload shared by particles, springs, surface and shadow
    if (d.surface || d.lines || d.points)
      upload(GL_ARRAY_BUFFER, positions, v.positions.size_bytes(), v.positions.data(),
             GL_STREAM_DRAW);
    // the normals before any pass that reads the surface's vertex array (the shadow's too)
    if (d.surface) surface.uploadNormals(v, n);
    if (o.show_grid || o.show_axes || !v.colliders.empty()) ground.update(v, n, cam);
  }
  drawGround(v, f, o, d);
  drawScene(v, f, o, d);
  drawOverlays(v, f, o);
  glBindVertexArray(0);
  glUseProgram(0);
}

// the colliders, the grid and the shadow on it: behind the scene
void Renderer::Impl::Passes::drawGround(const SceneView& v, const Frame& f, const DrawOptions& o,
                                        const Drawn& d) {
  // the colliders of the lane drawn solid only (a ghost's would cover the scene twice)
  if (!v.colliders.empty() && o.opacity >= 1.0f) {
    PassScope timed(timer, Pass::Colliders);
    const Grid& grid = ground.grid();
    colliders.draw(v.colliders, f, grid.centreInWorld(), grid.reach());
  } else {
    colliders.skip();  // nor their shadows
  }
  if (o.show_grid) {
    PassScope timed(timer, Pass::Grid);
    ground.drawGrid(f);
  }
  if (o.show_grid && o.show_shadow && !v.planar && ground.grid().valid) {
    PassScope timed(timer, Pass::Shadow);
    ShadowCasters casters;
    casters.surface = d.surface ? &surface : nullptr;
    casters.springs = d.lines ? &springs : nullptr;
    casters.colliders = &colliders;
    casters.points = d.points && o.show_points ? &points : nullptr;
    shadow.draw(v, f, o, ground.grid(), casters);
  }
}

// The lit passes, with a ghosted lane's tint and opacity: a translucent lane blends over the
// target without writing depth.
void Renderer::Impl::Passes::drawScene(const SceneView& v, const Frame& f, const DrawOptions& o,
                                       const Drawn& d) {
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
  if (d.surface) {
    PassScope timed(timer, Pass::Surface);
    surface.draw(f, o, d.level);
  }
  // a collider hidden under the cloth shows through it (the solid lane's: a ghost draws none)
  if (o.opacity >= 1.0f && !v.colliders.empty()) {
    PassScope timed(timer, Pass::Colliders);
    colliders.drawThrough(f);
  }
  // over a drawn surface the springs are a thin mesh on it (springs.hpp)
  if (d.lines) {
    PassScope timed(timer, Pass::Springs);
    springs.draw(v, f, o, d.surface && o.show_surface);
  }
  if (d.points) {
    PassScope timed(timer, Pass::Points);
    points.draw(v, f, o);
  }
  if (o.opacity < 1.0f) {
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
  }
}

// the axes, trails and wind over the scene
void Renderer::Impl::Passes::drawOverlays(const SceneView& v, const Frame& f,
                                          const DrawOptions& o) {
  PassScope timed(timer, Pass::Overlays);
  if (o.show_axes) ground.drawAxes(f);
  if (o.show_trails && !v.trail_lengths.empty()) trails.draw(v, f);
  // the air once, with the lane drawn solid (a ghost's would draw it twice)
  if (o.show_wind && o.opacity >= 1.0f && v.wind_streaks.size() >= 8) wind.draw(v, f);
  if (o.opacity >= 1.0f) grab.draw(v, f);  // the solid lane's: the hand pulls that one
  if (o.show_arrows || o.show_forces)
    arrows.draw(v, f, o.tint, o.opacity, o.show_arrows, o.show_forces);
}

float Renderer::gridSpacing() const {
  if (!impl_->passes) return 0.0f;
  const Grid& grid = impl_->passes->ground.grid();
  return grid.valid ? grid.spacing : 0.0f;
}

void Renderer::setTimer(PassTimer* timer) {
  if (impl_->passes) impl_->passes->timer = timer;
}

Renderer::Renderer() : impl_(std::make_unique<Impl>()) {}
Renderer::~Renderer() = default;

util::Problem Renderer::init() {
  return impl_->init();
}

void Renderer::clear(const DrawOptions& options, int width, int height) {
  impl_->clear(options, width, height);
}

void Renderer::draw(const SceneView& view, const Camera& camera, const DrawOptions& options,
                    int width, int height) {
  impl_->draw(view, camera, options, width, height);
}

}  // namespace render
