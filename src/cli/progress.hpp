// A progress line for long commands (run, bench; later record and sweep): steps done out of the
// total, simulated time, steps per second and the time left, redrawn in place with '\r' a few
// times per second. It appears only when the command is expected to take more than
// kShowAbove seconds, judged from the rate measured over the first kDecideAfter seconds, and
// only where it is enabled (standard error is a terminal: see forStderr); a pipe or a log file
// never gets one (docs/cli.md, run).
#pragma once

#include <climits>
#include <functional>
#include <string>

namespace cli {

class Progress {
 public:
  using Clock = std::function<double()>;                 // s, monotonic
  using Sink = std::function<void(const std::string&)>;  // where the text goes

  static constexpr double kDecideAfter = 0.5;  // s of work before the rate is trusted
  static constexpr double kShowAbove = 2.0;    // s: shorter commands need no progress line
  static constexpr double kRedraw = 0.25;      // s between two drawings of the line

  // `label` starts the line ("springlab run"); `unit` names what is counted ("steps").
  Progress(std::string label, std::string unit, long long total, Clock clock, Sink sink);
  // Enabled when standard error is a terminal; otherwise every call does nothing.
  static Progress forStderr(std::string label, std::string unit, long long total);

  // `done` units of work are finished; `simulatedTime` (s) is shown unless it is NaN. Cheap
  // enough to call at every step: it reads the clock only every kCheckInterval or so.
  void update(long long done, double simulatedTime) {
    if (done >= next_check_) check(done, simulatedTime);
  }
  // Erases the line (before other text goes to the same terminal); the next update redraws it.
  void clear();
  // Draws the final count and ends the line with a newline, if the line was shown.
  void finish(long long done, double simulatedTime);
  bool shown() const { return shown_; }

 private:
  static constexpr double kCheckInterval = 0.05;  // s of work between two readings of the clock
  void check(long long done, double simulatedTime);
  void draw(std::string text);  // replaces the line on screen
  std::string line(long long done, double simulatedTime, double elapsed) const;

  std::string label_, unit_;
  long long total_;
  Clock clock_;
  Sink sink_;
  double start_ = 0.0;
  double last_draw_ = -1.0;  // s since start; < 0: never drawn since the last clear
  long long next_check_ = LLONG_MAX;
  size_t drawn_width_ = 0;  // characters of the line on screen now
  bool shown_ = false;
};

}  // namespace cli
