// OBJ meshes in (docs/scenes.md#mesh): the reader's subset and every one of its errors, the
// transform's order; the mesh generator's particles, springs, masses, pins and errors; the
// built-in scenes that use it.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "scene/catalog.hpp"
#include "scene/generators.hpp"
#include "scene/load.hpp"
#include "scene/mesh_generator.hpp"
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
  // line 12 names vertex 40 of a file of 31 vertices (the example message of docs/scenes.md#mesh)
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

TEST_CASE("obj reader: a binary file is not a text OBJ, said with its first non-text byte") {
  // a binary STL: an 80-byte header, then a 32-bit triangle count
  std::string stl = "solid-looking header" + std::string(60, ' ');
  stl += std::string("\x02\x00\x00\x00", 4);
  CHECK(objError(stl) ==
        "m.obj: not a text OBJ file (byte 0x02 at offset 80): springlab reads Wavefront OBJ text "
        "(v and f lines)");
  // a NUL anywhere, and DEL; tabs, CR, form feeds and UTF-8 in comments are text
  CHECK(objError(std::string("v 0 0 0\nv 1 0 0\0", 16)) ==
        "m.obj: not a text OBJ file (byte 0x00 at offset 15): springlab reads Wavefront OBJ text "
        "(v and f lines)");
  CHECK(
      objError("v 0 0 0\x7f\n").starts_with("m.obj: not a text OBJ file (byte 0x7f at offset 7)"));
  CHECK(obj("# caf\xc3\xa9\f\r\nv 0 0 0\nv\t1 0 0\nv 0 1 0\r\nf 1 2 3\n").triangles.size() == 1);
  // an empty file is still one of no faces
  CHECK(objError("") == "m.obj: no faces (f lines): nothing to build");
}

