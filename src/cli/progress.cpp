#include "cli/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace cli {

namespace {
// "42 s", "3 min 20 s", "2 h 05 min"
std::string duration(double s) {
  char text[48];
  const long long whole = std::llround(s);
  if (whole < 60)
    std::snprintf(text, sizeof text, "%lld s", whole);
  else if (whole < 3600)
    std::snprintf(text, sizeof text, "%lld min %02lld s", whole / 60, whole % 60);
  else
    std::snprintf(text, sizeof text, "%lld h %02lld min", whole / 3600, whole / 60 % 60);
  return text;
}
}  // namespace

Progress::Progress(std::string label, std::string unit, long long total, Clock clock, Sink sink)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      clock_(std::move(clock)),
      sink_(std::move(sink)) {
  if (clock_ && sink_ && total_ > 0) {
    start_ = clock_();
    next_check_ = 1;
  }
}

Progress Progress::forStderr(std::string label, std::string unit, long long total) {
  if (!::isatty(2)) return Progress(std::move(label), std::move(unit), total, nullptr, nullptr);
  const auto clock = [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  const auto sink = [](const std::string& text) {
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
  };
  return Progress(std::move(label), std::move(unit), total, clock, sink);
}

void Progress::check(long long done, double simulatedTime) {
  const double elapsed = clock_() - start_;
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
  next_check_ = done + std::max(1LL, std::llround(rate * kCheckInterval));
  if (!shown_) {
    if (elapsed < kDecideAfter || done <= 0) return;
    const double expected = elapsed * static_cast<double>(total_) / static_cast<double>(done);
    if (expected <= kShowAbove) return;
    shown_ = true;
  }
  if (last_draw_ >= 0 && elapsed - last_draw_ < kRedraw) return;
  last_draw_ = elapsed;
  draw(line(done, simulatedTime, elapsed));
}

void Progress::draw(std::string text) {
  const size_t width = text.size();
  if (width < drawn_width_) text.append(drawn_width_ - width, ' ');  // cover a longer old line
  drawn_width_ = width;
  sink_("\r" + text);
}

std::string Progress::line(long long done, double simulatedTime, double elapsed) const {
  const double rate = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
  char text[256];
  int n =
      std::snprintf(text, sizeof text, "%s: %lld/%lld %s (%.0f%%)", label_.c_str(), done, total_,
                    unit_.c_str(), 100.0 * static_cast<double>(done) / static_cast<double>(total_));
  if (!std::isnan(simulatedTime))
    n += std::snprintf(text + n, sizeof text - n, ", t = %.4g s", simulatedTime);
  n += std::snprintf(text + n, sizeof text - n, ", %.3g %s/s", rate, unit_.c_str());
  if (rate > 0 && done < total_)
    std::snprintf(text + n, sizeof text - n, ", %s left",
                  duration(static_cast<double>(total_ - done) / rate).c_str());
  return text;
}

void Progress::clear() {
  if (!shown_ || drawn_width_ == 0) return;
  std::string blank(drawn_width_ + 2, ' ');  // not "\r" + s + "\r": GCC 12 warns falsely
  blank.front() = blank.back() = '\r';
  sink_(blank);
  drawn_width_ = 0;
  last_draw_ = -1.0;
}

void Progress::finish(long long done, double simulatedTime) {
  if (!shown_) return;
  draw(line(done, simulatedTime, clock_() - start_));
  sink_("\n");
  shown_ = false;
  drawn_width_ = 0;
  next_check_ = LLONG_MAX;
}

}  // namespace cli
