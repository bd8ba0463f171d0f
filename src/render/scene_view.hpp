// The plain data the renderer draws (docs/architecture.md#from-a-scene-file-to-pixels): spans of
// floats and indices built by the app from the simulation state. The renderer never sees sim/ or
// scene/.
#pragma once

#include <cstdint>
#include <span>

namespace render {

enum PointFlag : std::uint8_t {
  kPointFixed = 1,      // a fixed particle or the pendulum pivot: drawn distinctly
  kPointHighlight = 2,  // the culprit of a divergence
  kPointGrabbed = 4,    // held by the mouse spring
};

enum LineFlag : std::uint8_t {
  kLineHighlight = 1,  // the culprit of a divergence
  kLineRigid = 2,      // a pendulum rod: neutral colour, no strain
};

// A static obstacle of the simulation (docs/integrators.md#colliders), drawn solid: a sphere, or a
// plane (drawn as a wide disc, the ground grid laid on it when it is a floor).
struct ColliderShape {
  bool sphere = false;
  float point[3] = {0, 0, 0};   // m: the sphere's centre, or a point of the plane
  float normal[3] = {0, 1, 0};  // the plane's unit normal, out of its solid side
  float radius = 0.0f;          // m, the sphere's
};

// An arrow from the traced body (docs/exploring.md#arrows): tail and head, x y z (m). Its motion
// (velocity, acceleration), or one of the forces on it (docs/exploring.md#forces), by source.
enum class ArrowKind : std::uint8_t {
  Velocity,
  Acceleration,
  Gravity,
  Spring,  // a spring's or a rod's pull
  Damping,
  Drag,
  Grab,
  Contact,
};
inline bool isForce(ArrowKind k) {
  return k != ArrowKind::Velocity && k != ArrowKind::Acceleration;
}
struct Arrow {
  float tail[3] = {0, 0, 0};
  float head[3] = {0, 0, 0};
  ArrowKind kind = ArrowKind::Velocity;
};

struct SceneView {
  std::span<const float> positions;          // x y z per point (m)
  std::span<const float> radii;              // per point (m); changes only with topology
  std::span<const std::uint8_t> flags;       // PointFlag bits per point; may change any frame
  std::span<const std::uint32_t> lines;      // point index pairs (springs, rods)
  std::span<const float> line_strain;        // per line: (l - rest) / rest (0 for rods)
  std::span<const std::uint8_t> line_flags;  // LineFlag bits per line
  std::span<const std::uint32_t> triangles;  // point index triples (cloth surface)
  // a coarser surface for the shadow only (a fine cloth's); empty: the shadow of `triangles`
  std::span<const std::uint32_t> shadow_triangles;
  // the surface on every 2nd, 4th, ... grid line, coarsest last: drawn instead of `triangles`
  // where the camera is too far away to resolve their cells (docs/architecture.md#surface-levels);
  // may be empty. Changes only with topology.
  std::span<const std::span<const std::uint32_t>> surface_levels;
  // u v per point: material coordinates of the surface (its rest shape laid flat), 1 across the
  // cloth's larger side; the renderer draws a faint checker over them so that motion reads.
  // Changes only with topology; empty: a plain surface.
  std::span<const float> surface_uv;
  std::span<const float> trails;                 // x y z per trail vertex, trails one after another
  std::span<const std::uint32_t> trail_lengths;  // vertices of each trail, oldest first
  std::span<const ColliderShape> colliders;      // static; may be empty
  // the wind's streaks (app/wind_streaks.hpp): tail then head of each, x y z alpha per end
  std::span<const float> wind_streaks;
  // the mouse's pull: where the cursor aims (the grab's target), then the grabbed point, x y z
  // each (m); empty while nothing is held. Drawn as a line over the scene.
  std::span<const float> grab_line;
  // the traced body's velocity and acceleration, already scaled to metres, drawn over the scene
  // when DrawOptions::show_arrows; its forces when DrawOptions::show_forces
  std::span<const Arrow> arrows;
  // changes whenever a count, an index array, the radii or surface_uv change (the renderer rebuilds
  // its index buffers and uploads the radii only then)
  std::uint64_t topology = 0;
  bool planar = false;  // an x-y scene: the app uses the 2-D camera
};

}  // namespace render
