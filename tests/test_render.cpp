// The renderer's CPU side: the camera's math (eye, view, projection, rays, framing, the planar
// camera's zoom and pan), the strain colour map, vertex normals, the colliders' mesh, the line
// widths, ViewBuilder's surface_uv and automatic strain scale, and the CPU anti-aliasing filter.
// The GL suites: test_render_pixels.cpp, test_render_targets.cpp, test_render_looks.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <glm/glm.hpp>
#include <vector>

#include "app/session.hpp"
#include "app/view_builder.hpp"
#include "render/camera.hpp"
#include "render/colliders.hpp"
#include "render/fxaa.hpp"
#include "render/renderer.hpp"
#include "render/upscale.hpp"
#include "render_helpers.hpp"

using namespace rendertest;

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

// ============================== CPU: geometry and line widths ==============================

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

TEST_CASE("render: lineWidthPx scales with the picture's height, never below a pixel") {
  CHECK(render::lineWidthPx(720, false) == render::kSpringWidthAt720);
  CHECK(render::lineWidthPx(720, true) == render::kRodWidthAt720);
  CHECK(render::lineWidthPx(1440, true) == 2.0f * render::kRodWidthAt720);
  CHECK(render::lineWidthPx(360, false) == 0.5f * render::kSpringWidthAt720);
  CHECK(render::lineWidthPx(100, false) == render::kMinLineWidthPx);
  CHECK(render::lineWidthPx(0, true) == render::kMinLineWidthPx);
  CHECK(render::kRodWidthAt720 > render::kSpringWidthAt720);
}

// ============================== CPU: the view builder ==============================

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

// ============================== CPU: the anti-aliasing filter ==============================

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

TEST_CASE("render: the bilinear enlargement samples each pixel's centre between its four nearest") {
  std::vector<std::uint32_t> scratch;
  std::vector<unsigned char> out;
  // a flat image stays flat at any size, and alpha is kept
  const auto flat = greyImage(7, 5, [](int, int) { return 123; });
  render::upscaleBilinear(flat, 7, 5, out, 13, 11, scratch);
  REQUIRE(out.size() == size_t(13) * 11 * 4);
  for (size_t i = 0; i < out.size(); ++i) CHECK(int(out[i]) == (i % 4 == 3 ? 255 : 123));
  // doubled: output column x samples input position (x + 0.5) / 2 - 0.5, so columns 1 and 2
  // fall a quarter and three quarters of the way from input column 0 to 1; the border columns
  // are clamped to the border's value (GL_LINEAR's blit does the same)
  const auto ramp = greyImage(2, 1, [](int x, int) { return x == 0 ? 0 : 200; });
  render::upscaleBilinear(ramp, 2, 1, out, 4, 2, scratch);
  for (int y = 0; y < 2; ++y) {
    CHECK(greyAt(out, 4, 0, y) == 0);
    CHECK(greyAt(out, 4, 1, y) == 50);
    CHECK(greyAt(out, 4, 2, y) == 150);
    CHECK(greyAt(out, 4, 3, y) == 200);
  }
  // along y alike, and the two axes compose: the middle of a 2x2 checker is their mean
  const auto checker = greyImage(2, 2, [](int x, int y) { return (x + y) % 2 ? 240 : 0; });
  render::upscaleBilinear(checker, 2, 2, out, 4, 4, scratch);
  // (1, 1) samples (0.25, 0.25): 9/16 of the black corner, 6/16 of the two white ones, 1/16
  // of the far black one; (2, 1) samples (0.75, 0.25): 3/16 + 9/16 white
  CHECK(greyAt(out, 4, 1, 1) == 90);
  CHECK(greyAt(out, 4, 2, 1) == 150);
  CHECK(greyAt(out, 4, 0, 0) == 0);
  CHECK(greyAt(out, 4, 3, 0) == 240);
}

TEST_CASE("render: the bilinear enlargement gives the same pixels on 1, 2 and 3 threads") {
  constexpr int w = 64, h = 36;
  const auto scene = greyImage(w, h, [](int x, int y) { return (x * 7 + y * 13) % 256; });
  std::vector<std::uint32_t> scratch;
  std::vector<unsigned char> one, many;
  render::upscaleBilinear(scene, w, h, one, 128, 72, scratch, 1);
  for (int threads : {2, 3}) {
    render::upscaleBilinear(scene, w, h, many, 128, 72, scratch, threads);
    CAPTURE(threads);
    CHECK(many == one);
  }
}
