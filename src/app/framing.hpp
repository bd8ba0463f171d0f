// What the camera frames: for a pendulum, everything its chain can reach with the energy it has
// (a hanging chain's lower part, not the whole circle: sim::Skeleton's reach); for a spring system,
// the motion seen so far, a box grown with the state every frame. The camera re-frames when the
// motion leaves the framed box or the viewport's shape changes, until the user moves the camera;
// with follow on, it re-centres on the bodies every frame instead.
#pragma once

#include <glm/glm.hpp>
#include <span>

#include "render/camera.hpp"
#include "sim/skeleton.hpp"

namespace app {

struct Box {
  glm::vec3 lo{1e30f}, hi{-1e30f};  // m; empty while lo > hi
  bool empty() const { return lo.x > hi.x; }
  void add(const glm::vec3& p);
  void add(const Box& b);
  bool contains(const Box& b) const;
  glm::vec3 centre() const { return 0.5f * (lo + hi); }
};

// The finite points of a flat x y z array.
Box boxOf(std::span<const float> xyz);
// Everything a system can reach whatever it does (sim::Skeleton's reach: the part of a
// pendulum's circle that its energy lets it reach, and its pivot); empty when it has none.
Box reachBox(const sim::Skeleton& k);

// What a runaway is framed on (docs/lab.md#the-blow-up-in-slow-motion): the extent of the
// system's last intact state (`intact`), grown to hold every point of the state the runaway
// rule found (`found`) within `reach` times that extent's half-size of its centre. A few particles
// flung kilometres away leave the picture rather than shrink the system to a dot; a torn cloth
// spread over a few times its size stays in view. With no intact points, `found`'s box.
Box runawayBox(std::span<const float> intact, std::span<const float> found, float reach);

// Points the camera at `box` so that all of it shows in a viewport of the given aspect
// (width / height): render::Camera::frame fits the height, a narrow viewport needs more.
void frameBox(render::Camera& camera, const Box& box, float aspect);

class SceneFraming {
 public:
  // A new scene, a reset, or the F key: frame `initial` (the pendulum's reach, or the bodies now).
  void reset(const Box& initial);
  // Once per frame with the bodies' positions and the scene viewport's aspect; moves the camera
  // when the motion left the framed box, the viewport changed shape, or `follow` is on. Leaves
  // it alone once the user has moved it (until the next reset), follow excepted.
  void update(render::Camera& camera, std::span<const float> xyz, float aspect, bool follow);
  // Frame `box` and hold it there until the next reset, whatever the bodies do (a runaway, its
  // slow motion): the motion no longer grows the box framed.
  void hold(const Box& box) { reset(box), held_ = true; }
  // Keep the camera as it is (restored from the preferences) until the next reset.
  void keepCamera() { pending_ = false, user_moved_ = true; }
  const Box& seen() const { return seen_; }
  // The user moved the camera (or a chosen camera was kept) since the last reset.
  bool userMoved() const { return user_moved_; }

  // The box framed is the motion seen, grown by this factor about its centre: room for the
  // motion to grow a little before the camera moves again (no re-framing every frame).
  static constexpr float kHeadroom = 1.25f;

 private:
  Box seen_, framed_;
  bool pending_ = true;      // frame at the next update
  bool user_moved_ = false;  // the camera differs from what framing last set
  bool held_ = false;        // hold(): the box framed stays until the next reset
  render::Camera last_;      // the camera as framing left it
  float aspect_ = 0.0f;
};

// One side-by-side column (docs/lab.md#lanes): its own lane's motion seen so far (a pendulum's
// reach) framed in the column's shape, so that a narrow column shows the whole system rather than
// a slice of the shared view. The angles stay the shared camera's; only its target and distance
// are the column's, re-framed when the motion leaves the framed box or the shape changes.
class ColumnFraming {
 public:
  void reset(const Box& initial);
  void apply(render::Camera& camera, std::span<const float> xyz, float aspect);

 private:
  Box seen_, framed_;
  float aspect_ = 0.0f;
  bool planar_ = false;
  glm::vec3 target_{0.0f};
  float distance_ = 0.0f, yaw_ = 0.0f, pitch_ = 0.0f;
};

}  // namespace app
