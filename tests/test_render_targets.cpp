// The renderer's targets through a headless EGL context (Mesa): several scenes and viewports
// drawn into one target, PNGs written and read back, the framebuffer's sizes and samples, the
// anti-aliasing passes (FXAA and multisampling) and endScene, a large cloth timed and a composite
// scene for the eye. Set SPRINGLAB_RENDER_PNG_DIR to keep the images.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <glm/glm.hpp>
#include <string>
#include <utility>
#include <vector>

#include "render/camera.hpp"
#include "render/renderer.hpp"
#include "render_helpers.hpp"
#include "util.hpp"

#include "stb_image_reader.hpp"

using namespace rendertest;

namespace {

// A viewport in the bound target `fb`: clear fills the whole target (the panel's area too), draw
// only its viewport, the right half of the target.
void checkViewportDraw(render::Framebuffer& fb, const render::Camera& cam,
                       const render::DrawOptions& o) {
  const int width = fb.width(), height = fb.height();
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

// An n x n cloth over [-1, 1]^2, waved in z, with structural, shear and bending springs of
// varied strains and two triangles per cell; its top corners fixed.
TestScene largeCloth(int n) {
  TestScene s;
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
  return s;
}

// The mean wall time of `frames` calls of frame(options), the GL work finished, in milliseconds.
template <class Frame>
double msPerFrame(const Frame& frame, const render::DrawOptions& options, int frames) {
  const auto start = std::chrono::steady_clock::now();
  for (int f = 0; f < frames; ++f) frame(options);
  glFinish();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
             .count() /
         frames;
}

}  // namespace

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

  checkViewportDraw(fb, cam, o);
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
  const TestScene s = largeCloth(256);
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
  const double ms = msPerFrame(frame, o, frames);
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
    return msPerFrame(frame, only, frames);
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
