// Shared helpers for the renderer's tests (tests/test_render*.cpp): a TestScene built point by
// point, the camera's projection on the CPU, the headless EGL context and renderer (created once
// per process), and the pixels read back. Not a test file itself (the glob only picks up
// test_*.cpp).
#pragma once

#include <doctest/doctest.h>
#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <glm/glm.hpp>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "app/egl_context.hpp"
#include "render/camera.hpp"
#include "render/colliders.hpp"
#include "render/renderer.hpp"

namespace glm {
// lets doctest print pixels
inline std::ostream& operator<<(std::ostream& os, const ivec3& c) {
  return os << "(" << c.x << ", " << c.y << ", " << c.z << ")";
}
}  // namespace glm

namespace rendertest {

constexpr float kPi = 3.14159265f;

// ---- CPU helpers ----

// World point -> (pixel x, pixel y from the top, ndc z) in a width x height viewport.
inline glm::vec3 project(const render::Camera& cam, const glm::vec3& p, int width, int height) {
  const glm::vec4 clip = cam.projection(static_cast<float>(width) / static_cast<float>(height)) *
                         cam.view() * glm::vec4(p, 1.0f);
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  return {(ndc.x * 0.5f + 0.5f) * static_cast<float>(width),
          (0.5f - ndc.y * 0.5f) * static_cast<float>(height), ndc.z};
}

inline float distanceToRay(const glm::vec3& p, const glm::vec3& origin, const glm::vec3& dir) {
  const glm::vec3 d = p - origin;
  return glm::length(d - glm::dot(d, dir) * dir);
}

// ---- scenes ----

constexpr std::uint64_t kFreshTopology = 1u << 20;

struct TestScene {
  std::vector<float> positions, radii, strain, trails, uv, wind, grab;
  std::vector<std::uint8_t> flags, line_flags;
  std::vector<std::uint32_t> lines, triangles, trail_lengths;
  std::vector<std::span<const std::uint32_t>> levels;  // SceneView::surface_levels
  std::vector<render::ColliderShape> colliders;
  // 0: a fresh id at every view(), as if each draw showed another system (tests that draw one
  // topology in several frames set an id; explicit ids stay below kFreshTopology)
  std::uint64_t topology = 0;
  bool planar = false;

  std::uint32_t point(const glm::vec3& p, float r = 0.05f, std::uint8_t f = 0) {
    positions.insert(positions.end(), {p.x, p.y, p.z});
    radii.push_back(r);
    flags.push_back(f);
    return static_cast<std::uint32_t>(radii.size() - 1);
  }
  void line(std::uint32_t a, std::uint32_t b, float s, std::uint8_t f = 0) {
    lines.insert(lines.end(), {a, b});
    strain.push_back(s);
    line_flags.push_back(f);
  }
  void triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    triangles.insert(triangles.end(), {a, b, c});
  }
  render::SceneView view() const {
    render::SceneView v;
    v.positions = positions;
    v.radii = radii;
    v.flags = flags;
    v.lines = lines;
    v.line_strain = strain;
    v.line_flags = line_flags;
    v.triangles = triangles;
    v.surface_levels = levels;
    v.surface_uv = uv;
    v.trails = trails;
    v.trail_lengths = trail_lengths;
    v.colliders = colliders;
    v.wind_streaks = wind;
    v.grab_line = grab;
    static std::uint64_t fresh = kFreshTopology;
    v.topology = topology ? topology : ++fresh;
    v.planar = planar;
    return v;
  }
};

// A camera on +z looking at the origin along -z.
inline render::Camera frontCamera(float distance = 3.0f) {
  render::Camera c;
  c.distance = distance;
  c.yaw = 0.0f;
  c.pitch = 0.0f;
  return c;
}

inline render::DrawOptions bareOptions() {
  render::DrawOptions o;
  o.show_grid = o.show_axes = false;
  return o;
}

// ---- the headless context, created once ----

struct Gl {
  app::HeadlessContext context;
  bool ok = false;
  std::string error;
  std::unique_ptr<render::Renderer> renderer;
  ~Gl() { renderer.reset(); }  // before the context goes
};

inline Gl& gl() {
  static Gl g;
  static bool tried = false;
  if (!tried) {
    tried = true;
    if (!g.context.create()) {
      g.error = "headless EGL context unavailable: " + g.context.error();
    } else {
      g.renderer = std::make_unique<render::Renderer>();
      if (const util::Problem err = g.renderer->init())
        g.error = "renderer init failed on " + g.context.description() + ": " + *err;
      else
        g.ok = true;
    }
  }
  return g;
}

