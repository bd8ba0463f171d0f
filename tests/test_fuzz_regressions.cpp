// The fuzz targets' contract in the normal suite (docs/fuzzing.md): every input of
// tests/fuzz/regressions/ (those a fuzzer once broke, and hand-made nasty ones) and of the seed
// corpus tests/fuzz/corpus/ is replayed through the same check the libFuzzer target asserts
// (tests/fuzz/checks.cpp), so a parser change that breaks one fails here, without clang.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>

#include "fp_trap.hpp"
#include "fuzz/checks.hpp"

namespace {

namespace fs = std::filesystem;
using Check = std::function<std::optional<std::string>(std::string_view)>;

const std::map<std::string, Check>& checks() {
  static const std::map<std::string, Check> table = {{"scene", fuzz::checkScene},
                                                     {"obj", fuzz::checkObj},
                                                     {"specs", fuzz::checkSpecs},
                                                     {"options", fuzz::checkOptions},
#ifdef SPRINGLAB_FUZZ_PROVENANCE  // with the viewer's room (tests/CMakeLists.txt)
                                                     {"provenance", fuzz::checkProvenance}
#endif
  };
  return table;
}

std::string readBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Replays every file under tests/fuzz/FOLDER/TARGET through TARGET's check; returns how many.
int replay(const std::string& folder) {
  // a fuzzed scene may diverge in its few steps, which is a value, not a failure (the libFuzzer
  // targets run without traps too)
  const FpTrapsOff traps;
  int count = 0;
  for (const auto& [target, check] : checks()) {
    const fs::path dir = fs::path(SPRINGLAB_SOURCE_DIR) / "tests" / "fuzz" / folder / target;
    REQUIRE_MESSAGE(fs::is_directory(dir), dir.string());
    for (const auto& entry : fs::directory_iterator(dir)) {
      const auto problem = check(readBytes(entry.path()));
      CHECK_MESSAGE(!problem, entry.path().string() << ": " << problem.value_or(""));
      ++count;
    }
  }
  return count;
}

}  // namespace

TEST_CASE("fuzz: every regression input keeps its target's contract") {
  CHECK(replay("regressions") > 0);
}

TEST_CASE("fuzz: every seed of the corpus keeps its target's contract") {
  CHECK(replay("corpus") > 0);
}

TEST_CASE("fuzz: the checks see a broken contract") {
  CHECK(fuzz::notOneLine("") == "an empty error message");
  CHECK(fuzz::notOneLine("a.json: x: bad\nsecond") ==
        "an error message of more than one line: a.json: x: bad\nsecond");
  CHECK(!fuzz::notOneLine("a.json: x: bad"));
  // a clean error is the contract kept; so is a built system
  CHECK(!fuzz::checkScene("{"));
  CHECK(!fuzz::checkObj("f 1 2 3"));
}
