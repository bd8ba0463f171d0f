// The renderer: camera math and the strain colour map on the CPU; then known scenes drawn from a
// known camera into an offscreen framebuffer through a headless EGL context (Mesa), checked
// pixel by pixel where glm projects them. Set SPRINGLAB_RENDER_PNG_DIR to keep the images.
#include <doctest/doctest.h>

#ifdef SPRINGLAB_VIEWER

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <glm/glm.hpp>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "app/egl_context.hpp"
#include "app/session.hpp"
#include "app/view_builder.hpp"
#include "render/camera.hpp"
#include "render/colliders.hpp"
#include "render/renderer.hpp"
#include "util.hpp"

#include "stb_image_reader.hpp"

namespace glm {
// lets doctest print pixels
inline std::ostream& operator<<(std::ostream& os, const ivec3& c) {
  return os << "(" << c.x << ", " << c.y << ", " << c.z << ")";
}
}  // namespace glm

namespace {

constexpr float kPi = 3.14159265f;

// ---- CPU helpers ----

// World point -> (pixel x, pixel y from the top, ndc z) in a width x height viewport.
glm::vec3 project(const render::Camera& cam, const glm::vec3& p, int width, int height) {
  const glm::vec4 clip = cam.projection(static_cast<float>(width) / static_cast<float>(height)) *
                         cam.view() * glm::vec4(p, 1.0f);
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  return {(ndc.x * 0.5f + 0.5f) * static_cast<float>(width),
          (0.5f - ndc.y * 0.5f) * static_cast<float>(height), ndc.z};
}

float distanceToRay(const glm::vec3& p, const glm::vec3& origin, const glm::vec3& dir) {
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
render::Camera frontCamera(float distance = 3.0f) {
  render::Camera c;
  c.distance = distance;
  c.yaw = 0.0f;
  c.pitch = 0.0f;
  return c;
}

render::DrawOptions bareOptions() {
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

Gl& gl() {
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
    REQUIRE_MESSAGE(gl().ok, gl().error);                             \
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

glm::ivec3 toBytes(const glm::vec3& c) {
  return glm::ivec3(glm::round(c * 255.0f));
}

// The background gradient's colour at row y (from the top) of an image `height` rows high.
glm::ivec3 backgroundAt(const render::DrawOptions& o, int y, int height) {
  const float v =
      height > 1 ? static_cast<float>(height - 1 - y) / static_cast<float>(height - 1) : 0.5f;
  return toBytes(render::backgroundColor(o, v));
}

bool near(const glm::ivec3& a, const glm::ivec3& b, int tol = 3) {
  const glm::ivec3 d = glm::abs(a - b);
  return d.x <= tol && d.y <= tol && d.z <= tol;
}

void maybeSave(const std::string& name, const Image& img) {
  const char* dir = std::getenv("SPRINGLAB_RENDER_PNG_DIR");
  if (!dir || !*dir) return;
  const std::string path = std::string(dir) + "/render_" + name + ".png";
  if (auto err = render::writePng(path, img.width, img.height, img.rgba)) MESSAGE(*err);
}

Image readImage(render::Framebuffer& fb) {
  Image img;
  fb.read(img.rgba);
  img.width = fb.width();
  img.height = fb.height();
  REQUIRE(img.rgba.size() == static_cast<size_t>(img.width) * img.height * 4);
  return img;
}

Image renderScene(const TestScene& scene, const render::Camera& cam,
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

}  // namespace

// ============================== CPU: camera ==============================

TEST_CASE("render: camera eye, view and projection agree") {
  render::Camera c = frontCamera(4.0f);
  c.target = {1.0f, 2.0f, 3.0f};
  CHECK(c.eye().x == doctest::Approx(1.0f));
  CHECK(c.eye().y == doctest::Approx(2.0f));
  CHECK(c.eye().z == doctest::Approx(7.0f));  // yaw 0 looks along -z

  c.yaw = 0.7f;
  c.pitch = 0.4f;
  CHECK(glm::length(c.eye() - c.target) == doctest::Approx(4.0f));
  CHECK(c.eye().y > c.target.y);  // positive pitch looks down: the eye is above
  // the target sits on the view axis at -distance, and projects to the centre
  const glm::vec4 t = c.view() * glm::vec4(c.target, 1.0f);
  CHECK(t.x == doctest::Approx(0.0f).epsilon(1e-5));
  CHECK(t.y == doctest::Approx(0.0f).epsilon(1e-5));
  CHECK(t.z == doctest::Approx(-4.0f).epsilon(1e-5));
  const glm::vec3 px = project(c, c.target, 640, 480);
  CHECK(px.x == doctest::Approx(320.0f).epsilon(1e-4));
  CHECK(px.y == doctest::Approx(240.0f).epsilon(1e-4));
  CHECK(std::abs(px.z) < 1.0f);
  // the eye maps to the view origin; world up stays up on screen
  const glm::vec4 e = c.view() * glm::vec4(c.eye(), 1.0f);
  CHECK(glm::length(glm::vec3(e)) < 1e-4f);
  CHECK(project(c, c.target + glm::vec3(0, 0.5f, 0), 640, 480).y < 240.0f);

  // pitch is clamped short of the poles
  c.orbit(0.0f, 10.0f);
  CHECK(c.pitch < kPi / 2);
  CHECK(std::isfinite(c.view()[0][0]));
  c.orbit(0.0f, -20.0f);
  CHECK(c.pitch > -kPi / 2);
}

TEST_CASE("render: camera ray through the centre hits the target, pixel rays match projection") {
  for (bool planar : {false, true}) {
    CAPTURE(planar);
    render::Camera c;
    c.planar = planar;
    c.target = {0.3f, -0.2f, 0.1f};
    c.distance = 2.5f;
    c.yaw = 0.5f;
    c.pitch = 0.3f;
    glm::vec3 o, d;
    c.ray(400.0f, 300.0f, 800.0f, 600.0f, o, d);
    CHECK(glm::length(d) == doctest::Approx(1.0f));
    CHECK(distanceToRay(c.target, o, d) < 1e-4f);
    CHECK(glm::dot(c.target - o, d) > 0.0f);  // in front
    // the ray through a point's pixel passes through the point
    const glm::vec3 p(0.6f, 0.1f, -0.4f);
    const glm::vec3 s = project(c, p, 800, 600);
    c.ray(s.x, s.y, 800.0f, 600.0f, o, d);
    CHECK(distanceToRay(p, o, d) < 1e-3f);
  }
}

TEST_CASE("render: camera frame puts the box in view") {
  const glm::vec3 lo(-2.0f, 0.5f, -1.0f), hi(3.0f, 1.5f, 4.0f);
  for (bool planar : {false, true}) {
    for (float aspect : {1.0f, 16.0f / 9.0f}) {
      CAPTURE(planar);
      CAPTURE(aspect);
      render::Camera c;
      c.planar = planar;
      c.yaw = 0.8f;
      c.frame(lo, hi);
      CHECK(glm::length(c.target - 0.5f * (lo + hi)) < 1e-5f);
      const int h = 600, w = static_cast<int>(600 * aspect);
      float spread = 0.0f;
      for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z);
        const glm::vec3 s = project(c, corner, w, h);
        CHECK(s.x >= 0.0f);
        CHECK(s.x <= static_cast<float>(w));
        CHECK(s.y >= 0.0f);
        CHECK(s.y <= static_cast<float>(h));
        CHECK(s.z > -1.0f);
        CHECK(s.z < 1.0f);
        spread = std::max({spread, std::abs(s.x - 0.5f * w) / w, std::abs(s.y - 0.5f * h) / h});
      }
      CHECK(spread > 0.2f);  // and not lost in the middle
    }
  }
}

TEST_CASE("render: planar camera is orthographic, zoom and pan keep points under the cursor") {
  render::Camera c;
  c.planar = true;
  c.distance = 2.0f;
  c.yaw = 1.0f;  // ignored when planar
  const glm::mat4 p = c.projection(1.5f);
  CHECK(p[3][3] == doctest::Approx(1.0f));
  CHECK(p[2][3] == doctest::Approx(0.0f));
  CHECK(p[1][1] == doctest::Approx(1.0f / (2.0f * std::tan(0.5f * c.fov_y))));
  CHECK(c.eye().z > c.target.z);
  CHECK(c.eye().x == doctest::Approx(c.target.x));
  c.orbit(0.5f, 0.5f);
  CHECK(c.yaw == 1.0f);
  // depth does not change the pixel
  const glm::vec3 a = project(c, {0.3f, 0.2f, 0.0f}, 300, 200);
  const glm::vec3 b = project(c, {0.3f, 0.2f, -5.0f}, 300, 200);
  CHECK(a.x == doctest::Approx(b.x));
  CHECK(a.y == doctest::Approx(b.y));

  for (bool planar : {true, false}) {
    CAPTURE(planar);
    render::Camera z;
    z.planar = planar;
    z.pitch = planar ? 0.25f : 0.3f;
    const glm::vec3 q(0.4f, -0.3f, 0.0f);
    const glm::vec3 before = project(z, q, 300, 200);
    z.zoom(0.5f, q);
    CHECK(z.distance == doctest::Approx(1.5f));
    const glm::vec3 after = project(z, q, 300, 200);
    CHECK(after.x == doctest::Approx(before.x).epsilon(1e-3));
    CHECK(after.y == doctest::Approx(before.y).epsilon(1e-3));
    // a pan of (dx, dy) pixels moves the content under the cursor by (dx, dy) (target plane)
    const glm::vec3 t0 = project(z, z.target, 300, 200);
    const glm::vec3 oldTarget = z.target;
    z.pan(30.0f, -20.0f, 200.0f);
    const glm::vec3 t1 = project(z, oldTarget, 300, 200);
    CHECK(t1.x - t0.x == doctest::Approx(30.0f).epsilon(1e-3));
    CHECK(t1.y - t0.y == doctest::Approx(-20.0f).epsilon(1e-3));
  }
}

// ============================== CPU: strain colours ==============================

TEST_CASE("render: strainColor is grey at rest, red stretched, blue compressed, clamped") {
  const float scale = 0.05f;
  const glm::vec3 rest = render::strainColor(0.0f, scale);
  CHECK(std::abs(rest.r - rest.b) < 0.05f);
  CHECK(std::abs(rest.r - rest.g) < 0.05f);
  CHECK(rest.r > 0.5f);  // light grey
  const glm::vec3 red = render::strainColor(scale, scale);
  const glm::vec3 blue = render::strainColor(-scale, scale);
  CHECK(red.r > 0.8f);
  CHECK(red.b < 0.2f);
  CHECK(red.g < 0.2f);
  CHECK(blue.b > 0.8f);
  CHECK(blue.r < 0.2f);
  // monotone: redness (r - b) grows with strain over the whole range
  float last = -10.0f;
  for (int i = -40; i <= 40; ++i) {
    const float s = 2.0f * scale * static_cast<float>(i) / 40.0f;
    const glm::vec3 c = render::strainColor(s, scale);
    CHECK(c.r - c.b >= last - 1e-6f);
    last = c.r - c.b;
    CHECK(c.r >= 0.0f);
    CHECK(c.b <= 1.0f);
  }
  // clamped beyond the scale
  CHECK(render::strainColor(10.0f * scale, scale) == red);
  CHECK(render::strainColor(-10.0f * scale, scale) == blue);
  // odd inputs stay finite
  const glm::vec3 nanColor = render::strainColor(std::nanf(""), scale);
  CHECK(std::isfinite(nanColor.r));
  CHECK(std::isfinite(render::strainColor(0.1f, 0.0f).r));
  CHECK(render::strainColor(0.1f, 0.0f) == red);
}

// ============================== GL: pixels ==============================

TEST_CASE("render: the spring shader draws strainColor's colours") {
  REQUIRE_GL();
  render::DrawOptions o = bareOptions();
  o.show_points = false;
  const render::Camera cam = frontCamera();
  const glm::ivec3 bg = toBytes(o.background);
  for (const float scale : {0.05f, 0.0f}) {  // 0: only the sign counts
    CAPTURE(scale);
    o.strain_scale = scale;
    const float s = scale > 0.0f ? scale : 1.0f;
    const std::vector<float> strains = {-s, -s / 2, 0.0f, s / 2, s, 2 * s, std::nanf("")};
    TestScene t;
    for (size_t i = 0; i < strains.size(); ++i) {
      const float y = 0.8f - 0.25f * static_cast<float>(i);
      t.line(t.point({-1.0f, y, 0.0f}), t.point({1.0f, y, 0.0f}), strains[i]);
    }
    const Image img = renderScene(t, cam, o);
    if (scale > 0.0f) maybeSave("strain_colours", img);
    for (size_t i = 0; i < strains.size(); ++i) {
      CAPTURE(strains[i]);
      const float y = 0.8f - 0.25f * static_cast<float>(i);
      const glm::ivec3 want = toBytes(render::strainColor(strains[i], scale));
      // the line's pixels are the fragment colour itself (single-sampled, not blended)
      for (const float x : {-0.5f, 0.0f, 0.5f}) {
        const glm::ivec3 got = img.strongest(project(cam, {x, y, 0.0f}, 200, 150), bg);
        CAPTURE(got);
        CAPTURE(want);
        CHECK(near(got, want, 2));  // 1/255 of float difference, plus rounding
      }
    }
  }
}

TEST_CASE("render: a particle is drawn where its centre projects, background elsewhere") {
  REQUIRE_GL();
  MESSAGE("context: " << gl().context.description());
  TestScene s;
  const glm::vec3 centre(0.4f, 0.3f, 0.0f);
  s.point(centre, 0.12f);
  const render::Camera cam = frontCamera();
  const render::DrawOptions o = bareOptions();
  const glm::ivec3 bg = toBytes(o.background);
  for (int samples : {1, 4}) {
    CAPTURE(samples);
    const Image img = renderScene(s, cam, o, 200, 150, samples);
    if (samples == 4) maybeSave("particle", img);
    const glm::vec3 px = project(cam, centre, 200, 150);
    CHECK(px.y < 75.0f);  // above the middle: read() is top row first
    const glm::ivec3 c = img.at(px);
    CHECK_FALSE(near(c, bg, 10));
    CHECK(c.r > c.b + 60);  // the warm particle colour
    CHECK(c.r > 150);
    // shaded: the rim is darker than the lit centre region
    const float rpx = 0.12f * 150.0f / (2.0f * 3.0f * std::tan(0.5f * cam.fov_y));
    const glm::ivec3 rim = img.at(static_cast<int>(px.x + 0.9f * rpx), static_cast<int>(px.y));
    CHECK(rim.r < c.r);
    // background far from it and just outside the disc
    CHECK(near(img.at(5, 145), backgroundAt(o, 145, 150)));
    CHECK(near(img.at(static_cast<int>(px.x - 1.4f * rpx), static_cast<int>(px.y)),
               backgroundAt(o, static_cast<int>(px.y), 150), 6));
  }
}

TEST_CASE("render: sphere impostors write their depth (a line through a sphere is hidden)") {
  REQUIRE_GL();
  TestScene s;
  s.point({0.0f, 0.0f, 0.0f}, 0.3f);
  // a rigid line at z = 0.2: behind the sphere's front surface (z = 0.3) at the centre, but in
  // front of its centre; flat sprites would let it show through
  const auto a = s.point({-1.0f, 0.0f, 0.2f}, 0.01f), b = s.point({1.0f, 0.0f, 0.2f}, 0.01f);
  s.line(a, b, 0.0f, render::kLineRigid);
  render::DrawOptions o = bareOptions();
  const render::Camera cam = frontCamera();
  const Image img = renderScene(s, cam, o);
  maybeSave("depth", img);
  const glm::ivec3 centre = img.at(project(cam, {0.0f, 0.0f, 0.3f}, 200, 150));
  CHECK(centre.r > centre.b + 60);  // the sphere, not the grey line
  const glm::ivec3 bg = toBytes(o.background);
  const glm::ivec3 outside = img.strongest(project(cam, {0.7f, 0.0f, 0.2f}, 200, 150), bg);
  CHECK(std::abs(outside.r - outside.b) < 30);  // the grey line beside the sphere
  CHECK(outside.r > 150);
}

TEST_CASE("render: springs are red when stretched, blue when compressed") {
  REQUIRE_GL();
  TestScene s;
  const float scale = 0.05f;
  const auto a0 = s.point({-1.0f, 0.5f, 0.0f}), a1 = s.point({1.0f, 0.5f, 0.0f});
  const auto b0 = s.point({-1.0f, -0.5f, 0.0f}), b1 = s.point({1.0f, -0.5f, 0.0f});
  const auto c0 = s.point({-1.0f, 0.0f, 0.0f}), c1 = s.point({1.0f, 0.0f, 0.0f});
  const auto d0 = s.point({-1.0f, -0.9f, 0.0f}), d1 = s.point({1.0f, -0.9f, 0.0f});
  s.line(a0, a1, scale);   // stretched by the full scale
  s.line(b0, b1, -scale);  // compressed by the full scale
  s.line(c0, c1, 0.0f);    // at rest
  s.line(d0, d1, 0.0f, render::kLineHighlight);
  render::DrawOptions o = bareOptions();
  o.strain_scale = scale;
  o.show_points = false;
  const render::Camera cam = frontCamera();
  const glm::ivec3 bg = toBytes(o.background);
  for (int samples : {1, 4}) {
    CAPTURE(samples);
    const Image img = renderScene(s, cam, o, 200, 150, samples);
    if (samples == 4) maybeSave("springs", img);
    const glm::ivec3 red = img.strongest(project(cam, {0.0f, 0.5f, 0.0f}, 200, 150), bg);
    const glm::ivec3 blue = img.strongest(project(cam, {0.0f, -0.5f, 0.0f}, 200, 150), bg);
    const glm::ivec3 grey = img.strongest(project(cam, {0.0f, 0.0f, 0.0f}, 200, 150), bg);
    const glm::ivec3 magenta = img.strongest(project(cam, {0.0f, -0.9f, 0.0f}, 200, 150), bg);
    CAPTURE(red);
    CAPTURE(blue);
    CAPTURE(grey);
    CAPTURE(magenta);
    CHECK(red.r > red.b + 100);
    CHECK(red.r > red.g + 100);
    CHECK(blue.b > blue.r + 100);
    CHECK(std::abs(grey.r - grey.b) < 25);
    CHECK(grey.r > 100);
    CHECK(magenta.r > 150);
    CHECK(magenta.b > 150);
    CHECK(magenta.g < 100);
    // background between the lines
    CHECK(near(img.at(project(cam, {0.0f, 0.25f, 0.0f}, 200, 150)), bg));
  }
}

TEST_CASE("render: a cloth covers its region, lit on both sides") {
  REQUIRE_GL();
  TestScene s;
  // a 4 x 4 grid of quads in z = 0 spanning [-0.6, 0.6]^2, counter-clockwise seen from +z
  const int n = 5;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      s.point({-0.6f + 1.2f * i / (n - 1), -0.6f + 1.2f * j / (n - 1), 0.0f}, 0.02f);
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const std::uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      s.triangle(a, b, d);
      s.triangle(a, d, c);
    }
  render::DrawOptions o = bareOptions();
  o.show_points = false;
  const glm::ivec3 bg = toBytes(o.background);
  render::Camera cam = frontCamera();
  const Image front = renderScene(s, cam, o);
  maybeSave("cloth_front", front);
  cam.yaw = kPi;  // from behind
  const Image back = renderScene(s, cam, o);
  maybeSave("cloth_back", back);
  for (const Image* img : {&front, &back}) {
    for (const glm::vec3 p :
         {glm::vec3(0.0f), glm::vec3(0.45f, 0.4f, 0.0f), glm::vec3(-0.5f, -0.5f, 0.0f)}) {
      const glm::ivec3 c = img->at(project(cam, p, 200, 150));
      CAPTURE(c);
      CHECK_FALSE(near(c, bg, 20));
      CHECK(c.r + c.g + c.b > 200);  // lit, not black
    }
    for (const glm::vec3 outside : {glm::vec3(0.8f, 0.0f, 0.0f), glm::vec3(0.0f, 0.75f, 0.0f)}) {
      const glm::vec3 px = project(cam, outside, 200, 150);
      CHECK(near(img->at(px), backgroundAt(o, static_cast<int>(px.y), 150)));
    }
    CHECK(near(img->at(3, 3), backgroundAt(o, 3, 150)));
  }
  // front and back faces have different colours (cool front, warm back)
  cam.yaw = 0.0f;
  const glm::ivec3 f = front.at(project(cam, {0.0f, 0.0f, 0.0f}, 200, 150));
  const glm::ivec3 b = back.at(project(cam, {0.0f, 0.0f, 0.0f}, 200, 150));
  CHECK(f.b > f.r);
  CHECK(b.r > b.b);

  // the wireframe overlay darkens the triangle edges
  o.wireframe = true;
  const Image wire = renderScene(s, cam, o);
  maybeSave("cloth_wire", wire);
  const glm::ivec3 edgeSolid = front.at(project(cam, {0.0f, -0.3f, 0.0f}, 200, 150));
  const glm::ivec3 edgeWire =
      wire.strongest(project(cam, {0.0f, -0.3f, 0.0f}, 200, 150), edgeSolid);
  CHECK(edgeWire.r + edgeWire.g + edgeWire.b < edgeSolid.r + edgeSolid.g + edgeSolid.b - 60);
}

// The pixels' distance from the background at the centres of a sheet's four quarters
// (left-top, right-top, left-bottom, right-bottom), as drawn from `cam`.
std::array<bool, 4> quartersDrawn(const TestScene& s, const render::Camera& cam,
                                  const render::DrawOptions& o) {
  const Image img = renderScene(s, cam, o);
  std::array<bool, 4> drawn{};
  for (int q = 0; q < 4; ++q) {
    const glm::vec3 at(q % 2 ? 0.3f : -0.3f, q < 2 ? 0.3f : -0.3f, 0.0f);
    const glm::vec3 px = project(cam, at, 200, 150);
    drawn[size_t(q)] = !near(img.at(px), backgroundAt(o, static_cast<int>(px.y), 150), 12);
  }
  return drawn;
}

TEST_CASE("render: a fine surface seen from afar is drawn at the level whose cells fit 2.5 px") {
  REQUIRE_GL();
  // a 128 x 128-cell sheet of 1.2 m in z = 0; its "levels" are markers, not coarse meshes: level
  // 0 is the left half, level 1 the top half, so the pixels tell which one was drawn
  TestScene s;
  const int n = 129;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      s.point({-0.6f + 1.2f * i / (n - 1), 0.6f - 1.2f * j / (n - 1), 0.0f}, 0.001f);
  std::vector<std::uint32_t> left, top;
  for (int j = 0; j + 1 < n; ++j)
    for (int i = 0; i + 1 < n; ++i) {
      const std::uint32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
      for (auto* mesh : {&s.triangles, i < n / 2 ? &left : nullptr, j < n / 2 ? &top : nullptr})
        if (mesh) mesh->insert(mesh->end(), {a, c, d, a, d, b});
    }
  s.levels = {left, top};
  render::DrawOptions o = bareOptions();
  o.show_points = false;
  // a cell's on-screen size at a camera distance (square pixels: the vertical one)
  auto cellPixels = [&](float distance) {
    const render::Camera c = frontCamera(distance);
    return glm::length(glm::vec2(project(c, {0.0f, 0.0f, 0.0f}, 200, 150)) -
                       glm::vec2(project(c, {0.0f, 1.2f / (n - 1), 0.0f}, 200, 150)));
  };
  // distances at which a cell is 2, 1 and 0.5 pixels, and 1.4 (between 2.5/2 and 3/2)
  const float unit = cellPixels(1.0f);  // pixels * distance
  const float near2 = unit / 2.0f, mid1 = unit / 1.0f, far05 = unit / 0.5f, band = unit / 1.4f;
  REQUIRE(cellPixels(far05) == doctest::Approx(0.5f).epsilon(1e-3));
  using Q = std::array<bool, 4>;
  CHECK(quartersDrawn(s, frontCamera(near2), o) == Q{true, true, true, true});    // 4 px > 2.5
  CHECK(quartersDrawn(s, frontCamera(mid1), o) == Q{true, false, true, false});   // level 0
  CHECK(quartersDrawn(s, frontCamera(far05), o) == Q{true, true, false, false});  // level 1
  CHECK(quartersDrawn(s, frontCamera(band), o) == Q{true, true, true, true});     // 2.8 > 2.5
  // one topology over frames: a level drawn is kept while its cells stay within 3 px
  s.topology = 77;
  CHECK(quartersDrawn(s, frontCamera(mid1), o) == Q{true, false, true, false});
  CHECK(quartersDrawn(s, frontCamera(band), o) == Q{true, false, true, false});  // 2.8 <= 3
  CHECK(quartersDrawn(s, frontCamera(near2), o) == Q{true, true, true, true});
  CHECK(quartersDrawn(s, frontCamera(band), o) == Q{true, true, true, true});
  // the wireframe shows the whole surface's edges whatever the distance (dark lines: over a
  // light background)
  s.topology = 0;
  o.show_surface = false, o.wireframe = true;
  o.background = glm::vec3(0.9f), o.background_gradient = 0.0f;
  CHECK(quartersDrawn(s, frontCamera(mid1), o) == Q{true, true, true, true});
}

TEST_CASE("render: fixed, highlighted and grabbed points have their own colours") {
  REQUIRE_GL();
  TestScene s;
  const glm::vec3 pm(-0.9f, 0.0f, 0.0f), pf(-0.3f, 0.0f, 0.0f), ph(0.3f, 0.0f, 0.0f),
      pg(0.9f, 0.0f, 0.0f);
  s.point(pm, 0.15f);
  s.point(pf, 0.15f, render::kPointFixed);
  s.point(ph, 0.15f, render::kPointHighlight);
  s.point(pg, 0.15f, render::kPointGrabbed);
  const render::Camera cam = frontCamera();
  const render::DrawOptions o = bareOptions();
  const Image img = renderScene(s, cam, o, 240, 120);
  maybeSave("flags", img);
  const glm::ivec3 moving = img.at(project(cam, pm, 240, 120));
  const glm::ivec3 fixed = img.at(project(cam, pf, 240, 120));
  const glm::ivec3 high = img.at(project(cam, ph, 240, 120));
  const glm::ivec3 grab = img.at(project(cam, pg, 240, 120));
  CAPTURE(moving);
  CAPTURE(fixed);
  CAPTURE(high);
  CAPTURE(grab);
  const glm::ivec3 bg = toBytes(o.background);
  // fixed: a dark grey pin, neither the moving colour nor the background
  CHECK(std::max({fixed.r, fixed.g, fixed.b}) < 120);
  CHECK(std::abs(fixed.r - fixed.b) < 20);
  CHECK_FALSE(near(fixed, bg, 12));
  CHECK(moving.r > fixed.r + 80);
  CHECK(high.r > 180);
  CHECK(high.b > 180);
  CHECK(high.g < 90);
  CHECK(grab.r > 180);
  CHECK(grab.g > 180);
  CHECK(grab.b < 90);
  // the pin's light rim sets it apart
  const float rpx = 0.15f * 120.0f / (2.0f * 3.0f * std::tan(0.5f * cam.fov_y));
  const glm::vec3 c = project(cam, pf, 240, 120);
  const glm::ivec3 rim = img.at(static_cast<int>(c.x + 0.78f * rpx), static_cast<int>(c.y));
  CHECK(rim.r > fixed.r + 60);
}

TEST_CASE("render: draw does not clear: scenes drawn into one target all show") {
  REQUIRE_GL();
  const int width = 200, height = 150;
  render::Framebuffer fb;
  const util::Problem err = fb.resize(width, height, 1);
  REQUIRE_MESSAGE(!err, err.value_or(""));
  fb.bind();
  render::DrawOptions o = bareOptions();
  o.background = {0.2f, 0.5f, 0.3f};  // a colour no scene draws
  const glm::ivec3 bg = toBytes(o.background);
  const render::Camera cam = frontCamera();
  TestScene a, b;
  const glm::vec3 pa(-0.6f, 0.2f, 0.0f), pb(0.6f, -0.2f, 0.0f);
  a.point(pa, 0.12f);
  a.topology = 101;
  b.point(pb, 0.12f, render::kPointHighlight);
  b.topology = 102;
  gl().renderer->clear(o, width, height);
  gl().renderer->draw(a.view(), cam, o, width, height);
  gl().renderer->draw(b.view(), cam, o, width, height);
  const Image both = readImage(fb);
  maybeSave("two_scenes", both);
  const glm::ivec3 ca = both.at(project(cam, pa, width, height));
  const glm::ivec3 cb = both.at(project(cam, pb, width, height));
  CAPTURE(ca);
  CAPTURE(cb);
  CHECK(ca.r > ca.b + 60);  // the first scene's particle survived the second draw
  CHECK(cb.r > 180);        // the second's, highlighted magenta
  CHECK(cb.b > 180);
  CHECK(near(both.at(5, 5), backgroundAt(o, 5, height)));  // the clear colour around them
  CHECK(near(both.at(width / 2, height / 2), bg));

  // overlaid scenes depth-test against each other: b's particle, behind a's, stays hidden ...
  b.positions = {pa.x, pa.y, -0.5f};
  b.topology = 103;
  gl().renderer->clear(o, width, height);
  gl().renderer->draw(a.view(), cam, o, width, height);
  gl().renderer->draw(b.view(), cam, o, width, height);
  const glm::ivec3 hidden = readImage(fb).at(project(cam, pa, width, height));
  CAPTURE(hidden);
  CHECK(hidden.g > 100);  // orange, not magenta
  // ... unless its draw clears the depth of its viewport first
  render::DrawOptions over = o;
  over.clear_depth = true;
  gl().renderer->draw(b.view(), cam, over, width, height);
  const glm::ivec3 shown = readImage(fb).at(project(cam, pa, width, height));
  CAPTURE(shown);
  CHECK(shown.g < 90);  // magenta
  CHECK(shown.b > 150);

  // a viewport: clear fills the whole target (the panel's area too), draw only its viewport
  render::DrawOptions right = o;
  right.viewport_x = width / 2;
  right.viewport_width = width / 2;
  right.background = {0.6f, 0.1f, 0.1f};
  gl().renderer->clear(right, width, height);
  TestScene wide;  // a particle wider than the right half: clipped at the viewport's edge
  wide.point({0.0f, 0.0f, 0.0f}, 1.2f);
  wide.topology = 104;
  gl().renderer->draw(wide.view(), cam, right, width, height);
  const Image half = readImage(fb);
  maybeSave("viewport", half);
  CHECK(near(half.at(width / 4, height / 2), toBytes(right.background)));
  CHECK(near(half.at(5, 5), backgroundAt(right, 5, height)));
  const glm::ivec3 inside = half.at(3 * width / 4, height / 2);
  CAPTURE(inside);
  CHECK(inside.r > inside.b + 60);
}

TEST_CASE("render: one topology, several frames: flag changes recolour, positions move") {
  REQUIRE_GL();
  TestScene s;
  s.topology = 201;  // the same in every frame: radii and index buffers are not uploaded again
  const glm::vec3 p0(-0.5f, 0.0f, 0.0f), p1(0.5f, 0.0f, 0.0f);
  s.point(p0, 0.15f);
  s.point(p1, 0.15f);
  s.line(0, 1, 0.0f);
  const render::Camera cam = frontCamera();
  const render::DrawOptions o = bareOptions();
  const glm::ivec3 bg = toBytes(o.background);
  const auto at = [&](const Image& img, const glm::vec3& p) {
    return img.at(project(cam, p, 200, 150));
  };
  const auto lineAt = [&](const Image& img, const glm::vec3& p) {
    return img.strongest(project(cam, p, 200, 150), bg);
  };
  const auto isOrange = [](const glm::ivec3& c) { return c.r > c.b + 60 && c.g > 100; };
  const auto isMagenta = [](const glm::ivec3& c) { return c.r > 150 && c.b > 150 && c.g < 90; };
  const auto isYellow = [](const glm::ivec3& c) { return c.r > 180 && c.g > 180 && c.b < 90; };
  const auto isGrey = [](const glm::ivec3& c) { return std::abs(c.r - c.b) < 25 && c.r > 100; };

  const Image plain = renderScene(s, cam, o);
  CHECK(isOrange(at(plain, p0)));
  CHECK(isGrey(lineAt(plain, {0.0f, 0.0f, 0.0f})));
  // the divergence culprit appears: the point and its spring turn magenta
  s.flags[0] = render::kPointHighlight;
  s.line_flags[0] = render::kLineHighlight;
  const Image culprit = renderScene(s, cam, o);
  CHECK(isMagenta(at(culprit, p0)));
  CHECK(isOrange(at(culprit, p1)));
  CHECK(isMagenta(lineAt(culprit, {0.0f, 0.0f, 0.0f})));
  // the mouse grabs it instead
  s.flags[0] = render::kPointGrabbed;
  s.line_flags[0] = 0;
  const Image grabbed = renderScene(s, cam, o);
  CHECK(isYellow(at(grabbed, p0)));
  CHECK(isGrey(lineAt(grabbed, {0.0f, 0.0f, 0.0f})));
  // and lets go
  s.flags[0] = 0;
  const Image released = renderScene(s, cam, o);
  CHECK(isOrange(at(released, p0)));
  CHECK(released.rgba == plain.rgba);

  // positions alone move the point and its spring
  const glm::vec3 moved(-0.5f, 0.45f, 0.0f);
  s.positions[1] = moved.y;
  const Image after = renderScene(s, cam, o);
  CHECK(isOrange(at(after, moved)));
  CHECK(near(at(after, p0), bg));
  CHECK(isGrey(lineAt(after, 0.5f * (moved + p1))));
  CHECK(near(at(after, {0.0f, 0.0f, 0.0f}), bg));  // where the spring was
}

TEST_CASE("render: trails fade from old to new") {
  REQUIRE_GL();
  TestScene s;
  // one trail: a horizontal line from x = -0.9 (oldest) to x = 0.9 (newest), 60 vertices
  const int len = 60;
  for (int i = 0; i < len; ++i) {
    const float x = -0.9f + 1.8f * i / (len - 1);
    s.trails.insert(s.trails.end(), {x, 0.2f, 0.0f});
  }
  s.trail_lengths.push_back(len);
  // a second, shorter one
  for (int i = 0; i < 10; ++i) s.trails.insert(s.trails.end(), {0.1f * i - 0.5f, -0.4f, 0.0f});
  s.trail_lengths.push_back(10);
  render::DrawOptions o = bareOptions();
  const render::Camera cam = frontCamera();
  const glm::ivec3 bg = toBytes(o.background);
  const Image img = renderScene(s, cam, o);
  maybeSave("trails", img);
  const auto contrast = [&](const glm::ivec3& c) {
    const glm::ivec3 d = glm::abs(c - bg);
    return d.x + d.y + d.z;
  };
  const int newest = contrast(img.strongest(project(cam, {0.85f, 0.2f, 0.0f}, 200, 150), bg));
  const int middle = contrast(img.strongest(project(cam, {0.0f, 0.2f, 0.0f}, 200, 150), bg));
  const int oldest = contrast(img.strongest(project(cam, {-0.85f, 0.2f, 0.0f}, 200, 150), bg));
  CHECK(newest > 200);
  CHECK(newest > middle);
  CHECK(middle > oldest);
  CHECK(contrast(img.strongest(project(cam, {0.35f, -0.4f, 0.0f}, 200, 150), bg)) > 100);
  o.show_trails = false;
  const Image off = renderScene(s, cam, o);
  CHECK(near(off.at(project(cam, {0.85f, 0.2f, 0.0f}, 200, 150)), bg));
}

TEST_CASE("render: the wind's streaks brighten from tail to head, and can be switched off") {
  REQUIRE_GL();
  TestScene s;
  // one streak from x = -0.9 (its tail, alpha 0) to x = 0.9 (its head, alpha 1)
  s.wind = {-0.9f, 0.1f, 0.0f, 0.0f, 0.9f, 0.1f, 0.0f, 1.0f};
  render::DrawOptions o = bareOptions();
  const render::Camera cam = frontCamera();
  const glm::ivec3 bg = toBytes(o.background);
  const Image img = renderScene(s, cam, o);
  maybeSave("wind", img);
  const auto contrast = [&](float x) {
    const glm::ivec3 d = glm::abs(img.strongest(project(cam, {x, 0.1f, 0.0f}, 200, 150), bg) - bg);
    return d.x + d.y + d.z;
  };
  CHECK(contrast(0.85f) > 200);
  CHECK(contrast(0.85f) > contrast(0.0f));
  CHECK(contrast(0.0f) > contrast(-0.8f));
  // a pale blue-white: blue strongest, red weakest
  const glm::ivec3 head = img.strongest(project(cam, {0.85f, 0.1f, 0.0f}, 200, 150), bg);
  CHECK(head.z >= head.y);
  CHECK(head.y >= head.x);
  o.show_wind = false;
  const Image off = renderScene(s, cam, o);
  CHECK(near(off.at(project(cam, {0.85f, 0.1f, 0.0f}, 200, 150)), bg));
  // a ghosted lane does not draw the air a second time
  o.show_wind = true, o.opacity = 0.5f;
  const Image ghost = renderScene(s, cam, o);
  CHECK(near(ghost.at(project(cam, {0.85f, 0.1f, 0.0f}, 200, 150)), bg));
}

TEST_CASE("render: grid and axes draw under the scene and can be switched off") {
  REQUIRE_GL();
  TestScene s;
  s.point({0.0f, 1.0f, 0.0f}, 0.05f);
  s.point({1.0f, 1.5f, 0.5f}, 0.05f);
  render::Camera cam;
  cam.frame({-1.0f, 0.0f, -1.0f}, {1.0f, 1.5f, 1.0f});
  render::DrawOptions o;  // grid and axes on
  const Image with = renderScene(s, cam, o);
  maybeSave("grid", with);
  o.show_grid = o.show_axes = false;
  const Image without = renderScene(s, cam, o);
  int changed = 0;
  for (size_t i = 0; i < with.rgba.size(); ++i) changed += with.rgba[i] != without.rgba[i];
  CHECK(changed > 200);
  // the red x axis starts at the origin
  const glm::ivec3 bg = toBytes(o.background);
  const glm::ivec3 x = with.strongest(project(cam, {0.05f, 0.0f, 0.0f}, 200, 150), bg);
  CAPTURE(x);
  CHECK(x.r > x.g + 60);
  // planar: the grid lies behind the scene in the x-y plane
  s.planar = true;
  s.topology = 2;
  cam.planar = true;
  cam.frame({-1.0f, 0.0f, 0.0f}, {1.0f, 1.5f, 0.0f});
  o.show_grid = true;
  const Image planar = renderScene(s, cam, o);
  maybeSave("grid_planar", planar);
  int gridPixels = 0;
  for (int y = 0; y < planar.height; ++y)
    for (int xx = 0; xx < planar.width; ++xx) gridPixels += !near(planar.at(xx, y), bg, 2);
  CHECK(gridPixels > 500);
}

TEST_CASE("render: topology and count changes, bad indices and empty views are safe") {
  REQUIRE_GL();
  const render::Camera cam = frontCamera();
  const render::DrawOptions o = bareOptions();
  const glm::ivec3 bg = toBytes(o.background);
  // empty
  const Image empty = renderScene(TestScene{}, cam, o);
  CHECK(near(empty.at(100, 75), bg));
  // one triangle, then a different one with the same topology id but other counts
  TestScene a;
  a.topology = 6;
  a.point({-0.5f, -0.5f, 0.0f}), a.point({0.5f, -0.5f, 0.0f}), a.point({0.0f, 0.5f, 0.0f});
  a.triangle(0, 1, 2);
  TestScene b = a;
  b.point({-0.5f, 0.6f, 0.0f});
  b.triangle(0, 2, 3);
  const Image ia = renderScene(a, cam, o);
  const Image ib = renderScene(b, cam, o);
  const glm::vec3 left = project(cam, {-0.4f, 0.3f, 0.0f}, 200, 150);
  CHECK(near(ia.at(left), bg));
  CHECK_FALSE(near(ib.at(left), bg, 20));
  // out-of-range indices are dropped, not read
  TestScene bad = a;
  bad.topology = 7;
  bad.triangle(0, 1, 99);
  bad.line(0, 1000, 0.0f);
  const Image ibad = renderScene(bad, cam, o);
  CHECK_FALSE(near(ibad.at(project(cam, {0.0f, -0.2f, 0.0f}, 200, 150)), bg, 20));
  // missing optional arrays: default radius, no flags, no strain
  TestScene bare = a;
  bare.radii.clear();
  bare.flags.clear();
  bare.strain.clear();
  bare.line_flags.clear();
  bare.line(0, 1, 0.0f);
  bare.strain.clear();
  bare.line_flags.clear();
  bare.topology = 8;
  renderScene(bare, cam, o);
  // non-finite positions do not break the frame
  TestScene nan = a;
  nan.positions[0] = std::nanf("");
  nan.topology = 9;
  renderScene(nan, cam, o);
}

TEST_CASE("render: writePng round-trips the framebuffer and fails clearly on a bad path") {
  REQUIRE_GL();
  TestScene s;
  s.point({0.0f, 0.0f, 0.0f}, 0.2f, 0);
  const auto p0 = s.point({-0.8f, -0.5f, 0.0f}, 0.05f, render::kPointFixed);
  const auto p1 = s.point({0.8f, 0.5f, 0.0f}, 0.05f);
  s.line(p0, p1, 0.03f);
  const render::Camera cam = frontCamera();
  render::DrawOptions o;
  const Image img = renderScene(s, cam, o, 160, 90, 4);
  const std::filesystem::path path = testutil::tempDir() / "render_roundtrip.png";
  util::Problem err = render::writePng(path.string(), img.width, img.height, img.rgba);
  REQUIRE_MESSAGE(!err, err.value_or(""));
  CHECK_FALSE(std::filesystem::exists(path.string() + ".tmp"));
  int w = 0, h = 0, comp = 0;
  unsigned char* data = stbi_load(path.string().c_str(), &w, &h, &comp, 4);
  REQUIRE(data != nullptr);
  CHECK(w == 160);
  CHECK(h == 90);
  const std::vector<unsigned char> decoded(data, data + static_cast<size_t>(w) * h * 4);
  stbi_image_free(data);
  CHECK(decoded == img.rgba);  // lossless, same row order
  // not blank: many distinct colours, opaque
  std::vector<std::uint32_t> colours;
  bool opaque = true;
  for (size_t i = 0; i < decoded.size(); i += 4) {
    colours.push_back(decoded[i] | decoded[i + 1] << 8 | decoded[i + 2] << 16);
    opaque = opaque && decoded[i + 3] == 255;
  }
  std::sort(colours.begin(), colours.end());
  colours.erase(std::unique(colours.begin(), colours.end()), colours.end());
  CHECK(colours.size() > 20);
  CHECK(opaque);

  const std::string bad = "/nonexistent-springlab-dir/sub/out.png";
  err = render::writePng(bad, img.width, img.height, img.rgba);
  CHECK(err.has_value());
  CHECK(err.value_or("").find(bad) != std::string::npos);
  err = render::writePng(path.string(), 1000, 1000, img.rgba);  // too few pixels
  CHECK(err.has_value());
  CHECK(err.value_or("").find(path.string()) != std::string::npos);
}

TEST_CASE("render: framebuffer sizes, sample clamping and errors") {
  REQUIRE_GL();
  render::Framebuffer fb;
  util::Problem err = fb.resize(0, 10, 1);
  CHECK(err.has_value());
  CHECK_FALSE(err.value_or("").empty());
  err = fb.resize(64, 32, 1000);  // samples clamped to GL_MAX_SAMPLES
  REQUIRE_MESSAGE(!err, err.value_or(""));
  CHECK(fb.width() == 64);
  CHECK(fb.height() == 32);
  err = fb.resize(33, 17, 1);  // odd sizes
  REQUIRE_MESSAGE(!err, err.value_or(""));
  fb.bind();
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  std::vector<unsigned char> px;
  fb.read(px);
  REQUIRE(px.size() == 33u * 17u * 4u);
  CHECK(px[0] == 255);
  CHECK(px[1] == 0);
  CHECK(px[px.size() - 1] == 255);
}

TEST_CASE("render: a large cloth (65 536 points, 390 000 springs, 130 000 triangles) draws") {
  REQUIRE_GL();
  // a 256 x 256 cloth with structural, shear and bending springs, hanging in front of the camera
  TestScene s;
  const int n = 256;
  const float size = 2.0f, h = size / (n - 1);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const float x = -1.0f + i * h, y = 1.0f - j * h;
      s.point({x, y, 0.15f * std::sin(3.0f * x) * std::cos(2.0f * y)}, 0.3f * h,
              j == 0 && (i == 0 || i == n - 1) ? render::kPointFixed : 0);
    }
  const auto id = [&](int i, int j) { return static_cast<std::uint32_t>(j * n + i); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const float st = 0.04f * std::sin(0.05f * (i + 2 * j));
      if (i + 1 < n) s.line(id(i, j), id(i + 1, j), st);
      if (j + 1 < n) s.line(id(i, j), id(i, j + 1), -st);
      if (i + 1 < n && j + 1 < n) s.line(id(i, j), id(i + 1, j + 1), st * 0.5f);
      if (i + 1 < n && j + 1 < n) s.line(id(i + 1, j), id(i, j + 1), -st * 0.5f);
      if (i + 2 < n) s.line(id(i, j), id(i + 2, j), 0.0f);
      if (j + 2 < n) s.line(id(i, j), id(i, j + 2), 0.0f);
      if (i + 1 < n && j + 1 < n) {
        s.triangle(id(i, j), id(i, j + 1), id(i + 1, j + 1));
        s.triangle(id(i, j), id(i + 1, j + 1), id(i + 1, j));
      }
    }
  CHECK(s.radii.size() == 65536u);
  CHECK(s.strain.size() > 390000u);
  CHECK(s.triangles.size() / 3 == 130050u);
  render::Camera cam;
  cam.yaw = 0.5f;
  cam.pitch = 0.35f;
  cam.frame({-1.0f, -1.0f, -0.2f}, {1.0f, 1.0f, 0.2f});
  render::DrawOptions o;
  const int width = 1280, height = 720;
  render::Framebuffer fb;
  const util::Problem err = fb.resize(width, height, 1);
  REQUIRE_MESSAGE(!err, err.value_or(""));
  fb.bind();
  const render::SceneView view = s.view();
  const auto frame = [&](const render::DrawOptions& options) {
    gl().renderer->clear(options, width, height);
    gl().renderer->draw(view, cam, options, width, height);
  };
  frame(o);  // warm-up: the topology upload
  glFinish();
  const int frames = 3;
  const auto t0 = std::chrono::steady_clock::now();
  for (int f = 0; f < frames; ++f) frame(o);
  glFinish();
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() /
      frames;
  MESSAGE("65536 points + " << s.strain.size() << " lines + " << s.triangles.size() / 3
                            << " triangles at 1280x720: " << ms << " ms per draw ("
                            << gl().context.description() << ")");
  Image img;
  fb.read(img.rgba);
  img.width = width;
  img.height = height;
  maybeSave("large", img);
  // the share of each kind (each alone, grid and axes off)
  const auto timeOnly = [&](bool points, bool lines, bool surface) {
    render::DrawOptions only = o;
    only.show_points = points, only.show_lines = lines, only.show_surface = surface;
    only.show_grid = only.show_axes = false;
    const auto start = std::chrono::steady_clock::now();
    for (int f = 0; f < frames; ++f) frame(only);
    glFinish();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
               .count() /
           frames;
  };
  MESSAGE("alone: points " << timeOnly(true, false, false) << " ms, lines "
                           << timeOnly(false, true, false) << " ms, surface "
                           << timeOnly(false, false, true) << " ms");
  CHECK(glGetError() == GL_NO_ERROR);
  CHECK_FALSE(
      near(img.at(project(cam, {0.0f, 0.0f, 0.0f}, width, height)), toBytes(o.background), 10));
}

