// TEMPORARY shim until the rendersec branch lands
#include "scene/scene_def.hpp"
namespace scene {
std::optional<std::string> applyCameraOption(std::string_view, CameraDef&) { return std::nullopt; }
}  // namespace scene
