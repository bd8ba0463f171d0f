// The window's red recording indicator (a clip's caption is laid out with the lanes' labels:
// ui::drawSceneOverlays). Drawn with ImGui's foreground list: no window, no input.
#pragma once

#include <string>

namespace ui {

// What a clip's caption says (record --caption): the scene, the method and the energy, split by
// the lane's ledger (docs/integrators.md#the-energy-ledger) into the physics' share (work the
// dissipative forces took out, what the contacts took out, work put in) and the integrator's
// error.
struct CaptionFacts {
  std::string scene, integrator;
  double dt = 0.0, t = 0.0;                                 // s
  double e0 = 0.0, energy = 0.0;                            // J: at the anchor and now
  double dissipated = 0.0, external = 0.0, residual = 0.0;  // J, since the anchor
  double contacts = 0.0;                                    // J, since the anchor
  double reference = 1.0;  // J: |E0|, or the scene's energy scale S where E0 is about 0
  bool relative = true;    // the reference is |E0|
};
// "cloth_on_sphere  |  verlet  |  dt 0.002 s  |  t 3.000 s  |  energy -57 %: dissipated 57 %,
// integrator error +0.01 %"; "put in" appears only where work was put in, "dissipated" and
// "contacts" only where some was taken out (or, for contacts, put in: signed then), and "of S"
// follows the figures whose reference is the scene's scale.
std::string captionText(const CaptionFacts& f);

// A red dot and `label` ("REC 0:03.25") at the top right of the window.
void drawRecordingIndicator(const std::string& label);

}  // namespace ui
