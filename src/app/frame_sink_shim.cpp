// TEMPORARY shim
#include "app/frame_sink.hpp"
namespace app {
std::optional<OutputKind> outputKindOf(const std::string&, std::string* e) {
  *e = "shim";
  return std::nullopt;
}
bool needsFfmpeg(OutputKind) {
  return true;
}
bool needsEvenSize(OutputKind) {
  return true;
}
std::string findFfmpeg() {
  return {};
}
std::unique_ptr<FrameSink> openSink(const SinkOptions&, std::string* e) {
  *e = "shim";
  return nullptr;
}
}  // namespace app
#include "scene/scene_def.hpp"
namespace scene {
std::optional<std::string> applyCameraOption(std::string_view, CameraDef&) {
  return std::nullopt;
}
}  // namespace scene
