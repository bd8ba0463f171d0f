// Overlays of a recording: the caption burnt into a clip (record --caption) and the window's red
// recording indicator. Drawn with ImGui's foreground list: no window, no input.
#pragma once

#include <string>

namespace ui {

// One line of text on a dark translucent band at the top left of the scene viewport (which
// starts at viewport_x).
void drawCaption(const std::string& text, float viewport_x);
// A red dot and `label` ("REC 0:03.25") at the top right of the window.
void drawRecordingIndicator(const std::string& label);

}  // namespace ui
