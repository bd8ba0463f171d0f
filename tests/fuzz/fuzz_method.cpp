// libFuzzer target: fuzz::checkMethod (tests/fuzz/checks.hpp) on each input; a broken contract is
// printed and trapped, which libFuzzer reports as a finding with the input that caused it.
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (const auto problem = fuzz::checkMethod(bytes)) {
    std::fprintf(stderr, "fuzz_method: %s\n", problem->c_str());
    __builtin_trap();
  }
  return 0;
}
