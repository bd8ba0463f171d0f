// Streaks that show the wind in the view (docs/architecture.md#wind-streaks): short lines carried
// with the air's velocity through a box about the scene, so that its direction and speed read at a
// glance. Plain data for the renderer (render::SceneView::wind_streaks); no GL.
#pragma once

#include <vector>

namespace app {

// The region the streaks cross: a box about the scene as it started (m).
struct StreakBox {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
};

inline constexpr int kWindStreaks = 96;  // enough to fill the box, few enough to stay lines
// A streak is the path the air travels over kStreakSeconds, at most kStreakMaxOfBox of the box's
// diagonal: a gale's streaks stay dashes instead of crossing the scene.
inline constexpr double kStreakSeconds = 0.12;
inline constexpr double kStreakMaxOfBox = 0.2;
inline constexpr float kStreakAlpha = 0.8f;  // of a streak's head halfway across; its tail is 0
// The box is the scene's bounds, each side widened by this much of its largest side (a
// planar scene's z by nothing).
inline constexpr double kStreakBoxMargin = 0.25;

// The box about `positions` (x y z per point), widened by kStreakBoxMargin; `planar` keeps z flat.
StreakBox streakBox(const std::vector<float>& positions, bool planar);

// Writes the streaks at simulated time t into `out`: per streak its tail then its head, each as
// x y z alpha. Streak i starts at a fixed point of a low-discrepancy sequence in the box, moved
// into the plane through the box's centre across the wind, and travels the box's diagonal D
// along the wind at the wind's speed, fading in and out (alpha sin(pi s) at the fraction s of
// its way), then starts again: so that none pops. No wind: no streaks.
void windStreaks(const StreakBox& box, const double wind[3], double t, std::vector<float>& out);

}  // namespace app
