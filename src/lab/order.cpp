#include "lab/order.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "lab/lane.hpp"
#include "scene/build.hpp"
#include "util/expected.hpp"

namespace lab {

namespace {

// Differences below this (relative to the state's size) are round-off: their ratio is noise.
constexpr double kRoundOff = 1e-13;
// The check run's difference must stand this far above round-off (relative to the state's size)
// for its order to mean something: round-off accumulates over its many steps.
constexpr double kCheckFloor = 1e-11;
// The orders from (h, h/2, h/4) and (h/2, h/4, h/8) agree within this fraction of the larger
// (or kAgreementFloor, for orders near 0) when the runs are in their asymptotic range.
constexpr double kAgreement = 0.1, kAgreementFloor = 0.1;
// Runs at h and h/2 that differ by more than this fraction of the state's size are not
// approximations of one solution: no order from them means anything.
constexpr double kFarApart = 0.5;
// How often a run checks the runaway rule (and the cancel flag), in steps; also at its end.
constexpr long long kCheckEvery = 1024;
constexpr const char* kNames[] = {"h", "h/2", "h/4", "h/8"};

// The final state of one run, or why there is none: "diverged at h/2", "cancelled". A run that
// trips the runaway rule (sim/diagnostics.hpp) has diverged, as in sweep and the window.
util::Expected<sim::State> finalState(const scene::Built& built, sim::Method m, int halvings,
                                      double h, long long steps, const std::atomic<bool>* cancel) {
  const auto diverged = [&] { return util::fail(std::string("diverged at ") + kNames[halvings]); };
  Lane lane(built, built.state, m, h);
  for (long long k = 0; k < steps; ++k) {
    if (cancel && (k % kCheckEvery) == 0 && cancel->load()) return util::fail("cancelled");
    const bool ok = lane.step() && ((k + 1) % kCheckEvery != 0 || !lane.checkRunaway());
    if (!ok) return diverged();
  }
  if (lane.checkRunaway()) return diverged();
  return lane.state();
}

double difference(const sim::State& a, const sim::State& b) {
  return std::max((a.x - b.x).lpNorm<Eigen::Infinity>(), (a.v - b.v).lpNorm<Eigen::Infinity>());
}

// "0.19" for the notes
std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

// The order from the differences d[0] (h against h/2), d[1] and d[2], or why there is none: not
// converging, or the two estimates disagree (not in the asymptotic range).
util::Expected<double> judge(const double d[3], double size) {
  if (!(d[1] > kRoundOff * size)) return util::fail("differences at round-off");
  if (d[0] > kFarApart * size)
    return util::fail("not in the asymptotic range: the runs at h and h/2 differ by " +
                      number(d[0]) + ", as much as the state itself (" + number(size) + ")");
  const double order = std::log2(d[0] / d[1]);
  if (!(order > 0.0))
    return util::fail("not converging: the difference grows as h shrinks (order " + number(order) +
                      ")");
  if (!(d[2] > kCheckFloor * size)) return order;  // h/8 is at round-off: nothing to check
  const double check = std::log2(d[1] / d[2]);
  if (std::abs(order - check) >
      std::max(kAgreementFloor, kAgreement * std::max(std::abs(order), std::abs(check))))
    return util::fail("not in the asymptotic range: order " + number(order) + " from h to h/4, " +
                      number(check) + " from h/2 to h/8");
  return order;
}

OrderResult measureOne(const scene::Built& built, sim::Method m, double h, long long steps,
                       const std::atomic<bool>* cancel) {
  OrderResult r{m, std::numeric_limits<double>::quiet_NaN(), {}};
  std::optional<sim::State> runs[kRuns];
  for (int i = 0; i < kRuns; ++i) {
    util::Expected<sim::State> run =
        finalState(built, m, i, h / double(1 << i), steps << i, cancel);
    if (!run) {
      r.note = run.problem();
      return r;
    }
    runs[i] = std::move(*run);
  }
  const double d[3] = {difference(*runs[0], *runs[1]), difference(*runs[1], *runs[2]),
                       difference(*runs[2], *runs[3])};
  const double size =
      std::max({runs[2]->x.lpNorm<Eigen::Infinity>(), runs[2]->v.lpNorm<Eigen::Infinity>(), 1.0});
  const util::Expected<double> order = judge(d, size);
  if (order)
    r.order = *order;
  else
    r.note = order.problem();
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
