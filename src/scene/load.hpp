// Strict scene loading (docs/scenes.md): unknown keys, wrong types, non-finite or out-of-range
// numbers and bad indices are errors naming the file and the JSON path.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "scene/scene_def.hpp"

namespace scene {

// Arrays and objects nested deeper than this are an error while the text is read: a scene is a few
// levels deep (a dozen under "ui" and "render"), and copying or printing a JSON value recurses
// once per level, so a file nested 100 000 deep would overflow the stack.
inline constexpr int kMaxJsonDepth = 64;

// A scene file larger than this is refused before it is read. Its JSON is held whole, and a
// value takes up to about 20 times its text (a "{}" is a 16-byte value and a 48-byte map), so this
// keeps the worst file near 1.5 GB; the largest bodies come from generators and OBJ meshes
// (kMaxObjBytes), not from lists in the scene.
inline constexpr std::size_t kMaxSceneBytes = std::size_t(64) << 20;

// `origin` names the source in messages (a path, or "builtin:NAME").
SceneDef parse(std::string_view text, const std::string& origin);
SceneDef loadFile(const std::string& path);
// A .json path, or the name of a built-in scene.
SceneDef loadSceneArg(const std::string& arg);

}  // namespace scene
