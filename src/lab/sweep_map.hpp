// The stability map as a picture (docs/cli.md#sweep,
// docs/lab.md#stability-limits-the-map-and-orders): an overall title (scene, simulated time per
// cell), one panel per integrator titled with its name, cells coloured by class over dt (log axis,
// ticks in s) and the stiffness scale (log axis; a one-row strip when the sweep has one scale), the
// theoretical limit drawn and labelled over them, and a legend of the classes. `springlab sweep
// --png` and the window's "Save map PNG" both draw it here, on the CPU (util/canvas.hpp,
// util/text.hpp): no GL.
#pragma once

#include <vector>

#include "lab/sweep.hpp"
#include "util/canvas.hpp"

namespace lab {

// Where the parts of one panel lie (px in the picture).
struct MapPanelLayout {
  util::Box title, grid;
  std::vector<util::Box> x_labels, y_labels;  // tick labels (no y labels on a one-row strip)
  util::Box x_title;                          // "dt (s)"
  util::Box y_title;      // "stiffness scale" (upwards), or the strip's "stiffness ×1"
  util::Box limit_label;  // the limit line's label, or the reason there is none
};

// Where the parts of the picture lie: what the tests check for text and for overlaps.
struct MapLayout {
  util::Box title;
  std::vector<MapPanelLayout> panels;  // spec.methods' order
  std::vector<util::Box> legend;       // one entry each: swatch and words
};

struct SweepMap {
  util::Canvas image;
  MapLayout layout;
};

// The map of `cells` (any part of the grid: a cell not given is drawn "not run"). `omegaMax`
// (rad/s) is the scene's at stiffness scale 1; each panel's limit is sim::dtLimit(method,
// omegaMax) / sqrt(stiffness scale).
SweepMap drawSweepMap(const SweepSpec& spec, const std::vector<CellResult>& cells, double omegaMax);

// The cells' colours (the window's map, ui/lab_panel.cpp, uses the same).
inline constexpr util::Rgb kMapStable{40, 140, 80}, kMapDrifting{215, 150, 30},
    kMapDiverged{200, 55, 50}, kMapNotRun{45, 48, 56}, kMapBackground{24, 26, 32};

}  // namespace lab
