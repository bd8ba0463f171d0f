// What a system looks like, as plain data (docs/architecture.md#system-kinds): its points (the
// bodies, after a pendulum's pivot: System::pointOfBody), the lines between them (springs with a
// rest length, or rigid rods), a radius for each point that makes bodies read as beads on their
// springs, and the reach a camera frames. Each kind draws itself this way; the view builder turns
// it into a render::SceneView without asking which kind it is.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/model.hpp"

namespace sim {

struct Skeleton {
  std::vector<double> radius;       // m, per point
  std::vector<std::uint8_t> fixed;  // per point: it never moves (a fixed particle, the pivot)
  std::vector<int> lines;           // two point indices per line
  std::vector<double> rest;         // m per line: its rest length (its strain's reference), or 0
  std::vector<std::uint8_t> rigid;  // per line: a rod (never strained)
  double size = 0.0;                // m, the scene's size at the start (a culprit's least radius)
  std::vector<int> trail_bodies;    // the bodies traced from the start
  std::vector<Collider> colliders;  // the static obstacles it meets
  // The box the system can reach whatever it does (a pendulum's circle of its whole length),
  // framed instead of the motion seen so far: centre +- half; has_reach false when there is none.
  bool has_reach = false;
  Vec3 reach_centre = Vec3::Zero(), reach_half = Vec3::Zero();
};

}  // namespace sim
