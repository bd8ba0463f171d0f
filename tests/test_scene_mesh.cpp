// OBJ meshes in (docs/scenes.md#mesh): the reader's subset and every one of its errors, the
// transform's order.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "scene/obj_reader.hpp"

namespace {

using scene::Vec3;

scene::ObjMesh obj(const std::string& text) {
  return scene::parseObj(text, "m.obj");
}

// The error parseObj gives for `text` shown as "m.obj", or "" if it reads.
std::string objError(const std::string& text) {
  try {
    obj(text);
  } catch (const scene::Error& e) {
    return e.what();
  }
  return "";
}

using Tri = std::array<int, 3>;

}  // namespace

TEST_CASE("obj reader: vertices in file order, triangles 0-based, polygons fanned") {
  const auto m =
      obj("# a square and a pentagon\n"
          "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
          "f 1 2 3 4\n"
          "v 2 0 0\nv 3 0 0\nv 3.5 1 0\nv 2.5 2 0\nv 1.5 1 0\n"
          "f 5 6 7 8 9\n");
  REQUIRE(m.vertices.size() == 9);
  CHECK(m.vertices[2] == Vec3(1, 1, 0));
  CHECK(m.vertices[7] == Vec3(2.5, 2, 0));
  REQUIRE(m.triangles.size() == 2 + 3);
  CHECK(m.triangles[0] == Tri{0, 1, 2});
  CHECK(m.triangles[1] == Tri{0, 2, 3});
  CHECK(m.triangles[2] == Tri{4, 5, 6});
  CHECK(m.triangles[3] == Tri{4, 6, 7});
  CHECK(m.triangles[4] == Tri{4, 7, 8});
  CHECK(m.vertex_lines == std::vector<int>{2, 3, 4, 5, 7, 8, 9, 10, 11});
  CHECK(m.triangle_lines == std::vector<int>{6, 6, 12, 12, 12});
}

TEST_CASE(
    "obj reader: i/t/n forms use i, and other lines, comments, CRLF, tabs, a BOM are ignored") {
  const auto m =
      obj("\xEF\xBB\xBFv 0 0 0\r\n"
          "v\t1 0 0 1\r\n"           // a w, ignored
          "v 1 1 0 0.5 0.5 0.5\r\n"  // an r g b colour, ignored
          "v +0.5 -1e-3 .25  # a comment after the numbers\r\n"
          "vt 0 0\nvn 0 0 1\no thing\ng group\ns 1\nusemtl red\nmtllib x.mtl\nl 1 2\n\n   \n"
          "f 1/1/1 2/2/1 3/3/1\n"
          "f 1//1 3//1 4//1\n"
          "f 2/1 3/2 4/3\n");
  REQUIRE(m.vertices.size() == 4);
  CHECK(m.vertices[1] == Vec3(1, 0, 0));
  CHECK(m.vertices[3] == Vec3(0.5, -1e-3, 0.25));
  REQUIRE(m.triangles.size() == 3);
  CHECK(m.triangles[0] == Tri{0, 1, 2});
  CHECK(m.triangles[1] == Tri{0, 2, 3});
  CHECK(m.triangles[2] == Tri{1, 2, 3});
}

TEST_CASE("obj reader: negative indices count back from the last vertex read before the face") {
  const auto m =
      obj("v 0 0 0\nv 1 0 0\nv 0 1 0\n"
          "f -3 -2 -1\n"
          "v 1 1 0\n"
          "f -3 -1 -2/7/7\n"
          "f 2 -1 3\n");
  REQUIRE(m.triangles.size() == 3);
  CHECK(m.triangles[0] == Tri{0, 1, 2});
  CHECK(m.triangles[1] == Tri{1, 3, 2});
  CHECK(m.triangles[2] == Tri{1, 3, 2});
}

TEST_CASE("obj reader: a face may name vertices that come after it") {
  const auto m = obj("f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\n");
  REQUIRE(m.triangles.size() == 1);
  CHECK(m.triangles[0] == Tri{0, 1, 2});
  CHECK(m.triangle_lines[0] == 1);
}