// Fails the test (clearly) when there is no GL; CI has Mesa, so this is never skipped.
#define REQUIRE_GL()                                                  \
  do {                                                                \
    INFO("this test needs an OpenGL 3.3 context through EGL (Mesa)"); \
    REQUIRE_MESSAGE(rendertest::gl().ok, rendertest::gl().error);     \
  } while (0)

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
  glm::ivec3 at(int x, int y) const {
    x = std::clamp(x, 0, width - 1);
    y = std::clamp(y, 0, height - 1);
    const unsigned char* p = &rgba[(static_cast<size_t>(y) * width + x) * 4];
    return {p[0], p[1], p[2]};
  }
  glm::ivec3 at(const glm::vec3& projected) const {
    return at(static_cast<int>(std::floor(projected.x)), static_cast<int>(std::floor(projected.y)));
  }
  // the pixel of a small neighbourhood that differs most from `bg` (thin lines may fall on the
  // neighbouring pixel of the projected one)
  glm::ivec3 strongest(const glm::vec3& projected, const glm::ivec3& bg, int r = 1) const {
    glm::ivec3 best = at(projected);
    int bestDiff = -1;
    for (int dy = -r; dy <= r; ++dy)
      for (int dx = -r; dx <= r; ++dx) {
        const glm::ivec3 c = at(static_cast<int>(std::floor(projected.x)) + dx,
                                static_cast<int>(std::floor(projected.y)) + dy);
        const glm::ivec3 d = glm::abs(c - bg);
        if (d.x + d.y + d.z > bestDiff) bestDiff = d.x + d.y + d.z, best = c;
      }
    return best;
  }
};

inline glm::ivec3 toBytes(const glm::vec3& c) {
  return glm::ivec3(glm::round(c * 255.0f));
}

// The background gradient's colour at row y (from the top) of an image `height` rows high.
inline glm::ivec3 backgroundAt(const render::DrawOptions& o, int y, int height) {
  const float v =
      height > 1 ? static_cast<float>(height - 1 - y) / static_cast<float>(height - 1) : 0.5f;
  return toBytes(render::backgroundColor(o, v));
}

inline bool near(const glm::ivec3& a, const glm::ivec3& b, int tol = 3) {
  const glm::ivec3 d = glm::abs(a - b);
  return d.x <= tol && d.y <= tol && d.z <= tol;
}

inline void maybeSave(const std::string& name, const Image& img) {
  const char* dir = std::getenv("SPRINGLAB_RENDER_PNG_DIR");
  if (!dir || !*dir) return;
  const std::string path = std::string(dir) + "/render_" + name + ".png";
  if (auto err = render::writePng(path, img.width, img.height, img.rgba)) MESSAGE(*err);
}

inline Image readImage(render::Framebuffer& fb) {
  Image img;
  fb.read(img.rgba);
  img.width = fb.width();
  img.height = fb.height();
  REQUIRE(img.rgba.size() == static_cast<size_t>(img.width) * img.height * 4);
  return img;
}

inline Image renderScene(const TestScene& scene, const render::Camera& cam,
                         const render::DrawOptions& opts, int width = 200, int height = 150,
                         int samples = 1) {
  render::Framebuffer fb;
  Image img;
  const util::Problem err = fb.resize(width, height, samples);
  REQUIRE_MESSAGE(!err, err.value_or(""));
  fb.bind();
  gl().renderer->clear(opts, width, height);
  gl().renderer->draw(scene.view(), cam, opts, width, height);
  fb.read(img.rgba);
  img.width = width;
  img.height = height;
  REQUIRE(img.rgba.size() == static_cast<size_t>(width) * height * 4);
  CHECK(glGetError() == GL_NO_ERROR);
  return img;
}

// An n x n grid of points over [-h, h]^2 in the x-z plane at height y (x, z swapped into x-y
// when `upright`), two counter-clockwise triangles per cell seen from +y (+z), uv over 0..1.
inline TestScene grid(int n, float h, float y, bool upright = false) {
  TestScene s;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const float a = -h + 2.0f * h * i / (n - 1), b = -h + 2.0f * h * j / (n - 1);
      s.point(upright ? glm::vec3(a, b, y) : glm::vec3(a, y, -b), 0.02f);
      s.uv.insert(s.uv.end(), {static_cast<float>(i) / (n - 1), static_cast<float>(j) / (n - 1)});
    }
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const std::uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      s.triangle(a, b, d);
      s.triangle(a, d, c);
    }
  return s;
}

inline int sum(const glm::ivec3& c) {
  return c.x + c.y + c.z;
}

}  // namespace rendertest
