// The lattice generator (docs/scenes.md#lattice): a volumetric (jelly) body, particles on a cubic
// grid filling a box, an ellipsoid or a closed mesh, springs along every cell edge and every face
// and body diagonal (and, when asked, two cells along each axis), and the body's outer faces as its
// display surface. Usable from code (the
// *Occupancy functions and addLattice) and from JSON (load_generators.cpp).
#pragma once

#include <array>
#include <optional>
#include <utility>
#include <vector>

#include "scene/scene_def.hpp"

namespace scene {

// The grid a lattice fills: n[a] points along axis a, `spacing` apart, centred on `center`.
// Point (i, j, k) has index i + n[0] * (j + n[1] * k) in the occupancy arrays below.
struct LatticeGrid {
  std::array<int, 3> n{2, 2, 2};
  double spacing = 0.05;       // m
  Vec3 center = Vec3::Zero();  // m
  Vec3 point(int i, int j, int k) const;
  long long points() const { return static_cast<long long>(n[0]) * n[1] * n[2]; }
  long long cells() const { return static_cast<long long>(n[0] - 1) * (n[1] - 1) * (n[2] - 1); }
};

// Grid points along a length `size` at `spacing`: round(size / spacing) + 1, its ends included.
// A double, so that a typo's astronomical count is caught before anything becomes an int.
double latticePointsAlong(double size, double spacing);

// More cells than this is an error before anything is allocated: 100^3 cells are a million
// particles and 13 million springs, far beyond real time and generous for any offline run.
inline constexpr long long kMaxLatticeCells = 1'000'000;

// Which grid points a shape holds, one flag per point (index as LatticeGrid says).
std::vector<char> boxOccupancy(const LatticeGrid& g);
// The points inside the ellipsoid of the given diameters centred on the grid's centre; points on
// its surface (within round-off) count as inside.
std::vector<char> ellipsoidOccupancy(const LatticeGrid& g, const Vec3& diameters);
// [min, max] of the vertices (at least one): a mesh's grid is a box of its size on its centre.
std::array<Vec3, 2> boundingBox(const std::vector<Vec3>& vertices);
// The points inside a closed triangle mesh, by the parity of the crossings of a ray in +x from
// each, its line nudged by 1e-7 spacings in y and z (so that it never runs exactly through an edge
// or vertex of a mesh laid on the grid); a point within 1e-7 spacings of the surface counts as
// inside.
std::vector<char> meshOccupancy(const LatticeGrid& g, const std::vector<Vec3>& vertices,
                                const std::vector<std::array<int, 3>>& triangles);
// An edge of the mesh that only an odd number of its triangles share ([a, b]): the mesh is not
// closed. Nothing when every edge is shared by an even number.
std::optional<std::array<int, 2>> openEdge(const std::vector<std::array<int, 3>>& triangles);

struct LatticeParams {
  double mass = 1.0;                      // kg, the whole body, shared equally by its points
  double stiffness = 3000.0;              // N/m, along every cell edge
  std::optional<double> shear_stiffness;  // N/m, face and body diagonals; default stiffness / 2
  double bending_stiffness = 0.0;  // N/m, two cells along each axis (resist folding); 0: none
  double damping = 0.0;            // N s/m, every spring's dashpot
  Vec3 velocity = Vec3::Zero();    // m/s, every moving particle
  std::optional<std::pair<Vec3, Vec3>> pin_box;  // m: [min, max]; the particles inside are fixed
};

struct LatticeCounts {
  int particles = 0, pinned = 0, springs = 0, triangles = 0;
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();  // m: the particles' bounding box
};

// Appends the lattice of the occupied points to `out`: a point with no occupied neighbour among
// its 26 (it would get no spring) is left out; every other one gets the springs to the neighbours
// present. The surface: the grid's cubes cut into six tetrahedra each (mirrored about the centre
// so that the body is symmetric), the faces of the tetrahedra whose four corners are present and
// that no other such tetrahedron shares, wound outward (for a box: two per boundary cell face).
LatticeCounts addLattice(MassSpringDef& out, const LatticeGrid& g,
                         const std::vector<char>& occupied, const LatticeParams& p);

}  // namespace scene
