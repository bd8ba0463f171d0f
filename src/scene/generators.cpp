#include "scene/generators.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace scene {

namespace {

int addParticle(MassSpringDef& out, const Vec3& x, double mass, bool fixed,
                const Vec3& v = Vec3::Zero()) {
  ParticleDef p;
  p.position = x;
  p.fixed = fixed;
  p.mass = fixed ? 0.0 : mass;
  p.velocity = fixed ? Vec3::Zero() : v;
  out.particles.push_back(p);
  return static_cast<int>(out.particles.size()) - 1;
}

void addSpring(MassSpringDef& out, int a, int b, double k, std::optional<double> rest, double c) {
  out.springs.push_back(SpringDef{a, b, k, rest, c});
}

}  // namespace

void addChain(MassSpringDef& out, const ChainParams& p) {
  int prev = -1;
  for (int i = 0; i <= p.segments; ++i) {
    const double s = static_cast<double>(i) / p.segments;
    const bool fixed = (i == 0 && p.fix_start) || (i == p.segments && p.fix_end);
    Vec3 v = p.velocity;
    if (i == p.segments && p.end_velocity) v = *p.end_velocity;
    const int id = addParticle(out, p.start + s * (p.end - p.start), p.mass, fixed, v);
    if (prev >= 0) addSpring(out, prev, id, p.stiffness, p.rest_length, p.damping);
    prev = id;
  }
}

void addHangingChain(MassSpringDef& out, const HangingChainParams& p) {
  int prev = addParticle(out, p.pivot, 0.0, true);
  Vec3 x = p.pivot;
  for (int i = 0; i < p.segments; ++i) {
    const double th = p.angles.empty() ? 0.0 : p.angles[i];
    x += p.segment_length * Vec3(std::sin(th), -std::cos(th), 0.0);
    const int id = addParticle(out, x, p.mass, false);
    addSpring(out, prev, id, p.stiffness, p.rest_length.value_or(p.segment_length), p.damping);
    prev = id;
  }
}

void addLoop(MassSpringDef& out, const LoopParams& p) {
  const int first = static_cast<int>(out.particles.size());
  for (int i = 0; i < p.count; ++i) {
    const double th = p.phase + 2.0 * std::numbers::pi * i / p.count;
    addParticle(out, p.center + p.radius * Vec3(std::cos(th), std::sin(th), 0.0), p.mass, false,
                p.velocity);
  }
  for (int i = 0; i < p.count; ++i)
    addSpring(out, first + i, first + (i + 1) % p.count, p.stiffness, p.rest_length, p.damping);
}

void addSpringPendulum(MassSpringDef& out, const SpringPendulumParams& p) {
  const int a = addParticle(out, p.pivot, 0.0, true);
  const int b = addParticle(out, p.bob, p.mass, false, p.velocity);
  addSpring(out, a, b, p.stiffness, p.rest_length, p.damping);
}

namespace {

// The grid lines of a coarse mesh over n points: every stride-th, and the last.
std::vector<int> coarseLines(int n, int stride) {
  std::vector<int> at;
  for (int i = 0; i < n - 1; i += stride) at.push_back(i);
  at.push_back(n - 1);
  return at;
}

// The cloth's surface on every stride-th grid line (and the last), appended to `out`.
void appendCoarseMesh(std::vector<std::array<int, 3>>& out, const ClothParams& p, int first,
                      int stride) {
  const std::vector<int> is = coarseLines(p.nx, stride), js = coarseLines(p.ny, stride);
  auto id = [&](int i, int j) { return first + j * p.nx + i; };
  for (size_t b = 0; b + 1 < js.size(); ++b)
    for (size_t a = 0; a + 1 < is.size(); ++a) {
      const int i = is[a], j = js[b], i1 = is[a + 1], j1 = js[b + 1];
      out.push_back({id(i, j), id(i, j1), id(i1, j1)});
      out.push_back({id(i, j), id(i1, j1), id(i1, j)});
    }
}

}  // namespace

// A cloth finer than kShadowCells cells a side gets a shadow mesh of at most that many: its shadow
// is a soft, translucent silhouette, and software renderers spend their time on the triangles
// (the 128 x 128 cloth's shadow took 4 ms of a frame; docs/benchmarks.md).
void addShadowMesh(MassSpringDef& out, const ClothParams& p, int first) {
  const int stride = (std::max(p.nx, p.ny) - 1 + kShadowCells - 1) / kShadowCells;
  if (stride > 1) appendCoarseMesh(out.shadow_triangles, p, first, stride);
}

