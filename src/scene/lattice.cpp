#include "scene/lattice.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <Eigen/Geometry>

namespace scene {

namespace {

using Cell = std::array<int, 3>;

// A point on an ellipsoid's surface computes to 1 within a few ulps: it counts as inside.
constexpr double kRimTolerance = 1e-9;
// The perturbation of a mesh's rays, in spacings: far below any grid's resolution, far above
// round-off, along y and z in an irrational ratio so that a ray meets no edge of a grid-aligned
// mesh. A point this close to the surface counts as inside.
constexpr double kRayJitter = 1e-7;
constexpr double kJitterRatio = 1.6180339887498949;  // the golden ratio

long long index(const LatticeGrid& g, int i, int j, int k) {
  return i + static_cast<long long>(g.n[0]) * (j + static_cast<long long>(g.n[1]) * k);
}

bool inGrid(const LatticeGrid& g, const Cell& c) {
  for (int a = 0; a < 3; ++a)
    if (c[a] < 0 || c[a] >= g.n[a]) return false;
  return true;
}

// The 13 neighbour offsets of one half-space: 3 cell edges, 6 face diagonals, 4 body diagonals
// (each spring is made once, from its lower point).
constexpr std::array<Cell, 13> kHalfNeighbours = {{{1, 0, 0},
                                                   {0, 1, 0},
                                                   {0, 0, 1},
                                                   {1, 1, 0},
                                                   {1, -1, 0},
                                                   {1, 0, 1},
                                                   {1, 0, -1},
                                                   {0, 1, 1},
                                                   {0, 1, -1},
                                                   {1, 1, 1},
                                                   {1, 1, -1},
                                                   {1, -1, 1},
                                                   {1, -1, -1}}};
constexpr int kEdgeOffsets = 3;  // the first three are the cell edges

// The occupied points with at least one occupied neighbour (the others would get no spring).
std::vector<char> withNeighbours(const LatticeGrid& g, const std::vector<char>& occupied) {
  std::vector<char> kept(occupied.size(), 0);
  for (int k = 0; k < g.n[2]; ++k)
    for (int j = 0; j < g.n[1]; ++j)
      for (int i = 0; i < g.n[0]; ++i) {
        if (!occupied[index(g, i, j, k)]) continue;
        bool any = false;
        for (const Cell& d : kHalfNeighbours)
          for (int s : {1, -1}) {
            const Cell c{i + s * d[0], j + s * d[1], k + s * d[2]};
            any = any || (inGrid(g, c) && occupied[index(g, c[0], c[1], c[2])]);
          }
        kept[index(g, i, j, k)] = any;
      }
  return kept;
}

bool inBox(const std::pair<Vec3, Vec3>& box, const Vec3& x) {
  return (x.array() >= box.first.array()).all() && (x.array() <= box.second.array()).all();
}

// One particle per kept point, in grid order; `id` gets each point's particle index (or -1).
void addPoints(MassSpringDef& out, const LatticeGrid& g, const std::vector<char>& kept,
               const LatticeParams& p, std::vector<int>& id, LatticeCounts& counts) {
  const long long n = std::count(kept.begin(), kept.end(), char(1));
  const double share = p.mass / static_cast<double>(n);
  id.assign(kept.size(), -1);
  for (int k = 0; k < g.n[2]; ++k)
    for (int j = 0; j < g.n[1]; ++j)
      for (int i = 0; i < g.n[0]; ++i) {
        if (!kept[index(g, i, j, k)]) continue;
        ParticleDef d;
        d.position = g.point(i, j, k);
        d.fixed = p.pin_box && inBox(*p.pin_box, d.position);
        d.mass = d.fixed ? 0.0 : share;
        d.velocity = d.fixed ? Vec3::Zero() : p.velocity;
        id[index(g, i, j, k)] = static_cast<int>(out.particles.size());
        counts.lo = counts.particles ? counts.lo.cwiseMin(d.position) : d.position;
        counts.hi = counts.particles ? counts.hi.cwiseMax(d.position) : d.position;
        out.particles.push_back(d);
        ++counts.particles;
        counts.pinned += d.fixed;
      }
}

// The bending springs' offsets: two cells along each axis (docs/scenes.md#lattice).
constexpr std::array<Cell, 3> kBendingOffsets = {{{2, 0, 0}, {0, 2, 0}, {0, 0, 2}}};

// A spring from each kept point to each kept neighbour of its half-space, then (with a bending
// stiffness) to each kept point two cells on along an axis; rest lengths are the initial distances
// (h, h sqrt 2, h sqrt 3, 2h). A rim point whose neighbours all lie on one side of it (an
// ellipsoid's pole) keeps every first-neighbour length when it is mirrored through them, so only a
// spring reaching past them (2h, which the mirror shortens to about 0) holds it out.
void addLatticeSprings(MassSpringDef& out, const LatticeGrid& g, const std::vector<int>& id,
                       const LatticeParams& p, LatticeCounts& counts) {
  const double shear = p.shear_stiffness.value_or(p.stiffness / 2.0);
  auto spring = [&](int a, const Cell& c, double stiffness) {
    if (!inGrid(g, c) || id[index(g, c[0], c[1], c[2])] < 0) return;
    out.springs.push_back(
        SpringDef{a, id[index(g, c[0], c[1], c[2])], stiffness, std::nullopt, p.damping});
    ++counts.springs;
  };
  for (int k = 0; k < g.n[2]; ++k)
    for (int j = 0; j < g.n[1]; ++j)
      for (int i = 0; i < g.n[0]; ++i) {
        const int a = id[index(g, i, j, k)];
        if (a < 0) continue;
        for (size_t o = 0; o < kHalfNeighbours.size(); ++o) {
          const Cell& d = kHalfNeighbours[o];
          spring(a, {i + d[0], j + d[1], k + d[2]}, o < size_t(kEdgeOffsets) ? p.stiffness : shear);
        }
        if (p.bending_stiffness > 0)
          for (const Cell& d : kBendingOffsets)
            spring(a, {i + d[0], j + d[1], k + d[2]}, p.bending_stiffness);
      }
}

// ---- the surface -------------------------------------------------------------------------------

// The six tetrahedra of a cube (Kuhn's triangulation): each a path from corner 0 to corner 7
// along the axes in one order; corner bits are x = 1, y = 2, z = 4. Every face of the cube is cut
// along the same diagonal by the tetrahedra on either side, so neighbouring cubes fit.
constexpr std::array<Cell, 6> kAxisOrders = {
    {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};

struct SurfaceBuilder {
  const LatticeGrid& g;
  const std::vector<int>& id;

  // A cube's corner bits are mirrored along each axis where the cube lies below the grid's
  // centre, and along x everywhere: the triangulation, and so the surface of a partly filled
  // cube, is then symmetric about the centre's three planes, and a cube's diagonal that every
  // tetrahedron shares never points away from the centre (a rim cube misses its outer corner,
  // and would otherwise keep no tetrahedron at all: a staircase). A cube face's diagonal depends
  // only on the mirroring along the face's own two axes, which both cubes beside it share, so
  // neighbours still fit.
  int mirror(const Cell& c) const {
    int m = 1;
    for (int a = 0; a < 3; ++a)
      if (2 * c[a] + 1 < g.n[a] - 1) m ^= 1 << a;
    return m;
  }
  Cell corner(const Cell& c, int bits) const {
    bits ^= mirror(c);
    return {c[0] + (bits & 1), c[1] + (bits >> 1 & 1), c[2] + (bits >> 2 & 1)};
  }
  std::array<Cell, 4> tet(const Cell& c, int t) const {
    const Cell& o = kAxisOrders[size_t(t)];
    const int b1 = 1 << o[0], b2 = b1 | 1 << o[1];
    return {corner(c, 0), corner(c, b1), corner(c, b2), corner(c, 7)};
  }
  int particle(const Cell& p) const { return inGrid(g, p) ? id[index(g, p[0], p[1], p[2])] : -1; }
  bool cubeInGrid(const Cell& c) const {
    for (int a = 0; a < 3; ++a)
      if (c[a] < 0 || c[a] + 1 >= g.n[a]) return false;
    return true;
  }
  bool present(const std::array<Cell, 4>& t) const {
    return std::all_of(t.begin(), t.end(), [&](const Cell& p) { return particle(p) >= 0; });
  }
  bool full(const Cell& c) const {
    if (!cubeInGrid(c)) return false;
    for (int b = 0; b < 8; ++b)
      if (particle(corner(c, b)) < 0) return false;
    return true;
  }

  // Whether a present tetrahedron of cube `c` other than number `skip` holds all of `face`.
  bool sharedIn(const Cell& c, int skip, const std::array<Cell, 3>& face) const {
    if (!cubeInGrid(c)) return false;
    for (int t = 0; t < int(kAxisOrders.size()); ++t) {
      if (t == skip) continue;
      const auto q = tet(c, t);
      const bool holds = std::all_of(face.begin(), face.end(), [&](const Cell& p) {
        return std::find(q.begin(), q.end(), p) != q.end();
      });
      if (holds && present(q)) return true;
    }
    return false;
  }

  // The cube across `face` when it lies on a face of cube `c` (all three corners on one of its
  // sides), or `c` itself for a face inside the cube.
  static Cell across(const Cell& c, const std::array<Cell, 3>& face) {
    for (int a = 0; a < 3; ++a)
      for (int side : {0, 1})
        if (std::all_of(face.begin(), face.end(),
                        [&](const Cell& p) { return p[a] == c[a] + side; })) {
          Cell n = c;
          n[a] += side ? 1 : -1;
          return n;
        }
    return c;
  }

  void addTetFaces(const Cell& c, int t, std::vector<std::array<int, 3>>& out) const;
  void build(std::vector<std::array<int, 3>>& out) const;
};

// The faces of tetrahedron t of cube c that no other present tetrahedron shares, wound so that
// their normal points away from the tetrahedron's fourth corner (out of the body).
void SurfaceBuilder::addTetFaces(const Cell& c, int t, std::vector<std::array<int, 3>>& out) const {
  const auto q = tet(c, t);
  const bool cubeFull = full(c);
  for (int omit = 0; omit < 4; ++omit) {
    std::array<Cell, 3> face;
    for (int v = 0, f = 0; v < 4; ++v)
      if (v != omit) face[size_t(f++)] = q[size_t(v)];
    const Cell other = across(c, face);
    const bool inside = other == c;
    if (inside ? (cubeFull || sharedIn(c, t, face)) : (full(other) || sharedIn(other, -1, face)))
      continue;
    const Eigen::Vector3i a(face[0].data()), b(face[1].data()), d(face[2].data()),
        apex(q[size_t(omit)].data());
    const bool towardsApex = (b - a).cross(d - a).dot(apex - a) > 0;
    std::array<int, 3> tri{particle(face[0]), particle(face[1]), particle(face[2])};
    if (towardsApex) std::swap(tri[1], tri[2]);
    out.push_back(tri);
  }
}

void SurfaceBuilder::build(std::vector<std::array<int, 3>>& out) const {
  for (int k = 0; k + 1 < g.n[2]; ++k)
    for (int j = 0; j + 1 < g.n[1]; ++j)
      for (int i = 0; i + 1 < g.n[0]; ++i) {
        const Cell c{i, j, k};
        for (int t = 0; t < int(kAxisOrders.size()); ++t)
          if (present(tet(c, t))) addTetFaces(c, t, out);
      }
}

// ---- meshes ------------------------------------------------------------------------------------

// Where the line {y = p.y, z = p.z} crosses triangle (a, b, c), as x; nothing when it misses it
// or runs parallel to it.
std::optional<double> crossingX(const Vec3& a, const Vec3& b, const Vec3& c, double y, double z) {
  const double d = (b.y() - a.y()) * (c.z() - a.z()) - (c.y() - a.y()) * (b.z() - a.z());
  if (d == 0.0) return std::nullopt;
  const double u = ((y - a.y()) * (c.z() - a.z()) - (c.y() - a.y()) * (z - a.z())) / d;
  const double v = ((b.y() - a.y()) * (z - a.z()) - (y - a.y()) * (b.z() - a.z())) / d;
  if (u < 0.0 || v < 0.0 || u + v > 1.0) return std::nullopt;
  return a.x() + u * (b.x() - a.x()) + v * (c.x() - a.x());
}

// Marks the points of grid row (j, k) that the ray cast from each, shifted by (dx, dy, dz), finds
// inside (an odd number of crossings ahead of it).
void markRow(const LatticeGrid& g, const std::vector<Vec3>& vs,
             const std::vector<std::array<int, 3>>& tris, int j, int k, const Vec3& shift,
             std::vector<char>& inside) {
  const Vec3 start = g.point(0, j, k) + shift;
  std::vector<double> xs;
  for (const auto& t : tris)
    if (auto x =
            crossingX(vs[size_t(t[0])], vs[size_t(t[1])], vs[size_t(t[2])], start.y(), start.z()))
      xs.push_back(*x);
  std::sort(xs.begin(), xs.end());
  for (int i = 0; i < g.n[0]; ++i) {
    const double x = g.point(i, j, k).x() + shift.x();
    const auto ahead = xs.end() - std::upper_bound(xs.begin(), xs.end(), x);
    if (ahead % 2 == 1) inside[size_t(index(g, i, j, k))] = 1;
  }
}

// The point of triangle (a, b, c) nearest to p (Ericson, Real-Time Collision Detection, 5.1.5).
Vec3 nearestOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + d1 / (d1 - d3) * ab;
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + d2 / (d2 - d6) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0)
    return b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b);
  const double denom = va + vb + vc;
  if (!(denom > 0)) return a;  // a degenerate triangle: its first corner
  return a + (vb / denom) * ab + (vc / denom) * ac;
}