TEST_CASE("obj reader: every bad line is one error naming the file and the line") {
  const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  CHECK(objError("v 0 0 0\nv 1 0.0x 0\n") == "m.obj:2: bad number \"0.0x\"");
  CHECK(objError("v 0 0 0x1\n") == "m.obj:1: bad number \"0x1\"");
  CHECK(objError("v 0 0 --1\n") == "m.obj:1: bad number \"--1\"");
  CHECK(objError("v 0 0 +-1\n") == "m.obj:1: bad number \"+-1\"");
  CHECK(objError("v 1 2\n") == "m.obj:1: vertex has 2 coordinates (needs x y z)");
  CHECK(objError("v 1 # 2 3\n") == "m.obj:1: vertex has 1 coordinate (needs x y z)");
  CHECK(objError("v\n") == "m.obj:1: vertex has 0 coordinates (needs x y z)");
  CHECK(objError("v 1 2 3 4 5\n") ==
        "m.obj:1: vertex has 5 numbers (x y z, then nothing, a w or an r g b colour)");
  CHECK(objError("v 1 2 nan\n") == "m.obj:1: coordinate \"nan\" is not finite");
  CHECK(objError("v 1 -inf 2\n") == "m.obj:1: coordinate \"-inf\" is not finite");
  CHECK(objError("v 1e999 0 0\n") == "m.obj:1: number \"1e999\" is out of range");
  CHECK(objError("v 1e-999 0 0\n") == "m.obj:1: number \"1e-999\" is out of range");
  CHECK(objError(tri + "f 1 2\n") == "m.obj:4: face has 2 vertices (needs at least 3)");
  CHECK(objError(tri + "f\n") == "m.obj:4: face has 0 vertices (needs at least 3)");
  CHECK(objError(tri + "f 1 0 2\n") ==
        "m.obj:4: face index 0: indices count from 1 (negative ones back from the last vertex)");
  CHECK(objError(tri + "f 1 2 4\n") == "m.obj:4: face index 4 out of range (3 vertices)");
  CHECK(objError(tri + "f 1 2 99999999999999999999\n") ==
        "m.obj:4: face index 99999999999999999999 out of range (3 vertices)");
  CHECK(objError("v 0 0 0\nv 1 0 0\nf 1 2 -3\nv 0 1 0\n") ==
        "m.obj:3: face index -3 out of range (2 vertices before this line)");
  CHECK(objError(tri + "f 1 2 x\n") == "m.obj:4: bad face vertex \"x\" (i, i/t, i//n or i/t/n)");
  CHECK(objError(tri + "f 1 2 3/\n") == "m.obj:4: bad face vertex \"3/\" (i, i/t, i//n or i/t/n)");
  CHECK(objError(tri + "f 1 2 3//\n") ==
        "m.obj:4: bad face vertex \"3//\" (i, i/t, i//n or i/t/n)");
  CHECK(objError(tri + "f 1 2 3/1/1/1\n") ==
        "m.obj:4: bad face vertex \"3/1/1/1\" (i, i/t, i//n or i/t/n)");
  CHECK(objError(tri + "f 1 2 /3\n") == "m.obj:4: bad face vertex \"/3\" (i, i/t, i//n or i/t/n)");
  CHECK(objError(tri + "f 1.5 2 3\n") ==
        "m.obj:4: bad face vertex \"1.5\" (i, i/t, i//n or i/t/n)");
  CHECK(objError(tri + "f 1 2 3 -3\n") == "m.obj:4: face lists vertex 1 twice");
  CHECK(objError(tri) == "m.obj: no faces (f lines): nothing to build");
  CHECK(objError("") == "m.obj: no faces (f lines): nothing to build");
}