// Seen from afar a fine cloth's cells are smaller than a pixel, and a software rasteriser spends
// its time on triangles nobody can see (the 256 x 256 cloth's surface took 23 ms of a frame;
// docs/benchmarks.md#surface-levels): the renderer then draws a level with fewer.
void addSurfaceLevels(MassSpringDef& out, const ClothParams& p, int first, size_t trianglesBefore) {
  const int cells = std::max(p.nx, p.ny) - 1;
  auto& levels = out.surface_levels;
  for (size_t k = 0, stride = 2; k < size_t(kMaxSurfaceLevels); ++k, stride *= 2) {
    const bool fine = cells >= kMinLevelCells * int(stride);
    if (!fine && k >= levels.size()) break;
    if (k == levels.size())  // a new level: the surfaces before this cloth, whole
      levels.emplace_back(out.triangles.begin(),
                          out.triangles.begin() + static_cast<long>(trianglesBefore));
    if (fine)
      appendCoarseMesh(levels[k], p, first, int(stride));
    else
      levels[k].insert(levels[k].end(), out.triangles.begin() + static_cast<long>(trianglesBefore),
                       out.triangles.end());
  }
}

namespace {

// Whether the cloth's particle (i, j) is pinned; row 0 is the top (hanging) or far edge.
bool clothPinned(const ClothParams& p, int i, int j) {
  const bool left = i == 0, right = i == p.nx - 1, top = j == 0, bottom = j == p.ny - 1;
  switch (p.pins) {
    case ClothPins::TopCorners:
      return top && (left || right);
    case ClothPins::TopEdge:
      return top;
    case ClothPins::AllCorners:
      return (top || bottom) && (left || right);
    case ClothPins::None:
      return false;
  }
  return false;
}

// The nx x ny particles, row by row, each carrying an equal share of the cloth's mass.
void addClothParticles(MassSpringDef& out, const ClothParams& p) {
  const double dx = p.width / (p.nx - 1), dy = p.height / (p.ny - 1);
  const double pm = p.mass / (double(p.nx) * p.ny);
  const double tilt = p.tilt * std::numbers::pi / 180.0;
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i) {
      const double u = -0.5 * p.width + i * dx;
      const double w = 0.5 * p.height - j * dy;  // row 0 is the top (hanging) / far edge
      // a tilted hanging sheet turns about its top edge (w = height / 2): the distance below
      // the edge, height / 2 - w, splits into -y by cos(tilt) and +z by sin(tilt)
      const double below = 0.5 * p.height - w;
      const Vec3 x = p.horizontal ? Vec3(p.center.x() + u, p.center.y(), p.center.z() - w)
                                  : Vec3(p.center.x() + u,
                                         p.center.y() + 0.5 * p.height - below * std::cos(tilt),
                                         p.center.z() + below * std::sin(tilt));
      addParticle(out, x, pm, clothPinned(p, i, j));
    }
}

// Two triangles per cell, counter-clockwise seen from +z (hanging) or from +y (horizontal): the
// front faces the default camera.
void addClothTriangles(MassSpringDef& out, const ClothParams& p, int first) {
  auto id = [&](int i, int j) { return first + j * p.nx + i; };
  for (int j = 0; j + 1 < p.ny; ++j)
    for (int i = 0; i + 1 < p.nx; ++i) {
      out.triangles.push_back({id(i, j), id(i, j + 1), id(i + 1, j + 1)});
      out.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i + 1, j)});
    }
}

// Structural springs to the next particle across and down, shear springs along both diagonals of
// each cell, bending springs to the particle two along (docs/scenes.md#cloth). Rest lengths are
// the initial distances (std::nullopt).
void addClothSprings(MassSpringDef& out, const ClothParams& p, int first) {
  auto id = [&](int i, int j) { return first + j * p.nx + i; };
  const double ks = p.stiffness;
  const double kshear = p.shear_stiffness.value_or(ks);
  const double kbend = p.bending_stiffness.value_or(ks / 10.0);
  const double c = p.damping;
  for (int j = 0; j < p.ny; ++j)
    for (int i = 0; i < p.nx; ++i) {
      if (i + 1 < p.nx) addSpring(out, id(i, j), id(i + 1, j), ks, std::nullopt, c);
      if (j + 1 < p.ny) addSpring(out, id(i, j), id(i, j + 1), ks, std::nullopt, c);
      if (i + 1 < p.nx && j + 1 < p.ny) {
        addSpring(out, id(i, j), id(i + 1, j + 1), kshear, std::nullopt, c);
        addSpring(out, id(i + 1, j), id(i, j + 1), kshear, std::nullopt, c);
      }
      if (i + 2 < p.nx) addSpring(out, id(i, j), id(i + 2, j), kbend, std::nullopt, c);
      if (j + 2 < p.ny) addSpring(out, id(i, j), id(i, j + 2), kbend, std::nullopt, c);
    }
}

}  // namespace

void addCloth(MassSpringDef& out, const ClothParams& p) {
  const int first = static_cast<int>(out.particles.size());
  const size_t trianglesBefore = out.triangles.size();
  addClothParticles(out, p);
  addClothTriangles(out, p, first);
  addShadowMesh(out, p, first);
  addSurfaceLevels(out, p, first, trianglesBefore);
  addClothSprings(out, p, first);
}

}  // namespace scene
