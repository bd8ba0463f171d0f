// `springlab [SCENE] [options]`: the interactive window (GLFW), or, with --screenshot / --frames
// and no display, the same frames rendered headless through EGL.
#pragma once

#include <string>

#include <vector>
#include "app/setup.hpp"

namespace app {

struct ViewerOptions {
  // the first interactive session's scene: one that moves in 3-D (a cloth sagging into a dish)
  std::string scene = "cloth_32_horizontal";
  SessionOptions session;  // --integrator, --dt, --lanes, --at
  int width = 1280, height = 720;
  long long frames = -1;   // quit after N frames (-1: run until closed)
  std::string screenshot;  // PNG of the last frame
  bool headless = false;   // force EGL even with a display
  bool no_ui = false;
  bool side_by_side = false;                     // lanes in split viewports (--side-by-side)
  bool scene_given = false, size_given = false;  // else taken from the preferences
  bool stats = false;  // wall-clock loop even with --frames; print frame timings at exit
};

// Parses the window options (docs/cli.md#the-window); returns 0 or exit status 2 with a message.
int parseViewerOptions(const std::vector<std::string>& args, ViewerOptions& o, std::string& error);
int viewerMain(const std::vector<std::string>& args);

}  // namespace app
