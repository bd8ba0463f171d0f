#include "util/team.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace util {

namespace {

// How long a waiting member polls before it sleeps. Longer than the serial work between two
// back-to-back teams in the benchmarks, so that back-to-back steps never wait for a sleeping worker
// to be woken (measured: 250 us of polling made the stiff-cloth bench 5 % slower than OpenMP, 750
// us as fast); far shorter than a frame, so that the workers sleep while the window renders. GCC's
// OpenMP runtime polls for 300 000 pauses, 7.5 ms on this machine's cores (25 ns a pause): it
// took 2.5 ms a frame from the software renderer of cloth_64
// (docs/benchmarks.md#the-window-with-the-stiff-cloths).
constexpr auto kPollTime = std::chrono::microseconds(750);
constexpr int kPausesPerClockRead = 64;  // reading the clock costs about one pause

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Waits until `word` no longer holds `old`. A sleeper counts itself in `sleepers` before it
// checks the word again and sleeps; wake() changes the word before it reads `sleepers` (both
// sequentially consistent), so either the waker sees the sleeper and notifies, or the sleeper
// sees the new word and never sleeps: no wake-up is lost.
// What this thread spent waiting in awaitChange (the governor reads the first member's).
thread_local std::chrono::steady_clock::duration t_waited{0};

void awaitChange(const std::atomic<unsigned>& word, unsigned old, std::atomic<int>& sleepers) {
  if (word.load(std::memory_order_acquire) != old) return;  // no wait: no clock read
  const auto start = std::chrono::steady_clock::now();
  const auto until = start + kPollTime;
  auto done = [&] { t_waited += std::chrono::steady_clock::now() - start; };
  do {
    for (int i = 0; i < kPausesPerClockRead; ++i) {
      if (word.load(std::memory_order_acquire) != old) return done();
      cpuRelax();
    }
  } while (std::chrono::steady_clock::now() < until);
  sleepers.fetch_add(1);
  while (word.load() == old) word.wait(old);
  sleepers.fetch_sub(1);
  done();
}

// Changes `word` and wakes its sleepers, if any (no system call when none sleeps).
void wake(std::atomic<unsigned>& word, std::atomic<int>& sleepers) {
  word.fetch_add(1);
  if (sleepers.load() > 0) word.notify_all();
}

// The workers of one calling thread: members 1 .. size - 1 of its teams.
class Pool {
 public:
  explicit Pool(int size) : size_(size), barrier_(size) {
    for (int id = 1; id < size; ++id) workers_.emplace_back([this, id] { work(id); });
  }
  ~Pool() {
    stop_ = true;
    wake(region_, sleepers_);
    for (std::thread& t : workers_) t.join();
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  int size() const { return size_; }

  void run(const TeamBody& body) {
    body_ = &body;
    wake(region_, sleepers_);
    TeamMember self(0, size_, &barrier_);
    body(self);
    self.barrier();  // every worker is done with body before it goes out of scope
  }

 private:
  void work(int id) {
    unsigned seen = 0;
    for (;;) {
      awaitChange(region_, seen, sleepers_);
      seen = region_.load(std::memory_order_acquire);
      if (stop_) return;
      TeamMember self(id, size_, &barrier_);
      (*body_)(self);
      self.barrier();
    }
  }

  int size_;
  SpinBarrier barrier_;
  std::atomic<unsigned> region_{0};  // changed once per team run (and to stop)
  std::atomic<int> sleepers_{0};
  const TeamBody* body_ = nullptr;  // written before region_ changes, read after
  bool stop_ = false;               // likewise
  std::vector<std::thread> workers_;
};

thread_local std::unique_ptr<Pool> t_pool;

}  // namespace

void SpinBarrier::arriveAndWait() {
  const unsigned generation = generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == members_) {
    arrived_.store(0, std::memory_order_relaxed);  // published by wake's change of generation_
    wake(generation_, sleepers_);
  } else {
    awaitChange(generation_, generation, sleepers_);
  }
}

void Signal::open() {
  wake(word_, sleepers_);
}

void Signal::wait() {
  awaitChange(word_, 0, sleepers_);
}

int TeamGovernor::size(int wanted) {
  governed_ = enabled_ && wanted > 1;
  if (!governed_) return wanted;
  return mode_ == Mode::Alone ? 1 : wanted;
}

void TeamGovernor::record(Clock::duration took, Clock::duration waited, Clock::time_point now) {
  took_ += took, waited_ += waited, ++runs_;
  if (took_ >= kWindow) endWindow(now);
}

void TeamGovernor::choose(Mode m, Clock::time_point now) {
  hold_ = m == chosen_ ? std::min<Clock::duration>(2 * hold_, kMaxHold) : kFirstHold;
  if (m != chosen_) chosen_mean_ = 0.0;
  chosen_ = mode_ = m;
  next_trial_ = now + hold_;
}

void TeamGovernor::endWindow(Clock::time_point now) {
  const double mean = std::chrono::duration<double>(took_).count() / static_cast<double>(runs_);
  const bool idle_team = mode_ == Mode::Team && waited_ > took_ - waited_;
  took_ = waited_ = Clock::duration{0}, runs_ = 0;
  const Mode other = mode_ == Mode::Team ? Mode::Alone : Mode::Team;
  if (mode_ != chosen_) {  // a trial window: the other mode wins only by the margin
    const bool wins = !idle_team && (chosen_mean_ == 0.0 || mean < (1.0 - kMargin) * chosen_mean_);
    choose(wins ? mode_ : chosen_, now);
    if (wins) chosen_mean_ = mean;
    return;
  }
  if (idle_team) {  // the team waited longer than it worked: one thread is faster
    choose(Mode::Alone, now);
    return;
  }
  chosen_mean_ = mean;
  if (now >= next_trial_) mode_ = other;  // try the other for the next window
}

TeamGovernor& teamGovernor() {
  thread_local TeamGovernor governor;
  return governor;
}

void runTeam(int threads, const TeamBody& body) {
  TeamGovernor& governor = teamGovernor();
  const bool timed = governor.takeGoverned();
  const auto start =
      timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  const auto waited_before = t_waited;
  if (threads <= 1) {
    TeamMember alone(0, 1, nullptr);
    body(alone);
  } else {
    if (!t_pool || t_pool->size() != threads) {
      t_pool.reset();
      t_pool = std::make_unique<Pool>(threads);
    }
    t_pool->run(body);
  }
  if (!timed) return;
  const auto end = std::chrono::steady_clock::now();
  governor.record(end - start, t_waited - waited_before, end);
}

}  // namespace util