TEST_CASE("render: a composite scene (cloth, springs, pendulum, trails) for the eye") {
  REQUIRE_GL();
  TestScene s;
  // a small cloth hanging from two fixed corners, its springs stretched near the top
  const int n = 9;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const float x = -0.6f + 1.2f * i / (n - 1), y = 1.2f - 1.2f * j / (n - 1);
      const float z = 0.25f * std::sin(3.5f * x + 1.5f * y);
      std::uint8_t f = (j == 0 && (i == 0 || i == n - 1)) ? render::kPointFixed : 0;
      if (j == n - 1 && i == n / 2) f = render::kPointGrabbed;
      s.point({x, y, z}, 0.025f, f);
    }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const std::uint32_t a = j * n + i;
      const float st = 0.06f * (1.0f - 2.0f * j / (n - 1.0f));
      if (i + 1 < n) s.line(a, a + 1, st);
      if (j + 1 < n) s.line(a, a + n, st * 0.8f);
      if (i + 1 < n && j + 1 < n) {
        s.triangle(a, a + n, a + n + 1);
        s.triangle(a, a + n + 1, a + 1);
      }
    }
  // a double pendulum beside it: pivot, two bobs, rigid rods; one highlighted spring
  const auto pivot = s.point({1.3f, 1.2f, 0.0f}, 0.04f, render::kPointFixed);
  const auto bob1 = s.point({1.6f, 0.8f, 0.0f}, 0.07f);
  const auto bob2 = s.point({1.5f, 0.3f, 0.0f}, 0.07f, render::kPointHighlight);
  s.line(pivot, bob1, 0.0f, render::kLineRigid);
  s.line(bob1, bob2, 0.0f, render::kLineHighlight);
  for (int i = 0; i < 80; ++i) {
    const float t = i / 79.0f;
    s.trails.insert(s.trails.end(), {1.3f + 0.45f * std::sin(3.0f * t),
                                     1.2f - 0.9f * std::cos(2.0f * t) + 0.1f, 0.0f});
  }
  s.trail_lengths.push_back(80);
  render::Camera cam;
  cam.yaw = 0.35f;
  cam.pitch = 0.3f;
  cam.frame({-0.7f, 0.0f, -0.2f}, {1.8f, 1.3f, 0.2f});
  render::DrawOptions o;
  const Image img = renderScene(s, cam, o, 640, 400, 4);
  maybeSave("composite", img);
  o.wireframe = true;
  maybeSave("composite_wire", renderScene(s, cam, o, 640, 400, 4));
  const glm::ivec3 bg = toBytes(o.background);
  CHECK_FALSE(near(img.at(project(cam, {0.0f, 0.6f, 0.0f}, 640, 400)), bg, 10));
}

