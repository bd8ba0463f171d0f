// The lattice generator (docs/scenes.md#lattice): counts in closed form, the surface, the
// ellipsoid's fill, pins, errors, the jelly cube's bounce and the jelly ball's surface.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>
#include <set>
#include <string>

#include <Eigen/Geometry>

#include "scene/build.hpp"
#include "scene/lattice.hpp"
#include "scene/load.hpp"
#include "sim/stepper.hpp"
#include "util.hpp"

namespace {

using scene::Vec3;

// A scene of one lattice generator with the given keys (a JSON object's inside).
std::string latticeScene(const std::string& keys) {
  return R"({"integrator": "xpbd", "system": {"type": "mass_spring", "generators": [
            {"kind": "lattice", "mass": 2, "stiffness": 100, )" +
         keys + "}]}}";
}

scene::MassSpringDef loadLattice(const std::string& keys) {
  return scene::parse(latticeScene(keys), "t.json").mass_spring;
}

std::string errorOf(const std::string& keys) {
  try {
    scene::parse(latticeScene(keys), "t.json");
  } catch (const scene::Error& e) {
    return e.what();
  }
  return "(no error)";
}

Vec3 at(const scene::MassSpringDef& d, int i) {
  return d.particles[size_t(i)].position;
}

// The volume the triangles enclose (divergence theorem): positive when they are wound outward.
double enclosedVolume(const std::vector<std::array<int, 3>>& tris,
                      const std::function<Vec3(int)>& x) {
  double v = 0;
  for (const auto& t : tris) v += x(t[0]).dot(x(t[1]).cross(x(t[2]))) / 6.0;
  return v;
}

// Every directed edge of the surface once and its reverse once: closed and consistently wound.
bool closedAndConsistent(const std::vector<std::array<int, 3>>& tris) {
  std::map<std::pair<int, int>, int> directed;
  for (const auto& t : tris)
    for (int e = 0; e < 3; ++e) ++directed[{t[size_t(e)], t[size_t((e + 1) % 3)]}];
  for (const auto& [edge, n] : directed) {
    const auto back = directed.find({edge.second, edge.first});
    if (n != 1 || back == directed.end() || back->second != 1) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("lattice box: round(s/h)+1 points per axis, springs by edge, face and body diagonal") {
  // 0.2 / 0.05 = 4, 0.15 / 0.05 = 3, 0.43 / 0.05 = 8.6 -> 9: 5 x 4 x 10 points
  const auto d = loadLattice(
      R"("shape": "box", "size": [0.2, 0.15, 0.43], "spacing": 0.05, "center": [1, 2, 3])");
  const long nx = 5, ny = 4, nz = 10;
  REQUIRE(d.particles.size() == size_t(nx * ny * nz));
  const long edges = (nx - 1) * ny * nz + nx * (ny - 1) * nz + nx * ny * (nz - 1);
  const long faces =
      2 * ((nx - 1) * (ny - 1) * nz + (nx - 1) * ny * (nz - 1) + nx * (ny - 1) * (nz - 1));
  const long bodies = 4 * (nx - 1) * (ny - 1) * (nz - 1);
  CHECK(d.springs.size() == size_t(edges + faces + bodies));
  const double h = 0.05;
  std::map<int, long> byLength;  // rest length / h, squared and rounded: 1, 2 or 3
  for (const auto& s : d.springs) {
    const double l2 = (at(d, s.b) - at(d, s.a)).squaredNorm() / (h * h);
    const int kind = static_cast<int>(std::lround(l2));
    CHECK(l2 == doctest::Approx(kind));
    ++byLength[kind];
    CHECK(s.stiffness == (kind == 1 ? 100.0 : 50.0));  // shear_stiffness: stiffness / 2
  }
  CHECK(byLength[1] == edges);
  CHECK(byLength[2] == faces);
  CHECK(byLength[3] == bodies);
  Vec3 lo = at(d, 0), hi = lo, sum = Vec3::Zero();
  double mass = 0;
  for (const auto& p : d.particles) {
    lo = lo.cwiseMin(p.position), hi = hi.cwiseMax(p.position), sum += p.position;
    mass += p.mass;
    CHECK(!p.fixed);
  }
  CHECK(mass == doctest::Approx(2.0).epsilon(1e-14));
  CHECK((hi - lo - Vec3((nx - 1) * h, (ny - 1) * h, (nz - 1) * h)).norm() < 1e-12);
  CHECK((0.5 * (lo + hi) - Vec3(1, 2, 3)).norm() < 1e-12);
}

TEST_CASE("lattice box: shear_stiffness, damping and velocity reach every spring and particle") {
  const auto d = loadLattice(
      R"("size": [0.1, 0.1, 0.1], "spacing": 0.05, "shear_stiffness": 7, "damping": 0.25,
         "velocity": [1, -2, 3])");
  CHECK(d.particles.size() == 27);  // "shape" defaults to "box"
  for (const auto& s : d.springs) {
    const double l = (at(d, s.b) - at(d, s.a)).norm();
    CHECK(s.stiffness == (l < 0.06 ? 100.0 : 7.0));
    CHECK(s.damping == 0.25);
    CHECK(!s.rest_length);  // the initial distance
  }
  for (const auto& p : d.particles) CHECK(p.velocity == Vec3(1, -2, 3));
}

TEST_CASE("lattice box: bending_stiffness adds a spring two cells along each axis, and only then") {
  const std::string keys = R"("size": [0.2, 0.15, 0.45], "spacing": 0.05, "damping": 0.25)";
  const long nx = 5, ny = 4, nz = 10;
  const auto plain = loadLattice(keys);
  const auto bent = loadLattice(keys + R"(, "bending_stiffness": 30)");
  const long bending = (nx - 2) * ny * nz + nx * (ny - 2) * nz + nx * ny * (nz - 2);
  REQUIRE(bent.springs.size() == plain.springs.size() + size_t(bending));
  long twoCells = 0;
  for (const auto& s : bent.springs) {
    const Vec3 d = at(bent, s.b) - at(bent, s.a);
    if (std::abs(d.norm() - 0.1) > 1e-12) continue;
    ++twoCells;
    CHECK((d.cwiseAbs().array() > 1e-12).count() == 1);  // along one axis
    CHECK(s.stiffness == 30.0);
    CHECK(s.damping == 0.25);
  }
  CHECK(twoCells == bending);
  CHECK(errorOf(keys + R"(, "bending_stiffness": -1)") ==
        "t.json: system.generators[0].bending_stiffness: must be >= 0 (got -1)");
}

TEST_CASE("lattice box surface: two triangles per boundary cell face, closed and wound outward") {
  const auto d = loadLattice(R"("size": [0.2, 0.15, 0.1], "spacing": 0.05, "center": [0, 1, 0])");
  const long cx = 4, cy = 3, cz = 2;  // cells per axis
  REQUIRE(d.triangles.size() == size_t(2 * 2 * (cx * cy + cy * cz + cx * cz)));
  CHECK(closedAndConsistent(d.triangles));
  const Vec3 c(0, 1, 0);
  for (const auto& t : d.triangles) {
    const Vec3 a = at(d, t[0]), b = at(d, t[1]), e = at(d, t[2]);
    const Vec3 n = (b - a).cross(e - a);
    CHECK(n.dot((a + b + e) / 3.0 - c) > 0);  // outward, on a convex body
    // on the box's boundary: one coordinate at its extreme for all three corners
    const Vec3 half(0.1, 0.075, 0.05);
    bool onFace = false;
    for (int k = 0; k < 3; ++k)
      for (double s : {-1.0, 1.0})
        onFace = onFace || (std::abs(a[k] - c[k] - s * half[k]) < 1e-12 &&
                            std::abs(b[k] - c[k] - s * half[k]) < 1e-12 &&
                            std::abs(e[k] - c[k] - s * half[k]) < 1e-12);
    CHECK(onFace);
  }
  const double v = enclosedVolume(d.triangles, [&](int i) { return at(d, i); });
  CHECK(v == doctest::Approx(0.2 * 0.15 * 0.1).epsilon(1e-12));
}

TEST_CASE("lattice ellipsoid: every grid point inside it is a particle, and none outside") {
  const Vec3 c(0.3, 1, -0.2), diam(0.5, 0.3, 0.4);
  const double h = 0.05;
  const auto d = loadLattice(
      R"("shape": "ellipsoid", "size": [0.5, 0.3, 0.4], "spacing": 0.05, "center": [0.3, 1, -0.2])");
  // the box's grid: 11 x 7 x 9 points centred on c
  std::set<std::array<long, 3>> expected, got;
  for (int k = 0; k < 9; ++k)
    for (int j = 0; j < 7; ++j)
      for (int i = 0; i < 11; ++i) {
        const Vec3 u = Vec3((i - 5) * h, (j - 3) * h, (k - 4) * h).cwiseQuotient(0.5 * diam);
        if (u.squaredNorm() <= 1 + 1e-9) expected.insert({i, j, k});
      }
  double mass = 0;
  for (const auto& p : d.particles) {
    const Vec3 g = (p.position - c) / h;
    got.insert({std::lround(g.x()) + 5, std::lround(g.y()) + 3, std::lround(g.z()) + 4});
    mass += p.mass;
  }
  CHECK(got == expected);
  CHECK(expected.count({0, 3, 4}) == 1);  // the rim's extreme points (on the surface) included
  CHECK(expected.count({5, 0, 4}) == 1);
  CHECK(mass == doctest::Approx(2.0).epsilon(1e-14));
  // the rim rule: every particle has a spring; the surface is closed, outward, inside the grid
  std::vector<int> springsOf(d.particles.size(), 0);
  for (const auto& s : d.springs) ++springsOf[size_t(s.a)], ++springsOf[size_t(s.b)];
  CHECK(*std::min_element(springsOf.begin(), springsOf.end()) > 0);
  CHECK(closedAndConsistent(d.triangles));
  const double v = enclosedVolume(d.triangles, [&](int i) -> Vec3 { return at(d, i) - c; });
  const double ellipsoid = std::numbers::pi / 6 * diam.prod();
  CHECK(v > 0.45 * ellipsoid);  // 6 cells across its shortest diameter: a coarse polytope
  CHECK(v < ellipsoid);
}

TEST_CASE("lattice: a point with no occupied neighbour is left out (it would have no spring)") {
  scene::LatticeGrid g;
  g.n = {4, 4, 4};
  std::vector<char> occupied(64, 0);
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) occupied[size_t(i + 4 * (j + 4 * k))] = 1;
  occupied[63] = 1;  // (3, 3, 3): its nearest occupied point is (1, 1, 1), two cells away
  scene::MassSpringDef d;
  const auto counts = scene::addLattice(d, g, occupied, {});
  CHECK(counts.particles == 8);
  CHECK(d.particles.size() == 8);
  CHECK(d.springs.size() == 12 + 12 + 4);
  CHECK(d.triangles.size() == 12);
}

TEST_CASE("lattice pin_box: the particles inside it are fixed, and stay where they are") {
  const std::string text = R"({"integrator": "xpbd", "dt": 0.01, "substeps": 4,
    "system": {"type": "mass_spring", "generators": [{"kind": "lattice", "size": [0.2, 0.3, 0.1],
      "spacing": 0.05, "center": [0, 1, 0], "mass": 1, "stiffness": 100,
      "pin_box": [[-1, 1.149, -1], [1, 1.151, 1]]}]}})";
  const auto def = scene::parse(text, "t.json");
  const auto& ps = def.mass_spring.particles;
  int pinned = 0;
  double free = 0;
  for (const auto& p : ps) {
    pinned += p.fixed;
    CHECK(p.fixed == (std::abs(p.position.y() - 1.15) < 1e-9));
    free += p.mass;
  }
  CHECK(pinned == 5 * 3);  // the top layer
  CHECK(free == doctest::Approx(1.0 * (5 * 7 * 3 - 15) / (5 * 7 * 3)).epsilon(1e-14));
  const auto b = scene::build(def);
  const auto st = b.stepper(def.integrator, def.dt);
  REQUIRE(!st->advance(50));
  for (size_t i = 0; i < ps.size(); ++i)
    if (ps[i].fixed) CHECK(st->state().x.segment<3>(3 * Eigen::Index(i)) == ps[i].position);
  CHECK(st->state().x[3 * 0 + 1] < 1.0 - 0.15);  // the bottom sags
}

