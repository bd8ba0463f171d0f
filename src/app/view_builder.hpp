// Simulation state -> render::SceneView (DESIGN.md §2): positions as floats, radii, flags, spring
// strains, cloth triangles, trails. Owns the arrays the view's spans point into.
#pragma once

#include <cstdint>
#include <vector>

#include "app/session.hpp"
#include "render/scene_view.hpp"

namespace app {

class ViewBuilder {
 public:
  // Rebuilds the view of the session's current state. `trails` appends a trail sample.
  const render::SceneView& build(const Session& s, bool trails);
  // Index of the point drawn for body b (particle b, or bob b after the pivot).
  static int pointOfBody(const Session& s, int body);
  // The body drawn at point p, or -1 (the pivot).
  static int bodyOfPoint(const Session& s, int point);
  void clearTrails() { trail_.clear(); }
  // Bounding box of the points (m).
  void bounds(float lo[3], float hi[3]) const;

 private:
  void rebuildTopology(const Session& s);
  const scene::Built* built_ = nullptr;
  std::uint64_t topology_ = 0;
  int trail_body_ = -1;
  std::vector<float> pos_, radii_, strain_, trails_;
  std::vector<std::uint8_t> flags_, line_flags_, base_flags_;
  std::vector<std::uint32_t> lines_, tris_, trail_len_;
  std::vector<float> trail_;  // ring of x y z samples (oldest first after unrolling)
  size_t trail_head_ = 0;
  Eigen::VectorXd tmp_;
  render::SceneView view_;
};

}  // namespace app
