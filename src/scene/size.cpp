#include "scene/size.hpp"

#include "scene/kinds.hpp"

namespace scene {

SceneSize sizeOf(const SceneDef& def) {
  SceneSize s = detail::sceneKind(def.kind).size(def);
  s.bytes += sizeof(SceneDef);
  return s;
}

}  // namespace scene