TEST_CASE("lattice errors: one line naming the key and the problem") {
  const std::string at = "t.json: system.generators[0].";
  CHECK(errorOf(R"("size": [0.4, 0.02, 0.4], "spacing": 0.05)") ==
        at + "size: 0.02 m along y at spacing 0.05 m gives 1 grid point (round(size / spacing) + "
             "1); a lattice needs at least 2 along each axis");
  CHECK(errorOf(R"("size": [1, 1, 1], "spacing": 0.001)") ==
        at + "spacing: 0.001 m makes more than the 1000000 cells a lattice may have");
  CHECK(errorOf(R"("size": [1, 1, 1], "spacing": 1e-300)") ==
        at + "spacing: 1e-300 m makes more than the 1000000 cells a lattice may have");
  CHECK(errorOf(R"("size": [1e300, 1, 1], "spacing": 1e-300)") ==
        at + "spacing: 1e-300 m makes more than the 1000000 cells a lattice may have");
  // 101 x 101 x 101 points: 1 000 000 cells are allowed, one more layer is not
  CHECK(errorOf(R"("size": [1, 1, 1.01], "spacing": 0.01)") ==
        at + "spacing: 0.01 m makes more than the 1000000 cells a lattice may have");
  CHECK(errorOf(R"("shape": "sphere", "size": [1, 1, 1], "spacing": 0.1)") ==
        at + "shape: must be one of box, ellipsoid, mesh, not \"sphere\"");
  CHECK(errorOf(R"("size": [1, 0, 1], "spacing": 0.1)") ==
        at + "size: must be > 0 along y (got 0)");
  CHECK(errorOf(R"("size": [1, 1, 1], "spacing": 0.1, "file": "a.obj")") ==
        at + "file: applies to the mesh shape only");
  CHECK(errorOf(R"("shape": "ellipsoid", "size": [0.05, 0.05, 0.05], "spacing": 0.05)") ==
        "t.json: system.generators[0]: the ellipsoid holds no two neighbouring grid points at "
        "spacing 0.05 m");
  CHECK(errorOf(R"("size": [0.1, 0.1, 0.1], "spacing": 0.05, "pin_box": [[0, 1, 0], [1, 2, 1]])") ==
        at + "pin_box: pins no particle: the lattice spans [-0.05, -0.05, -0.05] to [0.05, 0.05, "
             "0.05]");
  CHECK(errorOf(R"("size": [0.1, 0.1, 0.1], "spacing": 0.05, "pin_box": [[0, 1, 0]])") ==
        at + "pin_box: must be [[min x, y, z], [max x, y, z]]");
  CHECK(errorOf(R"("size": [0.1, 0.1, 0.1], "spacing": 0.05, "pin_box": [[0, 1, 0], 1])") ==
        at + "pin_box[1]: must be an array of 2 or 3 numbers");
  CHECK(errorOf(R"("size": [0.1, 0.1, 0.1], "spacing": 0.05, "pin_box": [[0, 1, 0], [1, 0, 1]])") ==
        at + "pin_box: its min must not exceed its max (y: 1 > 0)");
  CHECK(
      errorOf(R"("size": [0.1, 0.1, 0.1], "spacing": 0.05, "pin_box": [[0, 1, 0], [1, "a", 1]])") ==
      at + "pin_box[1][1]: must be a number, not a string");
  CHECK(errorOf(R"("size": [0.1, 0.1, 0.1])") == at + "spacing: required key is missing");
}

