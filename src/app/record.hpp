// `springlab record SCENE --out FILE [options]` (docs/cli.md#record): the scene rendered offscreen
// through the FrameDriver, frame k after step round(k / (fps dt)), into a FrameSink (video by an
// ffmpeg child, or PNGs), with a provenance file to render the same frames again.
#pragma once

#include <optional>
#include <string>

#include <vector>
#include "app/setup.hpp"

namespace app {

// The limits of a recording's rate and picture (docs/cli.md#record): --fps and --size, and the
// same keys of a provenance file that --replay reads.
inline constexpr int kMinRecordFps = 1, kMaxRecordFps = 240;
inline constexpr int kMaxRecordWidth = 3840, kMaxRecordHeight = 2160;  // px: up to 4K UHD

struct RecordOptions {
  std::string scene;  // a built-in name or a .json path (empty with --replay)
  std::string out;
  std::optional<double> seconds;  // s of simulated time; default the scene's duration
  double fps = 60.0;
  int width = 1280, height = 720;
  SessionOptions session;  // --integrator, --dt, --lanes, --at
  // --ui: the panel drawn into the picture; by default (and with --no-ui) the scene alone with
  // its overlays (docs/cli.md#record)
  bool ui = false, caption = false;
  bool side_by_side = false;  // lanes in split viewports (--side-by-side)
  bool arrows = false;        // the traced body's arrows (--arrows, docs/exploring.md#arrows)
  bool forces = false;        // the forces on it (--forces, docs/exploring.md#forces)
  bool stats = false;         // print where the time went (stepping, drawing, readback, encoding)
  std::vector<std::string> camera;  // KEY=VALUE, in order
  std::string replay;               // a provenance file to render again
  // from a provenance file: the scene's definition as loaded, its name and where it came from
  std::string scene_json, scene_name, scene_source;
};

// Parses record's options (cli::recordOptions()); returns the problem or nothing.
std::optional<std::string> parseRecordOptions(const std::vector<std::string>& args,
                                              RecordOptions& o);
// The whole command; returns the exit status (0, 2 bad input or failure to write, 3 diverged,
// 130 interrupted).
int recordMain(const std::vector<std::string>& args);

}  // namespace app