// ============================== the looks ==============================

namespace {

// An n x n grid of points over [-h, h]^2 in the x-z plane at height y (x, z swapped into x-y
// when `upright`), two counter-clockwise triangles per cell seen from +y (+z), uv over 0..1.
TestScene grid(int n, float h, float y, bool upright = false) {
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

int sum(const glm::ivec3& c) {
  return c.x + c.y + c.z;
}

}  // namespace

TEST_CASE("render: vertexNormals: a flat grid's are its plane's, a folded grid's interpolate") {
  TestScene flat = grid(4, 0.5f, 0.3f);
  std::vector<float> n;
  render::vertexNormals(flat.positions, flat.triangles, n);
  REQUIRE(n.size() == flat.positions.size());
  for (size_t i = 0; i < n.size() / 3; ++i) {
    CAPTURE(i);
    CHECK(n[3 * i] == doctest::Approx(0.0f));
    CHECK(n[3 * i + 1] == doctest::Approx(1.0f));  // +y: counter-clockwise seen from above
    CHECK(n[3 * i + 2] == doctest::Approx(0.0f));
  }
  // folded along the middle column (x = 0) into a roof: the left half rises, the right falls,
  // 45 degrees each way; the ridge's normals are the mean of both (straight up), the rest the
  // slopes' own
  TestScene roof = grid(3, 1.0f, 0.0f);
  for (size_t i = 0; i < roof.positions.size() / 3; ++i)
    roof.positions[3 * i + 1] = 1.0f - std::abs(roof.positions[3 * i]);
  render::vertexNormals(roof.positions, roof.triangles, n);
  const float s = std::sqrt(0.5f);
  for (int j = 0; j < 3; ++j) {
    CAPTURE(j);
    const float* left = &n[3 * (3 * j)];
    const float* ridge = &n[3 * (3 * j + 1)];
    const float* right = &n[3 * (3 * j + 2)];
    CHECK(left[0] == doctest::Approx(-s));
    CHECK(left[1] == doctest::Approx(s));
    CHECK(right[0] == doctest::Approx(s));
    CHECK(right[1] == doctest::Approx(s));
    // between the slopes' normals, unit; straight up in the middle row, where as many
    // triangles (of equal areas) meet the ridge from either side (at the ends, the diagonals
    // give one side two triangles and the other one)
    CHECK(std::abs(ridge[0]) < 0.5f * s);
    CHECK(ridge[1] > s);
    CHECK(ridge[0] * ridge[0] + ridge[1] * ridge[1] + ridge[2] * ridge[2] == doctest::Approx(1.0f));
    if (j == 1) {
      CHECK(ridge[0] == doctest::Approx(0.0f).epsilon(1e-6));
      CHECK(ridge[1] == doctest::Approx(1.0f));
    }
  }
  // a point in no triangle, and a triangle with an index out of range: zeros, no crash
  roof.point({5.0f, 5.0f, 5.0f});
  roof.triangle(0, 1, 99);
  render::vertexNormals(roof.positions, roof.triangles, n);
  CHECK(n[n.size() - 3] == 0.0f);
  CHECK(n[n.size() - 2] == 0.0f);
  CHECK(n[n.size() - 1] == 0.0f);
  CHECK(n[1] == doctest::Approx(s));  // unchanged by the bad triangle
}

TEST_CASE("render: the background is a vertical gradient, lighter at the top") {
  REQUIRE_GL();
  render::DrawOptions o = bareOptions();
  const Image img = renderScene(TestScene{}, frontCamera(), o, 64, 100);
  const glm::ivec3 top = img.at(10, 0), mid = img.at(10, 50), bottom = img.at(10, 99);
  CAPTURE(top);
  CAPTURE(bottom);
  CHECK(sum(top) > sum(mid) + 6);
  CHECK(sum(mid) > sum(bottom) + 6);
  CHECK(near(top, backgroundAt(o, 0, 100), 2));
  CHECK(near(bottom, backgroundAt(o, 99, 100), 2));
  CHECK(near(mid, toBytes(o.background), 2));  // the base colour at mid height
  // no gradient: the base colour everywhere
  o.background_gradient = 0.0f;
  const Image flat = renderScene(TestScene{}, frontCamera(), o, 64, 100);
  CHECK(flat.at(10, 0) == toBytes(o.background));
  CHECK(flat.at(10, 99) == toBytes(o.background));
}

TEST_CASE("render: the cloth's front and back differ, and its checker follows surface_uv") {
  REQUIRE_GL();
  TestScene s = grid(5, 0.6f, 0.0f, true);  // in z = 0, facing +z
  render::DrawOptions o = bareOptions();
  o.show_points = false;
  render::Camera cam = frontCamera();
  cam.planar = true;  // orthographic: one colour per face, but for the checker
  const Image front = renderScene(s, cam, o);
  cam.yaw = kPi;  // ignored by the planar camera: turn the cloth round instead
  TestScene turned = s;
  for (size_t i = 0; i < turned.positions.size() / 3; ++i) turned.positions[3 * i] *= -1.0f;
  const Image back = renderScene(turned, cam, o);  // mirrored: its back faces the camera
  const glm::ivec3 f = front.at(project(cam, {0.01f, 0.01f, 0.0f}, 200, 150));
  const glm::ivec3 b = back.at(project(cam, {0.01f, 0.01f, 0.0f}, 200, 150));
  CAPTURE(f);
  CAPTURE(b);
  CHECK(f.b > f.r + 40);  // cool front
  CHECK(b.r > b.b + 40);  // warm back
  // 12 squares across the unit of uv: centres of neighbouring squares 1.2 / 12 m apart differ,
  // squares two apart match
  const float sq = 1.2f / 12.0f;
  const auto at = [&](const Image& img, float x) {
    return img.at(project(cam, {-0.6f + (x + 0.5f) * sq, -0.6f + 5.5f * sq, 0.0f}, 200, 150));
  };
  const glm::ivec3 a0 = at(front, 4), a1 = at(front, 5), a2 = at(front, 6);
  CAPTURE(a0);
  CAPTURE(a1);
  CHECK(std::abs(sum(a0) - sum(a1)) > 12);
  CHECK(near(a0, a2, 2));
  // without material coordinates the surface is plain
  s.uv.clear();
  const Image plain = renderScene(s, cam, o);
  CHECK(near(at(plain, 4), at(plain, 5), 1));
}

TEST_CASE("render: a 3-D cloth casts a shadow on the ground grid") {
  REQUIRE_GL();
  TestScene s = grid(5, 0.5f, 0.6f);   // horizontal, 0.6 m up
  s.point({0.9f, 0.0f, 0.9f}, 0.02f);  // sets the floor near y = 0
  render::DrawOptions o;
  o.show_axes = false;
  o.show_points = false;
  render::Camera cam;
  cam.target = {0.0f, 0.3f, 0.0f};
  cam.distance = 4.0f;
  cam.pitch = 0.35f;
  const int w = 200, h = 150;
  const Image lit = renderScene(s, cam, o, w, h);
  maybeSave("shadow", lit);
  o.show_shadow = false;
  const Image unlit = renderScene(s, cam, o, w, h);
  // under the cloth (the light falls nearly straight down) and well beside it
  const glm::vec3 under = project(cam, {0.0f, 0.0f, 0.0f}, w, h);
  const glm::vec3 beside = project(cam, {1.6f, 0.0f, 0.0f}, w, h);
  CAPTURE(lit.at(under));
  CAPTURE(unlit.at(under));
  CHECK(sum(lit.at(under)) < sum(unlit.at(under)) - 15);
  CHECK(sum(lit.at(under)) < sum(lit.at(beside)) - 10);
  CHECK(near(lit.at(beside), unlit.at(beside), 1));
  // the cloth itself is not darkened
  const glm::vec3 onCloth = project(cam, {0.0f, 0.6f, 0.3f}, w, h);
  CHECK(near(lit.at(onCloth), unlit.at(onCloth), 1));
  // a planar scene casts none
  s.planar = true;
  cam.planar = true;
  o.show_shadow = true;
  const Image planarOn = renderScene(s, cam, o, w, h);
  o.show_shadow = false;
  CHECK(planarOn.rgba == renderScene(s, cam, o, w, h).rgba);
}

TEST_CASE("render: the colliders' mesh: spheres just inside their surface, planes as discs") {
  render::ColliderShape ball;
  ball.sphere = true;
  ball.point[0] = 1.0f, ball.radius = 0.5f;
  render::ColliderShape slope;  // a plane through (0, 2, 0), normal (0, 1, 1)/sqrt 2
  slope.point[1] = 2.0f;
  slope.normal[1] = slope.normal[2] = std::sqrt(0.5f);
  const render::ColliderShape both[] = {ball, slope};
  render::ColliderMesh m;
  render::buildColliderMesh(both, glm::vec3(0.0f, 0.0f, 4.0f), 3.0f, m);
  const size_t disc = render::kDiscSegments + 1;
  const size_t ballVerts = (render::kSphereStacks + 1) * (render::kSphereSlices + 1);
  REQUIRE(m.positions.size() == 3 * (disc + ballVerts));
  CHECK(m.plane_indices == 3 * render::kDiscSegments);  // the plane first, whatever the order
  CHECK(m.triangles.size() == m.plane_indices + 6 * render::kSphereStacks * render::kSphereSlices);
  for (const std::uint32_t i : m.triangles) REQUIRE(i < disc + ballVerts);
  auto at = [&](size_t i) {
    return glm::vec3(m.positions[3 * i], m.positions[3 * i + 1], m.positions[3 * i + 2]);
  };
  auto normal = [&](size_t i) {
    return glm::vec3(m.normals[3 * i], m.normals[3 * i + 1], m.normals[3 * i + 2]);
  };
  // the disc: centred on the plane's point nearest (0, 0, 4), (0, -1, 3); its rim 3 m out
  const glm::vec3 n(0.0f, std::sqrt(0.5f), std::sqrt(0.5f));
  CHECK(glm::length(at(0) - glm::vec3(0.0f, -1.0f, 3.0f)) < 1e-5f);
  for (size_t i = 1; i < disc; ++i) {
    CHECK(std::abs(glm::dot(at(i) - at(0), n)) < 1e-5f);
    CHECK(glm::length(at(i) - at(0)) == doctest::Approx(3.0f).epsilon(1e-5));
  }
  for (size_t i = disc; i < disc + ballVerts; ++i) {
    const glm::vec3 off = at(i) - glm::vec3(1.0f, 0.0f, 0.0f);
    CHECK(glm::length(off) == doctest::Approx((1.0f - render::kSphereInset) * 0.5f).epsilon(1e-5));
    CHECK(glm::length(normal(i) - off / glm::length(off)) < 1e-5f);  // outward, unit
  }
  float level = 0.0f;
  CHECK(!render::floorLevel(both, level));  // a slope is not a floor
  render::ColliderShape floor;
  floor.point[1] = -0.25f;
  const render::ColliderShape withFloor[] = {ball, floor};
  CHECK(render::floorLevel(withFloor, level));
  CHECK(level == -0.25f);
}

TEST_CASE("render: a sphere collider is drawn solid and lit, a cloth lying on it stays in front") {
  REQUIRE_GL();
  TestScene s;
  s.point({1.2f, 0.0f, 0.0f}, 0.02f);
  render::ColliderShape ball;
  ball.sphere = true;
  ball.radius = 0.5f;
  s.colliders.push_back(ball);
  render::DrawOptions o = bareOptions();
  const render::Camera cam = frontCamera();
  const int w = 200, h = 150;
  const Image img = renderScene(s, cam, o, w, h);
  maybeSave("collider_sphere", img);
  const glm::vec3 centre = project(cam, {0.0f, 0.0f, 0.5f}, w, h);
  const glm::vec3 outside = project(cam, {0.0f, 0.7f, 0.0f}, w, h);
  const auto c = img.at(centre), bg = img.at(outside);
  CAPTURE(c);
  CHECK(sum(c) > sum(bg) + 150);  // lit, far brighter than the dark background
  CHECK(c[0] > c[2]);             // warm grey, not the cloth's blue
  // a square of cloth tangent to the sphere at its front point, exactly on its surface
  const auto a = s.point({-0.1f, -0.1f, 0.5f}), b = s.point({0.1f, -0.1f, 0.5f}),
             d = s.point({0.1f, 0.1f, 0.5f}), e = s.point({-0.1f, 0.1f, 0.5f});
  s.triangle(a, b, d), s.triangle(a, d, e);
  o.show_points = false;
  const auto cloth = renderScene(s, cam, o, w, h).at(centre);
  CAPTURE(cloth);
  CHECK(cloth[2] > cloth[0] + 20);  // the cloth's blue wins over the sphere
}

TEST_CASE("render: hidden particles still show the highlighted and the grabbed one") {
  REQUIRE_GL();
  TestScene s;
  const glm::vec3 p0(-0.5f, 0.0f, 0.0f), p1(0.0f, 0.0f, 0.0f), p2(0.5f, 0.0f, 0.0f);
  s.point(p0, 0.08f, render::kPointHighlight);
  s.point(p1, 0.08f);
  s.point(p2, 0.08f, render::kPointGrabbed);
  render::DrawOptions o = bareOptions();
  o.show_points = false;
  const render::Camera cam = frontCamera();
  const Image img = renderScene(s, cam, o);
  const glm::ivec3 c0 = img.at(project(cam, p0, 200, 150));
  const glm::ivec3 c1 = img.at(project(cam, p1, 200, 150));
  const glm::ivec3 c2 = img.at(project(cam, p2, 200, 150));
  CAPTURE(c0);
  CAPTURE(c2);
  CHECK(c0.r > 180);  // magenta
  CHECK(c0.b > 180);
  CHECK(c0.g < 90);
  CHECK(c2.r > 180);  // yellow
  CHECK(c2.g > 180);
  CHECK(near(c1, backgroundAt(o, 75, 150), 3));  // the plain one hidden
  // none flagged: nothing drawn
  s.flags = {0, 0, 0};
  const Image none = renderScene(s, cam, o);
  CHECK(near(none.at(project(cam, p0, 200, 150)), backgroundAt(o, 75, 150), 3));
}

namespace {

// The distinct colours of a row of pixels.
size_t distinctColours(const Image& img, int y) {
  std::vector<int> seen;
  for (int x = 0; x < img.width; ++x) {
    const glm::ivec3 c = img.at(x, y);
    const int key = (c.x << 16) | (c.y << 8) | c.z;
    if (std::find(seen.begin(), seen.end(), key) == seen.end()) seen.push_back(key);
  }
  return seen.size();
}

// A triangle with a shallow diagonal edge over a flat background, orthographic and unlit-flat:
// without anti-aliasing exactly two colours.
Image renderEdge(int samples, bool post, bool endScene) {
  TestScene s;
  s.point({-2.0f, -2.0f, 0.0f});
  s.point({2.0f, -2.0f, 0.0f});
  s.point({-2.0f, 0.7f, 0.0f});
  s.triangle(0, 1, 2);
  render::DrawOptions o = bareOptions();
  o.show_points = false;
  o.background_gradient = 0.0f;
  render::Camera cam = frontCamera();
  cam.planar = true;
  const int w = 160, h = 120;
  render::Framebuffer fb;
  fb.setPostAntialias(post);
  const util::Problem err = fb.resize(w, h, samples);
  REQUIRE_MESSAGE(!err, err.value_or(""));
  fb.bind();
  gl().renderer->clear(o, w, h);
  gl().renderer->draw(s.view(), cam, o, w, h);
  if (endScene) fb.endScene();
  CHECK(glGetError() == GL_NO_ERROR);
  return readImage(fb);
}

}  // namespace

TEST_CASE("render: anti-aliasing: FXAA and multisampling blend a diagonal edge, plain does not") {
  REQUIRE_GL();
  const Image plain = renderEdge(1, false, true);
  maybeSave("edge_plain", plain);
  const Image fxaa = renderEdge(1, true, true);
  maybeSave("edge_fxaa", fxaa);
  const Image before = renderEdge(1, true, false);  // read() before endScene: the scene as is
  const Image msaa = renderEdge(4, false, true);
  const int row = 60;
  CHECK(distinctColours(plain, row) == 2);
  CHECK(distinctColours(before, row) == 2);
  CHECK(before.rgba == plain.rgba);
  CHECK(distinctColours(fxaa, row) > 2);
  CHECK(distinctColours(msaa, row) > 2);
  // the intermediate values lie between the two colours, and only near the edge: far from it
  // both images agree
  const glm::ivec3 inside = plain.at(5, row), outside = plain.at(plain.width - 5, row);
  for (int x = 0; x < fxaa.width; ++x) {
    const glm::ivec3 c = fxaa.at(x, row);
    CAPTURE(x);
    CAPTURE(c);
    CHECK(sum(c) >= std::min(sum(inside), sum(outside)) - 3);
    CHECK(sum(c) <= std::max(sum(inside), sum(outside)) + 3);
  }
  CHECK(fxaa.at(5, row) == inside);
  CHECK(fxaa.at(fxaa.width - 5, row) == outside);
}

TEST_CASE("render: endScene binds the final target, whose overlays read() returns") {
  REQUIRE_GL();
  for (const auto& [samples, post] :
       {std::pair{1, false}, std::pair{1, true}, std::pair{4, false}}) {
    CAPTURE(samples);
    CAPTURE(post);
    render::Framebuffer fb;
    fb.setPostAntialias(post);
    const util::Problem err = fb.resize(40, 30, samples);
    REQUIRE_MESSAGE(!err, err.value_or(""));
    fb.bind();
    render::DrawOptions o = bareOptions();
    gl().renderer->clear(o, 40, 30);
    fb.endScene();
    GLint bound = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &bound);
    CHECK(static_cast<unsigned>(bound) == fb.finalFramebuffer());
    // an overlay drawn after endScene (the UI): a scissored clear to pure green
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 0, 10, 10);
    glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    const Image img = readImage(fb);
    CHECK(img.at(2, 27) == glm::ivec3(0, 255, 0));  // bottom left, read top row first
    CHECK(near(img.at(30, 5), backgroundAt(o, 5, 30), 2));
    // turning the pass on or off later rebuilds the target at the same size
    fb.setPostAntialias(!post);
    CHECK(fb.width() == 40);
    CHECK(fb.finalFramebuffer() != 0);
  }
}