TEST_CASE("jelly_cube: the cube bounces off the floor and keeps its volume within 25 %") {
  const auto def = scene::loadSceneArg("jelly_cube");
  const auto b = scene::build(def);
  std::vector<std::array<int, 3>> tris;
  for (size_t i = 0; i + 2 < b.triangles.size(); i += 3)
    tris.push_back({int(b.triangles[i]), int(b.triangles[i + 1]), int(b.triangles[i + 2])});
  const auto st = b.stepper(def.integrator, def.dt);
  auto volume = [&] {
    const auto& x = st->state().x;
    return enclosedVolume(tris, [&](int i) -> Vec3 { return x.segment<3>(3 * Eigen::Index(i)); });
  };
  const double v0 = volume();
  const Eigen::Index n = st->state().x.size() / 3;
  auto comY = [&] { return st->state().x(Eigen::seq(1, Eigen::last, 3)).sum() / double(n); };
  auto lowest = [&] { return st->state().x(Eigen::seq(1, Eigen::last, 3)).minCoeff(); };
  double contactCom = -1, highAfter = -1, vMin = v0, vMax = v0;
  const long steps = std::lround(2.0 / def.dt);
  for (long k = 0; k < steps; ++k) {
    REQUIRE(!st->advance(1));
    if (contactCom < 0 && lowest() < 1e-6) contactCom = comY();
    if (contactCom >= 0) highAfter = std::max(highAfter, comY());
    vMin = std::min(vMin, volume()), vMax = std::max(vMax, volume());
  }
  REQUIRE(contactCom > 0);
  CHECK(highAfter > contactCom + 0.1);  // a bounce of 10 cm or more
  CHECK(vMin > 0.75 * v0);              // 0.85 measured (docs/scenes.md#lattice)
  CHECK(vMax < 1.25 * v0);
}