// Marks the grid points within `tol` of triangle (a, b, c): the surface counts as inside, which
// the ray's parity leaves to chance.
void markNear(const LatticeGrid& g, const Vec3& a, const Vec3& b, const Vec3& c, double tol,
              std::vector<char>& inside) {
  Cell lo{}, hi{};
  for (int ax = 0; ax < 3; ++ax) {
    const double origin = g.center[ax] - 0.5 * (g.n[ax] - 1) * g.spacing;
    const double mn = std::min({a[ax], b[ax], c[ax]}) - tol - origin;
    const double mx = std::max({a[ax], b[ax], c[ax]}) + tol - origin;
    lo[size_t(ax)] = std::max(0, static_cast<int>(std::ceil(mn / g.spacing)));
    hi[size_t(ax)] = std::min(g.n[ax] - 1, static_cast<int>(std::floor(mx / g.spacing)));
  }
  for (int k = lo[2]; k <= hi[2]; ++k)
    for (int j = lo[1]; j <= hi[1]; ++j)
      for (int i = lo[0]; i <= hi[0]; ++i) {
        const Vec3 p = g.point(i, j, k);
        if ((nearestOnTriangle(p, a, b, c) - p).squaredNorm() <= tol * tol)
          inside[size_t(index(g, i, j, k))] = 1;
      }
}

}  // namespace

