#include "lab/order.hpp"

#include <cmath>
#include <limits>
#include <optional>

#include "lab/lane.hpp"
#include "scene/build.hpp"

namespace lab {

namespace {

// Differences below this (relative to the state's size) are round-off: their ratio is noise.
constexpr double kRoundOff = 1e-13;

// The final state of one run, or nothing when it diverged or was cancelled.
std::optional<sim::State> finalState(const scene::Built& built, sim::Method m, double h,
                                     long long steps, const std::atomic<bool>* cancel) {
  Lane lane(built, built.state, m, h);
  for (long long k = 0; k < steps; ++k) {
    if (cancel && (k & 1023) == 0 && cancel->load()) return std::nullopt;
    if (!lane.step()) return std::nullopt;
  }
  return lane.state();
}

double difference(const sim::State& a, const sim::State& b) {
  return std::max((a.x - b.x).lpNorm<Eigen::Infinity>(), (a.v - b.v).lpNorm<Eigen::Infinity>());
}

OrderResult measureOne(const scene::Built& built, sim::Method m, double h, long long steps,
                       const std::atomic<bool>* cancel) {
  OrderResult r{m, std::numeric_limits<double>::quiet_NaN(), {}};
  std::optional<sim::State> runs[3];
  static const char* const kNames[] = {"h", "h/2", "h/4"};
  for (int i = 0; i < 3; ++i) {
    runs[i] = finalState(built, m, h / double(1 << i), steps << i, cancel);
    if (cancel && cancel->load()) return r.note = "cancelled", r;
    if (!runs[i]) return r.note = std::string("diverged at ") + kNames[i], r;
  }
  const double d1 = difference(*runs[0], *runs[1]), d2 = difference(*runs[1], *runs[2]);
  const double size =
      std::max({runs[2]->x.lpNorm<Eigen::Infinity>(), runs[2]->v.lpNorm<Eigen::Infinity>(), 1.0});
  if (!(d2 > kRoundOff * size)) return r.note = "differences at round-off", r;
  r.order = std::log2(d1 / d2);
  return r;
}

}  // namespace

std::vector<OrderResult> measureOrders(const scene::SceneDef& def,
                                       std::span<const sim::Method> methods, double h,
                                       double duration, const std::atomic<bool>* cancel) {
  const scene::Built built = scene::build(def);
  const long long steps = std::max(1LL, std::llround(duration / h));
  std::vector<OrderResult> out;
  for (sim::Method m : methods) out.push_back(measureOne(built, m, h, steps, cancel));
  return out;
}

}  // namespace lab