TEST_CASE("render: ViewBuilder's surface_uv spans the cloth, autoStrainScale follows strains") {
  CHECK(app::ViewBuilder::niceScaleAtLeast(0.0043f) == doctest::Approx(0.005f));
  CHECK(app::ViewBuilder::niceScaleAtLeast(0.002f) == doctest::Approx(0.002f));
  CHECK(app::ViewBuilder::niceScaleAtLeast(0.011f) == doctest::Approx(0.02f));
  CHECK(app::ViewBuilder::niceScaleAtLeast(0.3f) == doctest::Approx(0.5f));
  CHECK(app::ViewBuilder::niceScaleAtLeast(1e-7f) == app::ViewBuilder::kMinStrainScale);
  CHECK(app::ViewBuilder::niceScaleAtLeast(std::nanf("")) == app::ViewBuilder::kMinStrainScale);

  app::Session s;
  s.load("cloth_16");
  app::ViewBuilder vb;
  const render::SceneView& v0 = vb.build(s, false);
  const size_t n = v0.positions.size() / 3;
  REQUIRE(v0.surface_uv.size() == 2 * n);
  float lo = 1.0f, hi = 0.0f;
  for (float u : v0.surface_uv) lo = std::min(lo, u), hi = std::max(hi, u);
  CHECK(lo == doctest::Approx(0.0f));
  CHECK(hi == doctest::Approx(1.0f));
  // at rest: (nearly) no strain, the floor
  CHECK(vb.autoStrainScale() <= 1e-3f);
  for (int i = 0; i < 2000; ++i) s.stepOnce();
  const render::SceneView& v = vb.build(s, false);
  std::vector<float> a;
  for (float e : v.line_strain) a.push_back(std::abs(e));
  std::sort(a.begin(), a.end());
  const float p95 = a[static_cast<size_t>(0.95 * a.size())];
  const float scale = vb.autoStrainScale();
  CAPTURE(p95);
  CAPTURE(scale);
  // the build after the rest one rises half way (smoothing), and never below the floor
  CHECK(scale >= app::ViewBuilder::kMinStrainScale);
  for (int i = 0; i < 30; ++i) vb.build(s, false);  // the same state: the smoothing converges
  const float settled = vb.autoStrainScale();
  CAPTURE(settled);
  CHECK(settled >= p95 * 0.99f);
  CHECK(settled <= 2.5f * p95);
  CHECK(settled == app::ViewBuilder::niceScaleAtLeast(settled));  // a nice value
  // a pendulum has no springs: the floor
  s.load("pendulum_small_angle");
  vb.build(s, false);
  CHECK(vb.autoStrainScale() == app::ViewBuilder::kMinStrainScale);
  CHECK(vb.build(s, false).surface_uv.empty());
}

