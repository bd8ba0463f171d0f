#include "app/wind_streaks.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace app {

namespace {

// The R3 sequence (Roberts 2018): fractional parts of i / phi3^k, phi3 the plastic number's
// generalisation to three dimensions, x^4 = x + 1; spread evenly for any count.
constexpr double kPhi3 = 1.2207440846057594;
constexpr double kSeedPhase = 0.6180339887498949;  // the golden ratio's: streak i's start

double fraction(double x) {
  return x - std::floor(x);
}

}  // namespace

StreakBox streakBox(const std::vector<float>& positions, bool planar) {
  StreakBox b;
  if (positions.size() < 3) return b;
  for (int k = 0; k < 3; ++k) b.lo[k] = b.hi[k] = positions[static_cast<size_t>(k)];
  for (size_t i = 0; i + 2 < positions.size(); i += 3)
    for (int k = 0; k < 3; ++k) {
      b.lo[k] = std::min(b.lo[k], double(positions[i + k]));
      b.hi[k] = std::max(b.hi[k], double(positions[i + k]));
    }
  double side = 0.0;
  for (int k = 0; k < 3; ++k) side = std::max(side, b.hi[k] - b.lo[k]);
  const double margin = kStreakBoxMargin * (side > 0.0 ? side : 1.0);
  for (int k = 0; k < (planar ? 2 : 3); ++k) b.lo[k] -= margin, b.hi[k] += margin;
  return b;
}

void windStreaks(const StreakBox& box, const double wind[3], double t, std::vector<float>& out) {
  out.clear();
  const double speed = std::sqrt(wind[0] * wind[0] + wind[1] * wind[1] + wind[2] * wind[2]);
  double size[3], centre[3], diagonal = 0.0;
  for (int k = 0; k < 3; ++k) {
    size[k] = box.hi[k] - box.lo[k], centre[k] = 0.5 * (box.lo[k] + box.hi[k]);
    diagonal += size[k] * size[k];
  }
  diagonal = std::sqrt(diagonal);
  if (!(speed > 0.0) || !std::isfinite(speed) || !(diagonal > 0.0) || !std::isfinite(t)) return;
  const double u[3] = {wind[0] / speed, wind[1] / speed, wind[2] / speed};
  const double length = std::min(speed * kStreakSeconds, kStreakMaxOfBox * diagonal);
  const double travelled = speed * t / diagonal;  // box diagonals since t = 0
  out.reserve(8 * kWindStreaks);
  for (int i = 0; i < kWindStreaks; ++i) {
    double seed[3], across = 0.0;
    for (int k = 0; k < 3; ++k) {
      const double alpha = 1.0 / std::pow(kPhi3, k + 1);
      seed[k] = box.lo[k] + fraction(0.5 + alpha * (i + 1)) * size[k];
      across += (seed[k] - centre[k]) * u[k];
    }
    const double s = fraction(kSeedPhase * i + travelled);
    const double along = diagonal * (s - 0.5);
    const float fade = kStreakAlpha * static_cast<float>(std::sin(std::numbers::pi * s));
    for (int end = 0; end < 2; ++end) {
      const double back = end == 0 ? length : 0.0;
      for (int k = 0; k < 3; ++k)
        out.push_back(static_cast<float>(seed[k] + u[k] * (along - across - back)));
      out.push_back(end == 0 ? 0.0f : fade);
    }
  }
}

}  // namespace app
