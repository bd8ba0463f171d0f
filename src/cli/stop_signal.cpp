#include "cli/stop_signal.hpp"

namespace cli {

namespace {
volatile std::sig_atomic_t g_stop = 0;
extern "C" void onStopSignal(int) {
  g_stop = 1;
}
}  // namespace

StopOnSignal::StopOnSignal() {
  g_stop = 0;
  old_int_ = std::signal(SIGINT, onStopSignal);
  old_term_ = std::signal(SIGTERM, onStopSignal);
}

StopOnSignal::~StopOnSignal() {
  std::signal(SIGINT, old_int_);
  std::signal(SIGTERM, old_term_);
}

bool StopOnSignal::requested() {
  return g_stop != 0;
}

}  // namespace cli
