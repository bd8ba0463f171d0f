// The scene's own colours (linear 0..1), in one place so that the lanes' colours (ui::laneColour)
// can be tested against them: a lane must never look like a body, a trail or a cloth of the scene.
#pragma once

#include <array>
#include <glm/glm.hpp>

namespace render::palette {

constexpr glm::vec3 kBody{0.98f, 0.64f, 0.28f};    // a moving particle or bob
constexpr glm::vec3 kPin{0.38f, 0.39f, 0.42f};     // a fixed particle
constexpr glm::vec3 kGrabbed{1.0f, 0.92f, 0.15f};  // the body under the mouse
constexpr glm::vec3 kClothFront{0.30f, 0.52f, 0.74f};
constexpr glm::vec3 kClothBack{0.74f, 0.56f, 0.40f};
// the trails of the bodies, one colour each in turn
constexpr std::array<glm::vec3, 6> kTrails{{{0.40f, 0.85f, 1.0f},
                                            {1.0f, 0.78f, 0.30f},
                                            {0.62f, 1.0f, 0.50f},
                                            {1.0f, 0.50f, 0.78f},
                                            {0.75f, 0.62f, 1.0f},
                                            {1.0f, 0.60f, 0.40f}}};
// the wind's streaks: a pale blue-white, air against the dark background, apart from the
// trails' saturated colours
constexpr glm::vec3 kWind{0.68f, 0.86f, 1.0f};

}  // namespace render::palette