#endif  // SPRINGLAB_VIEWER

#include "render/fxaa.hpp"

namespace {
// A w x h RGBA image of grey levels from `level(x, y)`.
std::vector<unsigned char> greyImage(int w, int h, const std::function<int(int, int)>& level) {
  std::vector<unsigned char> img(static_cast<size_t>(w) * h * 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c)
        img[(static_cast<size_t>(y) * w + x) * 4 + c] =
            static_cast<unsigned char>(c == 3 ? 255 : level(x, y));
  return img;
}
int greyAt(const std::vector<unsigned char>& img, int w, int x, int y) {
  return img[(static_cast<size_t>(y) * w + x) * 4];
}
}  // namespace

TEST_CASE(
    "render: the CPU anti-aliasing filter smooths a staircase and keeps flat areas and thin "
    "lines") {
  constexpr int w = 40, h = 20;
  std::vector<unsigned char> out;
  std::vector<unsigned char> luma;
  // a shallow staircase: white below the line y = x / 4 (steps 4 pixels long), black above
  const auto stairs = greyImage(w, h, [](int x, int y) { return y * 4 < x ? 255 : 0; });
  render::fxaa(stairs, out, luma, w, h);
  int blended = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int v = greyAt(out, w, x, y), was = greyAt(stairs, w, x, y);
      if (v != was) {
        ++blended;
        // an edge pixel is half itself and half its two neighbours along the edge: a quarter
        // step of grey, never outside the two colours
        CHECK(v > 0);
        CHECK(v < 255);
        CHECK((v % 64 == 0 || v % 64 == 63 || v % 64 == 1));
      }
    }
  CHECK(blended > 0);
  // pixels away from the edge keep their colour
  CHECK(greyAt(out, w, 0, h - 1) == 0);
  CHECK(greyAt(out, w, w - 1, 0) == 255);
  // a flat image and a gentle gradient (contrast below the threshold) are kept exactly
  const auto gradient = greyImage(w, h, [](int x, int) { return 60 + x; });
  render::fxaa(gradient, out, luma, w, h);
  CHECK(out == gradient);
  // a thin horizontal line keeps its colour: its taps along the edge lie on it
  const auto line = greyImage(w, h, [](int, int y) { return y == 10 ? 200 : 30; });
  render::fxaa(line, out, luma, w, h);
  for (int x = 0; x < w; ++x) CHECK(greyAt(out, w, x, 10) == 200);
}