TEST_CASE("lattice meshOccupancy: a closed mesh's inside by ray parity, its surface included") {
  // the octahedron |x| + |y| + |z| <= 0.2 on a 9 x 9 x 9 grid of spacing 0.05: grid lines run
  // through its vertices and along its edges, and many grid points lie on its faces
  const std::vector<Vec3> v = {{0.2, 0, 0},  {-0.2, 0, 0}, {0, 0.2, 0},
                               {0, -0.2, 0}, {0, 0, 0.2},  {0, 0, -0.2}};
  const std::vector<std::array<int, 3>> t = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                             {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  CHECK(!scene::openEdge(t));
  const auto [lo, hi] = scene::boundingBox(v);
  CHECK(lo == Vec3(-0.2, -0.2, -0.2));
  CHECK(hi == Vec3(0.2, 0.2, 0.2));
  scene::LatticeGrid g;
  g.n = {9, 9, 9};
  const auto inside = scene::meshOccupancy(g, v, t);
  for (int k = 0; k < 9; ++k)
    for (int j = 0; j < 9; ++j)
      for (int i = 0; i < 9; ++i) {
        CAPTURE(i);
        CAPTURE(j);
        CAPTURE(k);
        CHECK(bool(inside[size_t(i + 9 * (j + 9 * k))]) ==
              (std::abs(i - 4) + std::abs(j - 4) + std::abs(k - 4) <= 4));
      }
  // a torus-like hole is kept: two nested octahedra, the inner one wound inward
  std::vector<Vec3> v2 = v;
  std::vector<std::array<int, 3>> t2 = t;
  for (const Vec3& p : v) v2.push_back(p / 2);
  for (const auto& f : t) t2.push_back({f[0] + 6, f[2] + 6, f[1] + 6});
  const auto shell = scene::meshOccupancy(g, v2, t2);
  CHECK(shell[size_t(4 + 9 * (4 + 9 * 4))] == 0);  // the centre, inside the inner one: out
  CHECK(shell[size_t(4 + 9 * (4 + 9 * 6))] == 1);  // (0, 0, 0.1): on the inner surface, in
  CHECK(shell[size_t(4 + 9 * (4 + 9 * 7))] == 1);  // (0, 0, 0.15): between them
  t2.pop_back();
  CHECK(scene::openEdge(t2) == std::array<int, 2>{6, 9});
}

namespace {

// A closed octahedron |x| + |y| + |z| <= 1 and a cube [-1, 1]^3, outward-wound.
constexpr const char* kOctahedron = R"(v 1 0 0
v -1 0 0
v 0 1 0
v 0 -1 0
v 0 0 1
v 0 0 -1
f 1 3 5
f 3 2 5
f 2 4 5
f 4 1 5
f 3 1 6
f 2 3 6
f 4 2 6
f 1 4 6
)";
constexpr const char* kCube = R"(v -1 -1 -1
v 1 -1 -1
v 1 1 -1
v -1 1 -1
v -1 -1 1
v 1 -1 1
v 1 1 1
v -1 1 1
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 3 4 8 7
f 2 3 7 6
f 1 5 8 4
)";

