#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#ifdef SPRINGLAB_FP_TRAPS
#include <string_view>

#include "fp_trap.hpp"

namespace {

// Mesa's llvmpipe raises floating-point exceptions inside its own rasteriser and JIT-compiled
// shaders (every render test traps at once), which is driver code, not ours: the render suite
// runs without traps (tests/test_render*.cpp). Everything else, the app's Session and view tests
// included, runs with them.
bool trapsApply(const doctest::TestCaseData& tc) {
  return std::string_view(tc.m_file.c_str()).find("test_render") == std::string_view::npos;
}

// Traps FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW during every test case (tests/fp_trap.hpp).
struct FpTrapListener : doctest::IReporter {
  explicit FpTrapListener(const doctest::ContextOptions&) {}
  void test_case_start(const doctest::TestCaseData& tc) override {
    if (!trapsApply(tc)) return;
    feclearexcept(testutil::kTrappedExceptions);
    feenableexcept(testutil::kTrappedExceptions);
  }
  void test_case_end(const doctest::CurrentTestCaseStats&) override {
    fedisableexcept(testutil::kTrappedExceptions);
  }
  void test_case_exception(const doctest::TestCaseException&) override {
    fedisableexcept(testutil::kTrappedExceptions);
  }
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

}  // namespace

REGISTER_LISTENER("fp_traps", 1, FpTrapListener);
#endif