TEST_CASE("render: the anti-aliasing filter gives the same pixels on 1, 2 and 3 threads") {
  // a circle's rim and a staircase: edges in every direction, on rows that the threads share
  constexpr int w = 97, h = 61;
  const auto scene = greyImage(w, h, [](int x, int y) {
    const int dx = x - 40, dy = y - 30;
    return (dx * dx + dy * dy < 400 ? 220 : 20) + (y * 3 < x ? 30 : 0);
  });
  std::vector<unsigned char> one, luma;
  render::fxaa(scene, one, luma, w, h, 1);
  CHECK(one != scene);  // the filter blended something
  for (int threads : {2, 3}) {
    std::vector<unsigned char> many, scratch;
    render::fxaa(scene, many, scratch, w, h, threads);
    CAPTURE(threads);
    CHECK(many == one);
  }
}

// ============================== wide lines, colliders seen, the grab
// ==============================

namespace {
// The run of rows, through column x, whose pixels differ from the background's by more than
// `tol` (summed over r g b), around row y0: how wide a horizontal line is drawn there.
int drawnRowsAround(const Image& img, const render::DrawOptions& o, int x, int y0, int tol = 30) {
  const auto differs = [&](int y) {
    const glm::ivec3 d = glm::abs(img.at(x, y) - backgroundAt(o, y, img.height));
    return d.x + d.y + d.z > tol;
  };
  if (!differs(y0)) return 0;
  int top = y0, bottom = y0;
  while (top > 0 && differs(top - 1)) --top;
  while (bottom < img.height - 1 && differs(bottom + 1)) ++bottom;
  return bottom - top + 1;
}
}  // namespace