TEST_CASE("obj reader: the contract's example, a face before the last vertices") {
  // line 12 names vertex 40 of a file of 31 vertices (INTERFACE.md's example message)
  std::string text;
  for (int i = 0; i < 11; ++i) text += "v " + std::to_string(i) + " 0 0\n";
  text += "f 1 2 40\n";
  for (int i = 11; i < 31; ++i) text += "v " + std::to_string(i) + " 0 0\n";
  CHECK_THROWS_WITH_AS(scene::parseObj(text, "flag.obj"),
                       "flag.obj:12: face index 40 out of range (31 vertices)", scene::Error);
}

TEST_CASE("obj reader: a file that cannot be opened, a folder") {
  CHECK_THROWS_WITH_AS(scene::readObj("/nonexistent/springlab/x.obj", "x.obj"),
                       "x.obj: cannot open the file", scene::Error);
  CHECK_THROWS_WITH_AS(scene::readObj("/tmp", "tmp"), "tmp: is a folder, not a file", scene::Error);
}

TEST_CASE("obj reader: a 100 000-vertex grid reads exactly") {
  // 317 x 317 = 100 489 vertices at multiples of 1/4 (exact in binary), one quad per cell
  constexpr int kSide = 317;
  std::string text;
  text.reserve(size_t(kSide) * kSide * 48);
  for (int j = 0; j < kSide; ++j)
    for (int i = 0; i < kSide; ++i)
      text += "v " + std::to_string(i * 0.25) + " " + std::to_string(j * -0.25) + " 1.5\n";
  auto id = [](int i, int j) { return j * kSide + i; };
  for (int j = 0; j + 1 < kSide; ++j)
    for (int i = 0; i + 1 < kSide; ++i)
      text += "f " + std::to_string(id(i, j) + 1) + "/1/1 " + std::to_string(id(i + 1, j) + 1) +
              " " + std::to_string(id(i + 1, j + 1) + 1) + "//2 " +
              std::to_string(id(i, j + 1) + 1) + "\n";
  const auto m = obj(text);
  REQUIRE(m.vertices.size() == size_t(kSide) * kSide);
  REQUIRE(m.triangles.size() == size_t(2 * (kSide - 1) * (kSide - 1)));
  for (int j = 0; j < kSide; j += 37)
    for (int i = 0; i < kSide; i += 41)
      CHECK(m.vertices[size_t(id(i, j))] == Vec3(i * 0.25, j * -0.25, 1.5));
  const size_t cell = size_t(200 * (kSide - 1) + 100);  // cell (100, 200)
  CHECK(m.triangles[2 * cell] == Tri{id(100, 200), id(101, 200), id(101, 201)});
  CHECK(m.triangles[2 * cell + 1] == Tri{id(100, 200), id(101, 201), id(100, 201)});
}

TEST_CASE("obj reader: the transform scales, then rotates about x, y, z in turn, then translates") {
  constexpr double kTol = 1e-15;
  auto near = [](const Vec3& a, const Vec3& b) { return (a - b).norm() < kTol; };
  scene::MeshTransform t;
  CHECK(scene::applyTransform(t, Vec3(1, 2, 3)) == Vec3(1, 2, 3));
  t.scale = 2;
  t.translate = Vec3(1, 1, 1);
  CHECK(scene::applyTransform(t, Vec3(1, 2, 3)) == Vec3(3, 5, 7));
  // x first: (1,0,0) stays under x, then y turns it to -z; y first would end at +y
  t = {};
  t.rotate_deg = Vec3(90, 90, 0);
  CHECK(near(scene::applyTransform(t, Vec3(1, 0, 0)), Vec3(0, 0, -1)));
  // x turns +y to +z, which z leaves; z first would end at -x
  t.rotate_deg = Vec3(90, 0, 90);
  CHECK(near(scene::applyTransform(t, Vec3(0, 1, 0)), Vec3(0, 0, 1)));
  // scale before the turn, translation after it: (1,0,0) -> (2,0,0) -> (0,2,0) -> (0,2,5)
  t = {};
  t.scale = 2;
  t.rotate_deg = Vec3(0, 0, 90);
  t.translate = Vec3(0, 0, 5);
  CHECK(near(scene::applyTransform(t, Vec3(1, 0, 0)), Vec3(0, 2, 5)));
}
