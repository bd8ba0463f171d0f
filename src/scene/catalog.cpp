#include "scene/catalog.hpp"

#include <algorithm>

namespace scene {
namespace {
const std::vector<std::string_view>& texts() {
  static const std::vector<std::string_view> t = [] {
    std::vector<std::string_view> v;
    for (int i = 0; i < detail::kEmbeddedSceneCount; ++i)
      v.emplace_back(detail::kEmbeddedScenes[i].text);
    return v;
  }();
  return t;
}
}  // namespace

std::vector<std::string> builtinNames() {
  std::vector<std::string> names;
  for (int i = 0; i < detail::kEmbeddedSceneCount; ++i)
    names.emplace_back(detail::kEmbeddedScenes[i].name);
  std::sort(names.begin(), names.end());
  return names;
}

const std::string_view* findBuiltin(std::string_view name) {
  for (int i = 0; i < detail::kEmbeddedSceneCount; ++i)
    if (name == detail::kEmbeddedScenes[i].name) return &texts()[i];
  return nullptr;
}

std::vector<std::string> builtinMeshNames() {
  std::vector<std::string> names;
  for (int i = 0; i < detail::kEmbeddedMeshCount; ++i)
    names.emplace_back(detail::kEmbeddedMeshes[i].name);
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string_view> findBuiltinMesh(std::string_view name) {
  for (int i = 0; i < detail::kEmbeddedMeshCount; ++i)
    if (name == detail::kEmbeddedMeshes[i].name) return detail::kEmbeddedMeshes[i].text;
  return std::nullopt;
}

}  // namespace scene
