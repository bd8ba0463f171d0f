// The contract each fuzz target asserts (docs/fuzzing.md), shared by the libFuzzer targets
// (tests/fuzz/fuzz_*.cpp, built with clang) and the normal suite's replay of
// tests/fuzz/regressions/ (tests/test_fuzz_regressions.cpp, built with GCC), so that both judge an
// input by the same rule. Each returns nothing when the input kept the contract (a built system
// or one clean error line naming the place), else what broke, in words. An exception the parser
// should never throw is caught here and reported as a broken contract.
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scene {
struct SceneDef;
}

namespace fuzz {

// The scene JSON -> scene::parse -> scene::build and, for a small enough system, a few steps of
// its default integrator: a built system with a finite initial state, or one scene::Error line.
std::optional<std::string> checkScene(std::string_view bytes);
// The OBJ reader on the bytes: a mesh whose indices are in range, or one scene::Error line.
std::optional<std::string> checkObj(std::string_view bytes);
// A method file (scene/method_file.hpp): parsed, its problem one line naming the file, or its
// coefficients consistent, their facts computed and a few steps of it taken on a small spring
// system and a pendulum (docs/integrators.md#your-own-method).
std::optional<std::string> checkMethod(std::string_view bytes);
// The first byte picks the spec (mod 3): an `--at` event (lab::parseEvent, then lab::checkEvent
// for each kind), a `--lanes` spec (lab::parseLaneSpecs for each kind) or a `--camera` item
// (scene::applyCameraOption); the rest is the spec's text.
std::optional<std::string> checkSpecs(std::string_view bytes);
// The first byte picks the subcommand (mod its count); the rest, split on '\0' and '\n', is its
// argv, given to that command's option parser and never run.
std::optional<std::string> checkOptions(std::string_view bytes);

// The provenance file as `record --replay` reads it (app::parseProvenance), then its scene parsed
// and built as checkScene does, its lanes and events parsed: values within the command line's
// limits, or one error line. In tests/fuzz/checks_app.cpp, which needs the app room's headers
// (not its GL): built where the viewer is (SPRINGLAB_FUZZ_APP).
std::optional<std::string> checkProvenance(std::string_view bytes);

// checkOptions's choices: run, bench, compare, info, sweep, order, the window, then record (the
// last). The window's and record's own parsers (app/options.cpp), in checks_app.cpp: the
// problem, or nothing.
constexpr unsigned kRecordParser = 7;
std::optional<std::string> parseAppOptions(bool record, const std::vector<std::string>& args);

// The one-line rule: a problem is non-empty and has no line break.
std::optional<std::string> notOneLine(const std::string& message);
// notOneLine, and the message starts with `place` (the file's name as it was given)
std::optional<std::string> badError(const std::string& message, std::string_view place);
// A scene that parsed: built, with a finite initial state, and a few steps when it is small.
std::optional<std::string> buildAndStep(const scene::SceneDef& def);

// Runs `f`, turning an exception the code under test let out into a broken contract.
template <class F>
std::optional<std::string> guarded(F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    return std::string("uncaught exception: ") + e.what();
  } catch (...) {
    return std::string("uncaught exception of an unknown type");
  }
}

}  // namespace fuzz