std::string meshScene(const std::string& obj, const std::string& keys) {
  testutil::writeFile("lattice_mesh.obj", obj);
  const auto scene = testutil::writeFile(
      "lattice_mesh.json", R"({"system": {"type": "mass_spring", "generators": [{"kind":
      "lattice", "shape": "mesh", "file": "lattice_mesh.obj", "mass": 1, "stiffness": 100, )" +
                               keys + "}]}}");
  return scene.string();
}

}  // namespace

TEST_CASE("lattice mesh: the grid points inside a closed mesh, those on its faces included") {
  // the octahedron |x| + |y| + |z| <= 0.2 about (1, 2, 3): rays along grid lines meet its edges
  // and vertices, and many points lie on its faces
  const auto d = scene::loadFile(meshScene(kOctahedron, R"("spacing": 0.05, "scale": 0.2,
      "translate": [1, 2, 3])"))
                     .mass_spring;
  std::set<std::array<long, 3>> expected, got;
  for (int k = -4; k <= 4; ++k)
    for (int j = -4; j <= 4; ++j)
      for (int i = -4; i <= 4; ++i)
        if (std::abs(i) + std::abs(j) + std::abs(k) <= 4) expected.insert({i, j, k});
  for (const auto& p : d.particles) {
    const Vec3 g = (p.position - Vec3(1, 2, 3)) / 0.05;
    CHECK((g - g.array().round().matrix()).norm() < 1e-9);
    got.insert({std::lround(g.x()), std::lround(g.y()), std::lround(g.z())});
  }
  CHECK(got == expected);
  CHECK(closedAndConsistent(d.triangles));
  // a cube rotated 90 degrees about z onto itself: every point of its 5 x 5 x 5 grid, as a box
  const auto c = scene::loadFile(meshScene(kCube, R"("spacing": 0.05, "scale": 0.1,
      "rotate": [0, 0, 90])"))
                     .mass_spring;
  CHECK(c.particles.size() == 125);
  CHECK(c.springs.size() == size_t(3 * 4 * 25 + 2 * 3 * 4 * 4 * 5 + 4 * 4 * 4 * 4));
  CHECK(c.triangles.size() == size_t(2 * 6 * 16));
}

TEST_CASE("lattice mesh: errors name the key, and the file where the mesh is at fault") {
  const std::string at = ": system.generators[0].";
  auto error = [](const std::string& obj, const std::string& keys) -> std::string {
    const std::string path = meshScene(obj, keys);
    try {
      scene::loadFile(path);
    } catch (const scene::Error& e) {
      const std::string what = e.what();
      return what.starts_with(path) ? "SCENE" + what.substr(path.size()) : what;
    }
    return "(no error)";
  };
  const std::string obj = (testutil::tempDir() / "lattice_mesh.obj").lexically_normal().string();
  std::string open = kOctahedron;
  open.resize(open.rfind("f 1 4 6"));  // one face gone
  CHECK(error(open, R"("spacing": 0.1)") ==
        "SCENE" + at + "file: " + obj +
            ": the mesh is not closed: its edge from vertex 1 to 4 (1-based, as in the file) "
            "borders an odd number of triangles");
  CHECK(error(kCube, R"("spacing": 0.1, "size": [1, 1, 1])") ==
        "SCENE" + at + "size: does not apply to the mesh shape: the grid spans its mesh");
  CHECK(error(kCube, R"("spacing": 0.1, "center": [1, 1, 1])") ==
        "SCENE" + at +
            "center: does not apply to the mesh shape: the grid is centred on its mesh (move it "
            "with translate)");
  CHECK(error(kCube, R"("spacing": 0.1, "scale": 0.01)") ==
        "SCENE" + at +
            "file: the mesh spans 0.02 m along x at spacing 0.1 m gives 1 grid point (round(size "
            "/ spacing) + 1); a lattice needs at least 2 along each axis");
  // the file's own problem, under the scene's key that named it
  CHECK(error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", R"("spacing": 0.1)") ==
        "SCENE" + at + "file: " + obj + ":4: face index 4 out of range (3 vertices)");
}

TEST_CASE("jelly_ball: its drawn surface is closed, wound outward and faces out everywhere") {
  const auto def = scene::loadSceneArg("jelly_ball");
  const auto b = scene::build(def);
  std::vector<std::array<int, 3>> tris;
  for (size_t i = 0; i + 2 < b.triangles.size(); i += 3)
    tris.push_back({int(b.triangles[i]), int(b.triangles[i + 1]), int(b.triangles[i + 2])});
  REQUIRE(!tris.empty());
  const auto& x = b.state.x;
  auto pos = [&](int i) -> Vec3 { return x.segment<3>(3 * Eigen::Index(i)); };
  CHECK(closedAndConsistent(tris));
  Vec3 centre = Vec3::Zero();
  const Eigen::Index n = x.size() / 3;
  for (Eigen::Index i = 0; i < n; ++i) centre += pos(int(i)) / double(n);
  CHECK(enclosedVolume(tris, [&](int i) -> Vec3 { return pos(i) - centre; }) > 0);
  // a convex body's surface: every face's normal points away from the centre
  int inward = 0;
  for (const auto& t : tris) {
    const Vec3 a = pos(t[0]), c = pos(t[1]), d = pos(t[2]);
    if ((c - a).cross(d - a).dot((a + c + d) / 3.0 - centre) <= 0) ++inward;
  }
  CHECK(inward == 0);
}

// Issue 41: from the first impact on, ~30 of the ball's 832 surface faces turned inward (rim
// points folded through the points under them and stayed there, the enclosed volume 8 % down for
// good): a dark jagged patch on screen. The whole 4 s demo: no face turns inward, the volume
// stays within 5 % (docs/scenes.md#lattice: 0 faces and 0.974 at the least measured).
TEST_CASE("jelly_ball: for its whole 4 s no surface face turns inward and the volume holds") {
  const auto def = scene::loadSceneArg("jelly_ball");
  const auto b = scene::build(def);
  std::vector<std::array<int, 3>> tris;
  for (size_t i = 0; i + 2 < b.triangles.size(); i += 3)
    tris.push_back({int(b.triangles[i]), int(b.triangles[i + 1]), int(b.triangles[i + 2])});
  const auto st = b.stepper(def.integrator, def.dt);
  const Eigen::Index n = st->state().x.size() / 3;
  auto pos = [&](int i) -> Vec3 { return st->state().x.segment<3>(3 * Eigen::Index(i)); };
  auto centre = [&] {
    Vec3 c = Vec3::Zero();
    for (Eigen::Index i = 0; i < n; ++i) c += pos(int(i)) / double(n);
    return c;
  };
  const double v0 = enclosedVolume(tris, pos);
  double vMin = v0, vMax = v0;
  int worstInward = 0;
  const long steps = std::lround(def.duration / def.dt);
  REQUIRE(steps == 240);
  for (long k = 0; k < steps; ++k) {
    REQUIRE(!st->advance(1));
    const Vec3 c = centre();
    int inward = 0;  // a ball stays convex enough that every face looks away from its centre
    for (const auto& t : tris) {
      const Vec3 a = pos(t[0]), e = pos(t[1]), f = pos(t[2]);
      if ((e - a).cross(f - a).dot((a + e + f) / 3.0 - c) <= 0) ++inward;
    }
    worstInward = std::max(worstInward, inward);
    const double v = enclosedVolume(tris, pos);
    vMin = std::min(vMin, v), vMax = std::max(vMax, v);
  }
  CHECK(worstInward == 0);
  CHECK(vMin > 0.95 * v0);
  CHECK(vMax < 1.05 * v0);
}
