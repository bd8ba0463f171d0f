// The built-in scene catalog: assets/scenes/*.json compiled into the binary (DESIGN.md §3.8), so
// that the program works from any directory. Used by the app, the CLI, the tests and the bench.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace scene {

namespace detail {
struct EmbeddedScene {
  const char* name;
  const char* text;
};
// defined in the generated catalog_data.cpp (scripts/embed_files.cmake)
extern const EmbeddedScene kEmbeddedScenes[];
extern const int kEmbeddedSceneCount;
}  // namespace detail

std::vector<std::string> builtinNames();  // sorted
const std::string_view* findBuiltin(std::string_view name);
inline constexpr const char* kDefaultScene = "seed003_table1_case1";

}  // namespace scene
