// Ctrl+C and SIGTERM for long headless work (docs/cli.md#exit-status): while a StopOnSignal is
// alive the two signals only set a flag, so the work stops between two steps and leaves complete
// files; the previous handlers come back when it goes.
#pragma once

#include <csignal>

namespace cli {

class StopOnSignal {
 public:
  StopOnSignal();
  ~StopOnSignal();
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;
  static bool requested();  // a signal came since the newest StopOnSignal was made

 private:
  void (*old_int_)(int);
  void (*old_term_)(int);
};

}  // namespace cli
