// The renderer's pixels through a headless EGL context (Mesa): known scenes drawn from a known
// camera into an offscreen framebuffer, checked where glm projects them: the springs' strain
// colours, particles and their depth, cloths and their levels of detail, the points' flags, one
// topology over frames, trails, the wind's streaks, the grid and axes, and bad input. Set
// SPRINGLAB_RENDER_PNG_DIR to keep the images.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "render/camera.hpp"
#include "render/renderer.hpp"
#include "render_helpers.hpp"

using namespace rendertest;

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

namespace {

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

}  // namespace

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
