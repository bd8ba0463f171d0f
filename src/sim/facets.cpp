// The facets' shared parts (sim/facets.hpp): the closed forms of a period and the table of scales.
#include "sim/facets.hpp"

#include <cmath>
#include <numbers>

namespace sim {

double agm(double a, double b) {
  // quadratic convergence: the digits double each iteration, so a fixed bound is ample
  constexpr int kMaxIterations = 64;
  for (int k = 0; k < kMaxIterations && std::abs(a - b) > 1e-15 * std::abs(a); ++k) {
    const double mean = 0.5 * (a + b);
    b = std::sqrt(a * b), a = mean;
  }
  return 0.5 * (a + b);
}

double springPeriod(double mass, double stiffness) {
  return 2.0 * std::numbers::pi * std::sqrt(mass / stiffness);
}

double pendulumPeriod(double length, double gravity, double amplitude) {
  return 2.0 * std::numbers::pi * std::sqrt(length / gravity) / agm(1.0, std::cos(0.5 * amplitude));
}

namespace {
constexpr ScaleInfo kScales[] = {
    {.scale = Scale::Mass, .key = "mass_scale"},
    {.scale = Scale::Length, .key = "length_scale"},
};
}  // namespace

std::span<const ScaleInfo> scaleTable() {
  return kScales;
}

const ScaleInfo* findScale(std::string_view key) {
  for (const ScaleInfo& s : kScales)
    if (s.key == key) return &s;
  return nullptr;
}

}  // namespace sim
