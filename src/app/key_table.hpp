// The window's keyboard (docs/cli.md#the-window): the keyboard half of ui::bindings() (the help
// overlay's table), as GLFW keys. keyBindingMismatches() holds the two tables equal; the mouse rows
// are MouseControl's.
#pragma once

#include <string>
#include <vector>

#include "app/frame_driver.hpp"

namespace app {

// A key press: what it does to the driver directly (views, camera), or the commands it issues,
// which the window applies like the panel's.
void onKeyPress(FrameDriver& d, int glfwKey, bool ctrl, bool shift,
                std::vector<ui::Command>& commands);

// Rows of ui::bindings() without an action, actions without a row. Empty when they agree.
std::vector<std::string> keyBindingMismatches();

}  // namespace app
