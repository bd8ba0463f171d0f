// Simulation state -> render::SceneView (docs/architecture.md#from-a-scene-file-to-pixels):
// positions as floats, radii, flags, spring strains, cloth triangles, trails. Owns the arrays the
// view's spans point into.
#pragma once

#include <cstdint>
#include <vector>

#include "app/session.hpp"
#include "app/wind_streaks.hpp"
#include "render/scene_view.hpp"
#include "sim/body_forces.hpp"

namespace app {

// The arrow that draws a force of `source` (docs/exploring.md#forces): a rod's pull as a spring's.
render::ArrowKind arrowKindOf(sim::ForceSource source);

class ViewBuilder {
 public:
  // The lane whose state this builder draws (docs/lab.md#lanes): 0, the primary, unless a
  // ghosted or side-by-side lane's.
  int lane = 0;
  // A state of the scene's system to draw instead of the lane's (the static equilibrium's ghost):
  // no culprit, no grab line. Null: the lane's.
  const sim::State* shown_state = nullptr;
  // A line the mouse is drawing (edit mode's spring being dragged from a body to the cursor),
  // drawn as the grab's line is; empty: none. Two points, 3 floats each.
  std::vector<float> guide_line;
  // Whether the traced body's forces go into the view's arrows (DrawOptions::show_forces): their
  // evaluation is skipped while they are not drawn.
  bool forces = false;

  // Rebuilds the view of the session's current state. `trails` appends a trail sample.
  const render::SceneView& build(const Session& s, bool trails);
  // Index of the point drawn for body b (particle b, or bob b after the pivot).
  static int pointOfBody(const Session& s, int body);
  // The body drawn at point p, or -1 (the pivot).
  static int bodyOfPoint(const Session& s, int point);
  void clearTrails() {
    for (auto& t : trails_of_) t.ring.clear(), t.head = 0;
  }
  // Adds a trail on `body`, or removes it if it has one (the T key).
  void toggleTrail(int body);
  const std::vector<int> trailBodies() const;

  // The strain scale that makes the last built view's strains readable: a high percentile
  // (kStrainPercentile) of |strain| over its springs (every k-th of a system with more than about
  // 16 thousand), smoothed over the builds (a quick rise, a
  // slow fall, so that it does not flicker), rounded up to 1, 2 or 5 times a power of ten (the
  // legend reads "0.005", not "0.0043"), changed only when the smoothed value leaves the rounded
  // one's band, and at least kMinStrainScale. Without springs, kMinStrainScale. The viewer uses
  // it unless the user fixed a scale.
  float autoStrainScale() const { return auto_strain_scale_; }
  static constexpr float kStrainPercentile = 0.95f;
  static constexpr float kMinStrainScale = 1e-4f;
  // 1, 2 or 5 times a power of ten, at least x (x positive and finite; else kMinStrainScale).
  static float niceScaleAtLeast(float x);

  // The culprit of a divergence is drawn kCulpritRadiusScale times its size, and at least
  // kCulpritOfScene of the scene's size, initial or current (whichever is larger): a cloth's beads
  // are too small to find otherwise.
  static constexpr float kCulpritRadiusScale = 3.0f;
  static constexpr double kCulpritOfScene = 0.02;
  // The point of the last view's divergence culprit (a torn spring's first end), -1 for none.
  int culpritPoint() const { return shown_culprit_.a; }

 private:
  void rebuildTopology(const Session& s);
  void fillPositions(const Session& s);
  void fillTornSurface(const Session& s);
  // a divergence's culprit points: one body, or a torn spring's two particles; -1 for none
  struct Culprits {
    int a = -1, b = -1;
    bool operator==(const Culprits&) const = default;
  };
  Culprits fillFlagsAndRadii(const Session& s);
  void fillLineStrains(Culprits culprit);
  void fillTrails(const Session& s, bool advance);
  void fillSurfaceUv(const scene::Built& b);
  void fillWind(const Session& s);
  void fillGrabLine(const Session& s);
  void fillArrows(const Session& s);
  void updateAutoStrainScale(bool fresh);
  const scene::Built* built_ = nullptr;
  sim::Skeleton skeleton_;  // the system's, at the last rebuildTopology
  std::uint64_t topology_ = 0;
  // one fading ring buffer per chosen body
  struct Trail {
    int body = -1;
    std::vector<float> ring;  // x y z samples
    size_t head = 0;          // oldest sample once full
  };
  std::vector<Trail> trails_of_;
  std::vector<float> pos_, radii_, point_radii_, strain_, trails_;  // point_radii_: this frame's
  float culprit_radius_ = 0.0f;  // m, the least radius of a divergence's culprit
  // the culprit and its radius in the last view: the renderer takes radii with the topology only,
  // so a change of either bumps it
  Culprits shown_culprit_;
  float shown_culprit_radius_ = 0.0f;
  std::vector<std::uint8_t> flags_, line_flags_, base_flags_;
  std::vector<std::uint32_t> lines_, tris_, shadow_tris_, trail_len_;
  std::vector<std::vector<std::uint32_t>> levels_;           // the surface's coarser levels
  std::vector<std::span<const std::uint32_t>> level_spans_;  // over levels_, for the view
  std::vector<render::ColliderShape> colliders_;
  std::vector<float> uv_;    // surface_uv, with the topology
  std::vector<float> wind_;  // SceneView::wind_streaks
  StreakBox streak_box_;     // about the scene's first view
  bool streak_box_valid_ = false;
  std::vector<float> abs_strain_;  // scratch of autoStrainScale's percentile
  float smoothed_strain_ = 0.0f;   // the percentile, smoothed over builds
  float auto_strain_scale_ = kMinStrainScale;
  bool fresh_scene_ = true;  // the next build starts the smoothing afresh
  bool torn_ = false;        // tris_ is a diverged lane's surface less its torn triangles
  long long restores_ = -1;  // Timeline::restores() at the last build: a jump starts it afresh
  Eigen::VectorXd tmp_;
  render::SceneView view_;
  // SceneView::grab_line
  std::vector<float> grab_line_;
  std::vector<render::Arrow> arrows_;  // SceneView::arrows
};

}  // namespace app