TEST_CASE("obj reader: limits: a 10^9-vertex file is an error, never an allocation") {
  const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  // a count in a comment is not trusted: the `v` lines are counted, and an index checked on them
  CHECK(objError("# 1000000000 vertices\n" + tri + "f 1 2 1000000000\n") ==
        "m.obj:5: face index 1000000000 out of range (3 vertices)");
  // more `v` lines than a scene may have particles: refused after counting, before storing
  std::string many;
  many.reserve(8 * 4'000'001);
  for (int i = 0; i < 4'000'001; ++i) many += "v 0 0 0\n";
  CHECK(objError(many) ==
        "m.obj: 4000001 vertices (v lines), more than the 4000000 a mesh may have");
  // more triangles than a scene may have, on the line that passes the limit: nine vertices and
  // heptagon fans of seven triangles each
  std::string fans;
  for (int i = 1; i <= 9; ++i) fans += "v " + std::to_string(i) + " 0 0\n";
  const int faces = (scene::kMaxObjTriangles + 7) / 7;  // the first face that passes
  for (int i = 0; i < faces; ++i) fans += "f 1 2 3 4 5 6 7 8 9\n";
  CHECK(objError(fans) == "m.obj:" + std::to_string(9 + faces) +
                              ": more than 8000000 triangles, the most a mesh may have");
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

namespace {

namespace fs = std::filesystem;

// A folder of the test's own under /tmp, removed with everything in it at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string name = "/tmp/springlab_mesh_XXXXXX";
    path = ::mkdtemp(name.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
  }
};

// A 1 m x 1 m square in the x-y plane of 3 x 3 vertices 0.5 m apart, row by row from y = 0, each
// cell cut along its rising diagonal: 8 triangles, 16 distinct edges (6 across, 6 up, 4
// diagonals), 8 of them inside (shared by two triangles).
const std::string kGrid =
    "v 0 0 0\nv 0.5 0 0\nv 1 0 0\n"
    "v 0 0.5 0\nv 0.5 0.5 0\nv 1 0.5 0\n"
    "v 0 1 0\nv 0.5 1 0\nv 1 1 0\n"
    "f 1 2 5\nf 1 5 4\nf 2 3 6\nf 2 6 5\nf 4 5 8\nf 4 8 7\nf 5 6 9\nf 5 9 8\n";

// A scene whose one generator is the mesh entry `{"kind": "mesh", <keys>}`.
std::string meshScene(const std::string& keys) {
  return R"({"name": "m", "integrator": "symplectic_euler", "system": {"type": "mass_spring",
             "generators": [{"kind": "mesh", )" +
         keys + "}]}}";
}

// The scene `keys` loaded from a file in `dir` (beside which the meshes are written).
scene::SceneDef loadMesh(const TempDir& dir, const std::string& keys) {
  dir.write("scene.json", meshScene(keys));
  return scene::loadFile(dir / "scene.json");
}

std::string loadError(const TempDir& dir, const std::string& keys) {
  try {
    loadMesh(dir, keys);
  } catch (const scene::Error& e) {
    return e.what();
  }
  return "";
}

std::set<std::pair<int, int>> springPairs(const scene::MassSpringDef& ms, size_t from, size_t to) {
  std::set<std::pair<int, int>> pairs;
  for (size_t k = from; k < to; ++k)
    pairs.insert(
        {std::min(ms.springs[k].a, ms.springs[k].b), std::max(ms.springs[k].a, ms.springs[k].b)});
  return pairs;
}

}  // namespace

TEST_CASE("mesh generator: a particle per vertex, a spring per distinct edge, the mass by area") {
  TempDir dir;
  dir.write("grid.obj", kGrid);
  const auto def = loadMesh(dir, R"("file": "grid.obj", "mass": 2, "stiffness": 300,
                                    "damping": 0.25)");
  const auto& ms = def.mass_spring;
  REQUIRE(ms.particles.size() == 9);
  REQUIRE(ms.springs.size() == 16);
  const std::set<std::pair<int, int>> edges = {{0, 1}, {1, 2}, {3, 4}, {4, 5}, {6, 7}, {7, 8},
                                               {0, 3}, {3, 6}, {1, 4}, {4, 7}, {2, 5}, {5, 8},
                                               {0, 4}, {1, 5}, {3, 7}, {4, 8}};
  CHECK(springPairs(ms, 0, 16) == edges);
  for (const auto& sp : ms.springs) {
    CHECK(sp.stiffness == 300);
    CHECK(sp.damping == 0.25);
    CHECK(!sp.rest_length);  // the initial distance
  }
  // each triangle's area is 1/8 m^2; a vertex carries a third of each of its triangles': the
  // centre (6 triangles) 1/4 of the mass, the corners on the diagonal (2) 1/12, the others (1)
  // 1/24, the edges' middles (3) 1/8
  const double expected[9] = {1.0 / 12, 1.0 / 8,  1.0 / 24, 1.0 / 8, 1.0 / 4,
                              1.0 / 8,  1.0 / 24, 1.0 / 8,  1.0 / 12};
  double total = 0;
  for (int i = 0; i < 9; ++i) {
    CHECK(ms.particles[size_t(i)].mass == doctest::Approx(2 * expected[i]).epsilon(1e-14));
    CHECK(!ms.particles[size_t(i)].fixed);
    total += ms.particles[size_t(i)].mass;
  }
  CHECK(total == doctest::Approx(2.0).epsilon(1e-14));
  // the mesh's triangles are the drawn surface, in file order
  REQUIRE(ms.triangles.size() == 8);
  CHECK(ms.triangles[0] == Tri{0, 1, 4});
  CHECK(ms.triangles[7] == Tri{4, 8, 7});
}

TEST_CASE("mesh generator: bending springs join the vertices across each interior edge") {
  TempDir dir;
  dir.write("grid.obj", kGrid);
  const auto def = loadMesh(dir, R"("file": "grid.obj", "mass": 1, "stiffness": 300,
                                    "bending_stiffness": 2)");
  const auto& ms = def.mass_spring;
  REQUIRE(ms.springs.size() == 16 + 8);
  // across 0-4: 1 (of 0 1 4) and 3 (of 0 4 3); across 1-4: 0 and 5; across 3-4: 0 and 7; ...
  const std::set<std::pair<int, int>> across = {{1, 3}, {0, 5}, {0, 7}, {2, 4},
                                                {1, 8}, {4, 6}, {5, 7}, {3, 8}};
  CHECK(springPairs(ms, 16, 24) == across);
  for (size_t k = 16; k < 24; ++k) CHECK(ms.springs[k].stiffness == 2);
}

TEST_CASE("mesh generator: pin and pin_box fix vertices, the transform places them") {
  TempDir dir;
  dir.write("grid.obj", kGrid);
  // scale 2, then 90 degrees about z, then up 1: (x, y, 0) -> (-2y, 2x + 1, 0)
  const auto def = loadMesh(dir, R"("file": "grid.obj", "mass": 1, "stiffness": 300,
      "scale": 2, "rotate": [0, 0, 90], "translate": [0, 1, 0], "pin": [0, 2],
      "pin_box": [[-2.5, 0, -1], [-1.5, 4, 1]])");
  const auto& ms = def.mass_spring;
  constexpr double kTol = 1e-14;
  CHECK((ms.particles[1].position - Vec3(0, 2, 0)).norm() < kTol);
  CHECK((ms.particles[5].position - Vec3(-1, 3, 0)).norm() < kTol);
  // pinned: 0 and 2 by index; 6, 7, 8 (y = 1, now x = -2) by the box
  std::vector<int> fixed;
  for (int i = 0; i < 9; ++i)
    if (ms.particles[size_t(i)].fixed) fixed.push_back(i);
  CHECK(fixed == std::vector<int>{0, 2, 6, 7, 8});
  // a fixed particle carries no mass; the free ones keep their shares of the whole (scaled) mesh
  double freeMass = 0;
  for (const auto& p : ms.particles) freeMass += p.mass;
  CHECK(freeMass == doctest::Approx(1.0 / 8 + 1.0 / 8 + 1.0 / 4 + 1.0 / 8).epsilon(1e-14));
}

TEST_CASE("mesh generator: paths are relative to the scene's folder") {
  TempDir dir;
  fs::create_directories(dir.path / "scenes");
  fs::create_directories(dir.path / "meshes");
  dir.write("meshes/grid.obj", kGrid);
  dir.write("scenes/s.json",
            meshScene(R"("file": "../meshes/grid.obj", "mass": 1, "stiffness": 300)"));
  CHECK(scene::loadFile(dir / "scenes/s.json").mass_spring.particles.size() == 9);
  // and an absolute path is itself
  dir.write("scenes/a.json", meshScene(R"("file": ")" + dir / "meshes/grid.obj" +
                                       R"(", "mass": 1, "stiffness": 3)"));
  CHECK(scene::loadFile(dir / "scenes/a.json").mass_spring.particles.size() == 9);
}

TEST_CASE("mesh generator: every bad mesh or key is one line naming the file and the place") {
  TempDir dir;
  const std::string d = dir.path.string() + "/";
  const std::string at = d + "scene.json: system.generators[0].";
  dir.write("grid.obj", kGrid);
  const std::string k = R"("mass": 1, "stiffness": 300)";
  // the OBJ's own errors, through the scene: the scene and the key that named the file first
  std::string flag;
  for (int i = 0; i < 11; ++i) flag += "v " + std::to_string(i) + " 0 0\n";
  flag += "f 1 2 40\n";
  for (int i = 11; i < 31; ++i) flag += "v " + std::to_string(i) + " 0 0\n";
  dir.write("flag.obj", flag);
  CHECK(loadError(dir, R"("file": "flag.obj", )" + k) ==
        at + "file: " + d + "flag.obj:12: face index 40 out of range (31 vertices)");
  CHECK(loadError(dir, R"("file": "nope.obj", )" + k) ==
        at + "file: " + d + "nope.obj: cannot open the file");
  CHECK(loadError(dir, R"("file": "", )" + k) == at + "file: must name an OBJ file");
  dir.write("lone.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 5 5 5\nf 1 2 3\n");
  CHECK(loadError(dir, R"("file": "lone.obj", )" + k) ==
        at + "file: " + d + "lone.obj:4: vertex 3 (0-based) is in no triangle");
  dir.write("twice.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 2 1 3\n");
  CHECK(loadError(dir, R"("file": "twice.obj", )" + k) ==
        at + "file: " + d + "twice.obj:5: a triangle of this face repeats one of line 4");
  // a square and a sliver on its bottom edge: vertex 4 has no area
  dir.write("flat.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 0 0\nf 1 2 3 4\nf 1 5 2\n");
  CHECK(loadError(dir, R"("file": "flat.obj", )" + k) ==
        at + "file: " + d +
            "flat.obj:5: vertex 4 (0-based) has no area to carry its mass: its triangles are "
            "degenerate");
  // three triangles on the edge 0-1: fine without bending springs, an error with them
  dir.write("fan.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0 -1 0\nf 1 2 3\nf 1 2 4\nf 2 1 5\n");
  CHECK(loadError(dir, R"("file": "fan.obj", )" + k) == "");
  CHECK(loadError(dir, R"("file": "fan.obj", "bending_stiffness": 1, )" + k) ==
        at + "file: " + d +
            "fan.obj:8: edge 0-1 (0-based) is shared by 3 triangles (lines 6, 7, 8): bending "
            "springs need at most 2");
  // the keys
  const std::string g = R"("file": "grid.obj", )" + k;
  CHECK(loadError(dir, g + R"(, "pin": [0, 9])") ==
        at + "pin[1]: must be a vertex index between 0 and 8 (got 9)");
  CHECK(loadError(dir, g + R"(, "pin": [-1])") ==
        at + "pin[0]: must be a vertex index between 0 and 8 (got -1)");
  CHECK(loadError(dir, g + R"(, "pin": [1.5])") ==
        at + "pin[0]: must be a vertex index between 0 and 8, not 1.5");
  CHECK(loadError(dir, g + R"(, "pin": 3)") ==
        at + "pin: must be an array of vertex indices (0-based)");
  CHECK(loadError(dir, g + R"(, "pin_box": [[2, 2, 2], [3, 3, 3]])") ==
        at + "pin_box: pins no vertex: the mesh spans [0, 0, 0] to [1, 1, 0] after its transform");
  CHECK(loadError(dir, g + R"(, "pin_box": [[0, 2, 0], [1, 1, 1]])") ==
        at + "pin_box: its min must not exceed its max (y: 2 > 1)");
  CHECK(loadError(dir, g + R"(, "pin_box": [[0, 0, 0]])") ==
        at + "pin_box: must be [[min x, y, z], [max x, y, z]]");
  CHECK(loadError(dir, g + R"(, "pin_box": [[0, 0, 0], [1, "a", 1]])") ==
        at + "pin_box[1][1]: must be a number, not a string");
  CHECK(loadError(dir, g + R"(, "scale": 0)") == at + "scale: must be > 0 (got 0)");
  CHECK(loadError(dir, g + R"(, "bending_stiffness": -1)") ==
        at + "bending_stiffness: must be >= 0 (got -1)");
  CHECK(loadError(dir, R"("file": "grid.obj", "stiffness": 300)") ==
        at + "mass: required key is missing");
}

TEST_CASE("mesh generator: a built-in scene's meshes are the embedded assets/meshes") {
  const auto names = scene::builtinMeshNames();
  CHECK(names == std::vector<std::string>{"flag_hole.obj", "icosphere.obj", "tablecloth.obj"});
  const std::string text = meshScene(R"("file": "../meshes/nope.obj", "mass": 1, "stiffness": 1)");
  CHECK_THROWS_WITH_AS(scene::parse(text, "builtin:x"),
                       "builtin:x: system.generators[0].file: no built-in mesh "
                       "\"meshes/nope.obj\" (a built-in scene names ../meshes/NAME.obj, one of: "
                       "flag_hole.obj, icosphere.obj, tablecloth.obj)",
                       scene::Error);
  const std::string sphere =
      meshScene(R"("file": "../meshes/icosphere.obj", "mass": 1, "stiffness": 1)");
  const auto def = scene::parse(sphere, "builtin:x");
  CHECK(def.mass_spring.particles.size() == 162);
  CHECK(def.mass_spring.springs.size() == 480);
}

TEST_CASE("mesh generator: the built-in mesh scenes load, the same from the repository's files") {
  // counts from scripts/make_meshes.py's report: vertices; edges + interior edges
  struct Expected {
    const char* name;
    size_t particles, springs, triangles, pinned;
  };
  const Expected scenes[] = {{"tablecloth_on_sphere", 1801, 5256 + 5112, 3456, 0},
                             {"flag_in_wind", 1206, 3453 + 3288, 2247, 28}};
  for (const Expected& e : scenes) {
    CAPTURE(e.name);
    const auto def = scene::loadSceneArg(e.name);
    const auto& ms = def.mass_spring;
    CHECK(ms.particles.size() == e.particles);
    CHECK(ms.springs.size() == e.springs);
    CHECK(ms.triangles.size() == e.triangles);
    size_t pinned = 0;
    for (const auto& p : ms.particles) pinned += p.fixed;
    CHECK(pinned == e.pinned);
    const auto fromFile =
        scene::loadFile(std::string(SPRINGLAB_SOURCE_DIR) + "/assets/scenes/" + e.name + ".json");
    REQUIRE(fromFile.mass_spring.particles.size() == e.particles);
    for (size_t i = 0; i < e.particles; ++i)
      CHECK(fromFile.mass_spring.particles[i].position == ms.particles[i].position);
  }
}

TEST_CASE("mesh generator: a 100 000-vertex mesh: its counts and its whole mass") {
  constexpr int kSide = 317;  // 100 489 vertices
  std::string text;
  for (int j = 0; j < kSide; ++j)
    for (int i = 0; i < kSide; ++i)
      text += "v " + std::to_string(i * 0.25) + " " + std::to_string(j * 0.25) + " 0\n";
  for (int j = 0; j + 1 < kSide; ++j)
    for (int i = 0; i + 1 < kSide; ++i) {
      const int a = j * kSide + i + 1;
      text += "f " + std::to_string(a) + " " + std::to_string(a + 1) + " " +
              std::to_string(a + kSide + 1) + " " + std::to_string(a + kSide) + "\n";
    }
  const auto mesh = scene::parseObj(text, "big.obj");
  scene::MassSpringDef out;
  scene::MeshParams p;
  p.mass = 3.0;
  p.bending_stiffness = 1.0;
  scene::addMesh(out, mesh, p, "big.obj");
  const size_t n = kSide, cells = (n - 1) * (n - 1);
  const size_t edges = 2 * n * (n - 1) + cells, boundary = 4 * (n - 1);
  CHECK(out.particles.size() == n * n);
  CHECK(out.springs.size() == edges + (edges - boundary));
  double total = 0;
  for (const auto& q : out.particles) total += q.mass;
  // summed over 100 000 shares: round-off of about n * 1e-16
  CHECK(total == doctest::Approx(3.0).epsilon(1e-10));
}

TEST_CASE("mesh generator: a cloth's coarse surfaces cover a mesh added after it") {
  scene::MassSpringDef out;
  scene::ClothParams c;
  c.nx = c.ny = 128;  // fine enough for a shadow mesh and surface levels
  scene::addCloth(out, c);
  REQUIRE(!out.shadow_triangles.empty());
  REQUIRE(!out.surface_levels.empty());
  const size_t shadow = out.shadow_triangles.size(), level0 = out.surface_levels[0].size();
  scene::addMesh(out, obj(kGrid), scene::MeshParams{}, "grid.obj");
  CHECK(out.shadow_triangles.size() == shadow + 8);
  CHECK(out.surface_levels[0].size() == level0 + 8);
  CHECK(out.surface_levels[0].back() == Tri{128 * 128 + 4, 128 * 128 + 8, 128 * 128 + 7});
}

TEST_CASE(
    "obj reader: limits: a file over 256 MiB is refused unread, a FIFO with no writer is empty") {
  TempDir dir;
  const std::string big = dir / "big.obj";
  dir.write("big.obj", " ");
  fs::resize_file(big, (std::size_t(256) << 20) + 1);  // sparse: nothing is written
  CHECK_THROWS_WITH_AS(scene::readObj(big, "big.obj"), "big.obj: larger than 256 MiB",
                       scene::Error);
  // a FIFO is read as a pipe: with no writer it has ended, at once (util/bounded_file.hpp)
  REQUIRE(::mkfifo((dir / "fifo.obj").c_str(), 0600) == 0);
  CHECK_THROWS_WITH_AS(scene::readObj(dir / "fifo.obj", "fifo.obj"),
                       "fifo.obj: no faces (f lines): nothing to build", scene::Error);
  // the same through a scene's mesh generator, and its lattice
  const std::string k = R"("mass": 1, "stiffness": 300)";
  const std::string at = dir / "scene.json: system.generators[0].file: ";
  // (the file's contents' problem is its own "FILE: what", under the key, as for any mesh)
  CHECK(loadError(dir, R"("file": "fifo.obj", )" + k) ==
        at + (dir / "fifo.obj: no faces (f lines): nothing to build"));
  CHECK(loadError(dir, R"("file": "big.obj", )" + k) ==
        at + (dir / "big.obj: larger than 256 MiB"));
}
