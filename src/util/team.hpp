// The kernels' threads (docs/architecture.md#threads): a team of `threads` members, the calling
// thread being member 0, that runs one function on every member, with OpenMP-like static loop
// splits and barriers. The workers are kept per calling thread and reused; between teams and at
// a barrier a waiting member polls for 0.75 ms at most and then sleeps on a futex
// (std::atomic::wait), so that a finished step leaves both cores to whatever comes next (the
// window's software renderer). GCC's OpenMP runtime, which the kernels used before, polls for
// 7.5 ms: measured, that took 2.5 ms a frame from the renderer of cloth_64
// (docs/benchmarks.md#the-window-with-the-stiff-cloths).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <utility>

namespace util {

// A reusable barrier for a fixed number of members: spin, then sleep.
class SpinBarrier {
 public:
  explicit SpinBarrier(int members) : members_(members) {}
  // Returns once every member has arrived; what each wrote before arriving is visible to all.
  void arriveAndWait();

 private:
  int members_;
  std::atomic<int> arrived_{0};
  std::atomic<unsigned> generation_{0};
  std::atomic<int> sleepers_{0};
};

// A one-way signal inside a team: one member opens it once, another waits until it is open
// (polling, then sleeping, as at the barrier); what the opener wrote before is visible to the
// waiter after. A fresh one for each use: it cannot be closed again.
class Signal {
 public:
  void open();
  void wait();

 private:
  std::atomic<unsigned> word_{0};
  std::atomic<int> sleepers_{0};
};

class TeamMember {
 public:
  TeamMember(int id, int size, SpinBarrier* barrier) : id_(id), size_(size), barrier_(barrier) {}
  int id() const { return id_; }
  int size() const { return size_; }
  void barrier() {
    if (size_ > 1) barrier_->arriveAndWait();
  }
  // f(i) for i in [begin, end), split into size() contiguous blocks, the first (end - begin) %
  // size() of them one longer, member k doing the k-th (OpenMP's schedule(static)); then a
  // barrier, so that every member sees all of the loop's writes.
  template <class F>
  void forEach(int begin, int end, F&& f) {
    forRange(begin, end, [&](int from, int to) {
      for (int i = from; i < to; ++i) f(i);
    });
  }
  // f(from, to) once, on this member's block of forEach's split (if not empty); then a barrier.
  // For kernels that take a block at once (the SIMD ones, sim/xpbd_kernels.hpp).
  template <class F>
  void forRange(int begin, int end, F&& f) {
    const int n = end - begin;
    if (n > 0) {
      const int q = n / size_, r = n % size_;
      const int from = begin + id_ * q + (id_ < r ? id_ : r);
      const int to = from + q + (id_ < r ? 1 : 0);
      if (from < to) f(from, to);
    }
    barrier();
  }
  // f() on member 0 alone, then a barrier.
  template <class F>
  void single(F&& f) {
    if (id_ == 0) f();
    barrier();
  }

 private:
  int id_, size_;
  SpinBarrier* barrier_;
};

// Whether a calling thread's teams are worth their threads (docs/architecture.md#threads). On a
// busy machine a worker loses its core for a scheduler's time slice and the team's first member
// waits for it at every barrier: the team then runs slower than one thread. The governor runs
// the kernels in windows (kWindow of their time) and measures: the mean time of a kernel run with
// the team, and alone. It keeps the faster and, after a hold, tries the other for one window
// again (the hold doubles each time the choice stands, up to kMaxHold, and starts over when it
// changes). A team window whose first member waited at barriers and signals longer than it worked
// ends the team at once. A pure record of times, so that tests feed it their own.
class TeamGovernor {
 public:
  using Clock = std::chrono::steady_clock;
  // How many members the next kernel's team of at most `wanted` should have; a team of more
  // than one, or one that the governor made alone, is then timed by runTeam and recorded here.
  int size(int wanted);
  // Whether size() chose the team of the next run (cleared as it is read).
  bool takeGoverned() { return std::exchange(governed_, false); }
  // That run took `took`, of which the first member spent `waited` waiting; it ended `now`.
  void record(Clock::duration took, Clock::duration waited, Clock::time_point now);
  bool alone() const { return mode_ == Mode::Alone; }
  // Off (as made): size() is always `wanted`. The program turns it on for the threads that own
  // the machine (main.cpp); tests that compare thread counts bit for bit need the team they ask.
  void enable(bool on) { enabled_ = on; }

  static constexpr auto kWindow = std::chrono::milliseconds(4);      // of kernel runs
  static constexpr auto kFirstHold = std::chrono::milliseconds(50);  // before the other is tried
  static constexpr auto kMaxHold = std::chrono::milliseconds(1600);
  static constexpr double kMargin = 0.05;  // the other must be this much faster to be chosen

 private:
  enum class Mode { Team, Alone };
  void endWindow(Clock::time_point now);
  void choose(Mode m, Clock::time_point now);

  bool enabled_ = false, governed_ = false;
  Mode mode_ = Mode::Team;    // what runs now
  Mode chosen_ = Mode::Team;  // what was chosen (mode_ differs from it in a trial window)
  double chosen_mean_ = 0.0;  // s per run of the chosen mode's last window; 0: not measured yet
  Clock::time_point next_trial_{};
  Clock::duration hold_ = kFirstHold;
  Clock::duration took_{0}, waited_{0};  // the window so far
  long long runs_ = 0;
};

// The calling thread's governor (each thread that runs teams has its own).
TeamGovernor& teamGovernor();

using TeamBody = std::function<void(TeamMember&)>;

// Runs body(member) on `threads` members (1 or fewer: on the calling thread alone, with no
// synchronisation) and returns when every member has returned. The body must not throw. A run
// whose size the calling thread's governor chose (sim::kernelThreads asks it) is timed for it.
void runTeam(int threads, const TeamBody& body);

}  // namespace util