TEST_CASE("render: lineWidthPx scales with the picture's height, never below a pixel") {
  CHECK(render::lineWidthPx(720, false) == render::kSpringWidthAt720);
  CHECK(render::lineWidthPx(720, true) == render::kRodWidthAt720);
  CHECK(render::lineWidthPx(1440, true) == 2.0f * render::kRodWidthAt720);
  CHECK(render::lineWidthPx(360, false) == 0.5f * render::kSpringWidthAt720);
  CHECK(render::lineWidthPx(100, false) == render::kMinLineWidthPx);
  CHECK(render::lineWidthPx(0, true) == render::kMinLineWidthPx);
  CHECK(render::kRodWidthAt720 > render::kSpringWidthAt720);
}

TEST_CASE(
    "render: rods and springs are drawn several pixels wide at 720 rows, twice that at 1440") {
  REQUIRE_GL();
  TestScene s;
  // a rod above the middle, a spring below, across most of the view; no particles
  s.line(s.point({-1.2f, 0.3f, 0.0f}), s.point({1.2f, 0.3f, 0.0f}), 0.0f, render::kLineRigid);
  s.line(s.point({-1.2f, -0.3f, 0.0f}), s.point({1.2f, -0.3f, 0.0f}), 0.02f);
  render::DrawOptions o = bareOptions();
  o.show_points = false;
  const render::Camera cam = frontCamera();
  int rod720 = 0, spring720 = 0;
  for (const int h : {720, 1440}) {
    CAPTURE(h);
    const int w = h * 16 / 9;
    const Image img = renderScene(s, cam, o, w, h);
    if (h == 720) maybeSave("wide_lines", img);
    const glm::vec3 rodAt = project(cam, {0.3f, 0.3f, 0.0f}, w, h);
    const glm::vec3 springAt = project(cam, {0.3f, -0.3f, 0.0f}, w, h);
    const int rod = drawnRowsAround(img, o, int(rodAt.x), int(rodAt.y));
    const int spring = drawnRowsAround(img, o, int(springAt.x), int(springAt.y));
    CAPTURE(rod);
    CAPTURE(spring);
    // the quads' width, give or take the pixel that a boundary falls on
    CHECK(std::abs(rod - render::lineWidthPx(h, true)) <= 1.0f);
    CHECK(std::abs(spring - render::lineWidthPx(h, false)) <= 1.0f);
    if (h == 720) {
      CHECK(rod >= 3);
      CHECK(spring >= 2);
      rod720 = rod, spring720 = spring;
    } else {
      CHECK(rod >= 2 * rod720 - 1);
      CHECK(spring > spring720);
    }
    // shaded like a cylinder: the middle row is the rod's colour, its edges darker
    const glm::ivec3 middle = img.at(int(rodAt.x), int(std::floor(rodAt.y)));
    CHECK(sum(middle) > 3 * 170);
  }
  // a 1-pixel picture's worth: at 150 rows a line is still drawn, a pixel wide
  const Image small = renderScene(s, cam, o, 200, 150);
  const glm::vec3 at = project(cam, {0.3f, 0.3f, 0.0f}, 200, 150);
  CHECK(drawnRowsAround(small, o, int(at.x), int(at.y)) >= 1);
  CHECK(drawnRowsAround(small, o, int(at.x), int(at.y)) <= 2);
}