Vec3 LatticeGrid::point(int i, int j, int k) const {
  const Cell c{i, j, k};
  Vec3 x;
  for (int a = 0; a < 3; ++a) x[a] = center[a] + (c[a] - 0.5 * (n[a] - 1)) * spacing;
  return x;
}

double latticePointsAlong(double size, double spacing) {
  return std::round(size / spacing) + 1.0;
}

std::vector<char> boxOccupancy(const LatticeGrid& g) {
  return std::vector<char>(size_t(g.points()), 1);
}

std::vector<char> ellipsoidOccupancy(const LatticeGrid& g, const Vec3& diameters) {
  std::vector<char> inside(size_t(g.points()), 0);
  for (int k = 0; k < g.n[2]; ++k)
    for (int j = 0; j < g.n[1]; ++j)
      for (int i = 0; i < g.n[0]; ++i) {
        const Vec3 u = (g.point(i, j, k) - g.center).cwiseQuotient(0.5 * diameters);
        inside[size_t(index(g, i, j, k))] = u.squaredNorm() <= 1.0 + kRimTolerance;
      }
  return inside;
}

std::array<Vec3, 2> boundingBox(const std::vector<Vec3>& vertices) {
  Vec3 lo = vertices.front(), hi = lo;
  for (const Vec3& v : vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  return {lo, hi};
}

std::vector<char> meshOccupancy(const LatticeGrid& g, const std::vector<Vec3>& vertices,
                                const std::vector<std::array<int, 3>>& triangles) {
  std::vector<char> inside(size_t(g.points()), 0);
  const double e = kRayJitter * g.spacing;
  for (int k = 0; k < g.n[2]; ++k)
    for (int j = 0; j < g.n[1]; ++j)
      markRow(g, vertices, triangles, j, k, Vec3(0, e, e * kJitterRatio), inside);
  for (const auto& t : triangles)
    markNear(g, vertices[size_t(t[0])], vertices[size_t(t[1])], vertices[size_t(t[2])], e, inside);
  return inside;
}

std::optional<std::array<int, 2>> openEdge(const std::vector<std::array<int, 3>>& triangles) {
  std::map<std::array<int, 2>, int> uses;
  for (const auto& t : triangles)
    for (int e = 0; e < 3; ++e) {
      const int a = t[size_t(e)], b = t[size_t((e + 1) % 3)];
      ++uses[{std::min(a, b), std::max(a, b)}];
    }
  for (const auto& [edge, n] : uses)
    if (n % 2 == 1) return edge;
  return std::nullopt;
}

LatticeCounts addLattice(MassSpringDef& out, const LatticeGrid& g,
                         const std::vector<char>& occupied, const LatticeParams& p) {
  LatticeCounts counts;
  const std::vector<char> kept = withNeighbours(g, occupied);
  if (std::find(kept.begin(), kept.end(), char(1)) == kept.end()) return counts;
  std::vector<int> id;
  addPoints(out, g, kept, p, id, counts);
  addLatticeSprings(out, g, id, p, counts);
  std::vector<std::array<int, 3>> surface;
  SurfaceBuilder{g, id}.build(surface);
  counts.triangles = static_cast<int>(surface.size());
  // a fine cloth before it has a coarser shadow and surface levels: they draw this body whole
  if (!out.shadow_triangles.empty())
    out.shadow_triangles.insert(out.shadow_triangles.end(), surface.begin(), surface.end());
  for (auto& level : out.surface_levels) level.insert(level.end(), surface.begin(), surface.end());
  out.triangles.insert(out.triangles.end(), surface.begin(), surface.end());
  return counts;
}

}  // namespace scene
