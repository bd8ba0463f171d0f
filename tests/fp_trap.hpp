// Floating-point traps for the tests: with FE_INVALID, FE_DIVBYZERO and FE_OVERFLOW trapped, the
// first NaN, division by zero or overflow raises SIGFPE where it happens, instead of a NaN that
// a later check may or may not notice. tests/main.cpp turns the traps on for every test case of
// springlab_tests; a test that drives an integrator to divergence on purpose (its overflow is
// the point) says so with a FpTrapsOff at its top.
#pragma once

#include <fenv.h>

namespace testutil {

constexpr int kTrappedExceptions = FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW;

// Turns the traps off for its scope; restores them (and clears the flags it raised) after.
class FpTrapsOff {
 public:
  FpTrapsOff() : was_(fegetexcept()) { fedisableexcept(kTrappedExceptions); }
  ~FpTrapsOff() {
    feclearexcept(kTrappedExceptions);  // a raised flag would trap at once when re-enabled
    feenableexcept(was_);
  }
  FpTrapsOff(const FpTrapsOff&) = delete;
  FpTrapsOff& operator=(const FpTrapsOff&) = delete;

 private:
  int was_;
};

}  // namespace testutil