TEST_CASE("render: a sphere under a cloth shows through it, and its shadow darkens the cloth's") {
  REQUIRE_GL();
  // a sphere of radius 0.5 at the origin behind a square of cloth at z = 0.8 that covers it
  TestScene s;
  const auto a = s.point({-1.0f, -1.0f, 0.8f}), b = s.point({1.0f, -1.0f, 0.8f}),
             c = s.point({1.0f, 1.0f, 0.8f}), d = s.point({-1.0f, 1.0f, 0.8f});
  s.triangle(a, b, c), s.triangle(a, c, d);
  render::DrawOptions o = bareOptions();
  o.show_points = false;
  const render::Camera cam = frontCamera(4.0f);
  const int w = 200, h = 150;
  const Image plain = renderScene(s, cam, o, w, h);
  render::ColliderShape ball;
  ball.sphere = true;
  ball.radius = 0.5f;
  s.colliders.push_back(ball);
  const Image seen = renderScene(s, cam, o, w, h);
  maybeSave("collider_through_cloth", seen);
  // near the sphere's silhouette (its rim shows strongest) and at its middle: the cloth's
  // colour moves toward the sphere's warm grey; beside the sphere the cloth is as it was
  const glm::vec3 rim = project(cam, {0.47f, 0.0f, 0.0f}, w, h);
  const glm::vec3 middle = project(cam, {0.0f, 0.0f, 0.5f}, w, h);
  const glm::vec3 beside = project(cam, {0.8f, 0.6f, 0.8f}, w, h);
  CAPTURE(plain.at(rim));
  CAPTURE(seen.at(rim));
  CHECK(seen.at(rim).r > plain.at(rim).r + 20);
  CHECK(seen.at(rim).r - plain.at(rim).r > seen.at(middle).r - plain.at(middle).r);
  CHECK(seen.at(middle).r > plain.at(middle).r + 5);
  CHECK(seen.at(middle).b > seen.at(middle).r);  // still the cloth: faint in the middle
  CHECK(near(seen.at(beside), plain.at(beside), 1));

  // the shadows: a horizontal cloth 1 m up over a sphere 0.4 m up, on the ground grid
  TestScene g = grid(5, 0.5f, 1.0f);
  g.point({0.9f, 0.0f, 0.9f}, 0.02f);  // sets the floor near y = 0
  o = render::DrawOptions{};
  o.show_axes = false;
  o.show_points = false;
  render::Camera top;
  top.target = {0.0f, 0.3f, 0.0f};
  top.distance = 4.0f;
  top.pitch = 0.35f;
  const Image clothOnly = renderScene(g, top, o, w, h);
  ball.point[1] = 0.4f;
  ball.radius = 0.3f;
  g.colliders.push_back(ball);
  const Image both = renderScene(g, top, o, w, h);
  maybeSave("collider_shadow", both);
  // under the sphere (the light falls nearly straight down, x and z shifted by its tilt)
  const glm::vec3 under = project(top, {0.07f, 0.0f, -0.05f}, w, h);
  CAPTURE(clothOnly.at(under));
  CAPTURE(both.at(under));
  CHECK(sum(both.at(under)) < sum(clothOnly.at(under)) - 6);
}

TEST_CASE("render: a grab draws a line from the cursor's target to the grabbed point") {
  REQUIRE_GL();
  TestScene s;
  const glm::vec3 body(0.5f, -0.2f, 0.0f), target(-0.6f, 0.4f, 0.0f);
  s.point(body, 0.06f, render::kPointGrabbed);
  render::DrawOptions o = bareOptions();
  const render::Camera cam = frontCamera();
  const int w = 320, h = 180;
  const Image none = renderScene(s, cam, o, w, h);
  s.grab = {target.x, target.y, target.z, body.x, body.y, body.z};
  const Image held = renderScene(s, cam, o, w, h);
  maybeSave("grab_line", held);
  for (const float t : {0.2f, 0.5f, 0.8f}) {
    CAPTURE(t);
    const glm::vec3 p = project(cam, glm::mix(target, body, t), w, h);
    const glm::ivec3 c = held.strongest(p, none.at(p));
    CAPTURE(c);
    CHECK(c.r > 180);  // the grabbed point's yellow
    CHECK(c.g > 160);
    CHECK(c.b < 120);
    CHECK(near(none.at(p), backgroundAt(o, int(p.y), h), 3));
  }
  // nothing held: an empty or non-finite line draws nothing
  s.grab = {target.x, std::nanf(""), target.z, body.x, body.y, body.z};
  CHECK(renderScene(s, cam, o, w, h).rgba == none.rgba);
}

TEST_CASE("render: springs over a drawn surface stay a pixel wide, the culprit wide") {
  REQUIRE_GL();
  // a square of cloth at z = 0, and two springs lying on it: one plain, one a culprit
  TestScene s;
  const auto a = s.point({-1.0f, -1.0f, 0.0f}), b = s.point({1.0f, -1.0f, 0.0f}),
             c = s.point({1.0f, 1.0f, 0.0f}), d = s.point({-1.0f, 1.0f, 0.0f});
  s.triangle(a, b, c), s.triangle(a, c, d);
  s.line(s.point({-0.9f, 0.3f, 0.0f}), s.point({0.9f, 0.3f, 0.0f}), 0.05f);
  s.line(s.point({-0.9f, -0.3f, 0.0f}), s.point({0.9f, -0.3f, 0.0f}), 0.0f, render::kLineHighlight);
  render::DrawOptions o = bareOptions();
  o.show_points = false;
  o.strain_scale = 0.05f;
  const render::Camera cam = frontCamera();
  const int w = 1280, h = 720;
  const Image img = renderScene(s, cam, o, w, h);
  // rows that are not the cloth's around each line
  const auto rows = [&](const glm::vec3& p) {
    const glm::ivec3 cloth = img.at(int(p.x), int(p.y) - 40);
    int n = 0;
    for (int y = int(p.y) - 10; y <= int(p.y) + 10; ++y) n += !near(img.at(int(p.x), y), cloth, 12);
    return n;
  };
  const int plain = rows(project(cam, {0.2f, 0.3f, 0.0f}, w, h));
  const int culprit = rows(project(cam, {0.2f, -0.3f, 0.0f}, w, h));
  CAPTURE(plain);
  CAPTURE(culprit);
  CHECK(plain >= 1);
  CHECK(plain <= 2);
  CHECK(culprit >= 4);  // twice a spring's 2.5 pixels, give or take a boundary pixel
}
