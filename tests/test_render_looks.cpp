// The renderer's looks through a headless EGL context (Mesa): the background's gradient, the
// cloth's two faces and its checker, shadows on the ground, sphere colliders drawn solid and seen
// through a cloth, hidden particles that still show when flagged, rods and springs drawn wide and
// a pixel wide over a surface, and the grab's line. Set SPRINGLAB_RENDER_PNG_DIR to keep the
// images.
#include <doctest/doctest.h>

#include <cmath>
#include <glm/glm.hpp>

#include "render/camera.hpp"
#include "render/colliders.hpp"
#include "render/renderer.hpp"
#include "render_helpers.hpp"

using namespace rendertest;

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
