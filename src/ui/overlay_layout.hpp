// Where a picture's overlays go (the caption, the divergence banner, the lane labels of
// side-by-side columns, the overlaid lanes' legend, the strain legend): a pure function of the
// sizes of what is to be drawn and of the scene viewport, so that a test can show that no two
// overlap and all lie in the picture at any size from 320x180 up (docs/cli.md#record).
#pragma once

#include <vector>

namespace ui {

struct Size {
  float w = 0.0f, h = 0.0f;  // px
};

struct Rect {
  float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f;  // px, y down; empty when x1 <= x0 or y1 <= y0
  float width() const { return x1 - x0; }
  float height() const { return y1 - y0; }
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};

// True when the two rectangles share an area (touching edges do not overlap).
bool overlaps(const Rect& a, const Rect& b);
// True when `inner` lies within `outer`.
bool inside(const Rect& inner, const Rect& outer);

// One thing to place: the sizes of its forms, best (longest) first, each with its padding; the
// layout takes the first that fits and else the last, cut to the room left (the text is then
// clipped to its rectangle).
using Forms = std::vector<Size>;

struct OverlayRequest {
  Rect viewport;         // the scene's part of the picture (right of the panel, if any)
  float margin = 10.0f;  // px from the viewport's edges and between items
  Forms caption;         // empty: no caption
  // The divergence banner or the blow-up's slow-motion tag (one at a time), centred under the
  // caption; empty: none. Where the viewport is narrower than banner_min_w (the banner's buttons),
  // the banner may reach left over the panel, still under the caption.
  Forms banner;
  float banner_min_w = 0.0f;
  bool side_by_side = false;
  std::vector<Forms> lanes;  // one per lane: its label (side by side) or its legend row
  Size strain_legend;        // zero: none (the window's, bottom right)
};

struct Placed {
  Rect rect;
  int form = 0;  // index into the item's forms
};

struct OverlayLayout {
  Placed caption;             // empty rect: none
  Placed banner;              // empty rect: none
  std::vector<Placed> lanes;  // side by side: each label in its column; overlaid: legend rows
  Rect legend;                // overlaid: the box around the legend rows; else empty
  Rect strain_legend;
  // The rectangles that must not overlap each other: caption, banner, labels or legend, strain
  // legend.
  std::vector<Rect> boxes() const;
};

OverlayLayout layOutOverlays(const OverlayRequest& request);

}  // namespace ui
