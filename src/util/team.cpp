#include "util/team.hpp"

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
void awaitChange(const std::atomic<unsigned>& word, unsigned old, std::atomic<int>& sleepers) {
  const auto until = std::chrono::steady_clock::now() + kPollTime;
  do {
    for (int i = 0; i < kPausesPerClockRead; ++i) {
      if (word.load(std::memory_order_acquire) != old) return;
      cpuRelax();
    }
  } while (std::chrono::steady_clock::now() < until);
  sleepers.fetch_add(1);
  while (word.load() == old) word.wait(old);
  sleepers.fetch_sub(1);
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

void runTeam(int threads, const TeamBody& body) {
  if (threads <= 1) {
    TeamMember alone(0, 1, nullptr);
    body(alone);
    return;
  }
  if (!t_pool || t_pool->size() != threads) {
    t_pool.reset();
    t_pool = std::make_unique<Pool>(threads);
  }
  t_pool->run(body);
}

}  // namespace util
