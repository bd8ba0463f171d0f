#include "ui/overlay_layout.hpp"

#include <algorithm>
#include <cmath>

namespace ui {

bool overlaps(const Rect& a, const Rect& b) {
  if (a.empty() || b.empty()) return false;
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

bool inside(const Rect& inner, const Rect& outer) {
  return inner.x0 >= outer.x0 && inner.y0 >= outer.y0 && inner.x1 <= outer.x1 &&
         inner.y1 <= outer.y1;
}

std::vector<Rect> OverlayLayout::boxes() const {
  std::vector<Rect> out;
  for (const Rect& r : {caption.rect, banner.rect, legend, strain_legend})
    if (!r.empty()) out.push_back(r);
  if (legend.empty())
    for (const Placed& p : lanes)
      if (!p.rect.empty()) out.push_back(p.rect);
  return out;
}

namespace {

// A column's own margin: the request's, but never more than this share of a narrow column.
constexpr float kColumnMarginShare = 0.125f;

// The first form that fits w x h, else the last cut to it; never negative.
Placed fit(const Forms& forms, float w, float h) {
  w = std::max(w, 0.0f), h = std::max(h, 0.0f);
  Placed p;
  p.form = static_cast<int>(forms.size()) - 1;
  for (size_t i = 0; i < forms.size(); ++i)
    if (forms[i].w <= w && forms[i].h <= h) {
      p.form = static_cast<int>(i);
      break;
    }
  const Size s = forms[static_cast<size_t>(p.form)];
  p.rect = {0.0f, 0.0f, std::min(s.w, w), std::min(s.h, h)};
  return p;
}

Rect at(const Rect& r, float x, float y) {
  return {x, y, x + r.width(), y + r.height()};
}

// The largest of every lane's form `f` (or its last), rows of the legend being one size.
Size rowSize(const std::vector<Forms>& lanes, size_t f) {
  Size s;
  for (const Forms& forms : lanes) {
    if (forms.empty()) continue;
    const Size& x = forms[std::min(f, forms.size() - 1)];
    s.w = std::max(s.w, x.w), s.h = std::max(s.h, x.h);
  }
  return s;
}

size_t formCount(const std::vector<Forms>& lanes) {
  size_t n = 1;
  for (const Forms& forms : lanes) n = std::max(n, forms.size());
  return n;
}

// Overlaid lanes: the legend's rows at the bottom left between `top` and `bottom`, `width` wide,
// in as many columns as the height needs, each row in the longest form that still fits.
void legendRows(const OverlayRequest& r, float x0, float top, float bottom, float width,
                OverlayLayout& out) {
  const size_t n = r.lanes.size(), forms = formCount(r.lanes);
  const float height = std::max(bottom - top, 0.0f);
  size_t f = 0, perColumn = 1, columns = n;
  Size row;
  for (; f < forms; ++f) {
    row = rowSize(r.lanes, f);
    perColumn = row.h > 0.0f ? std::clamp<size_t>(size_t(height / row.h), 1, n) : n;
    columns = (n + perColumn - 1) / perColumn;
    if (float(columns) * row.w <= width && float(perColumn) * row.h <= height) break;
  }
  f = std::min(f, forms - 1);
  row.w = std::min(row.w, std::max(width, 0.0f) / float(columns));
  row.h = std::min(row.h, height / float(perColumn));
  const float h = float(perColumn) * row.h;
  out.legend = {x0, bottom - h, x0 + float(columns) * row.w, bottom};
  for (size_t i = 0; i < n; ++i) {
    const float x = x0 + float(i / perColumn) * row.w,
                y = out.legend.y0 + float(i % perColumn) * row.h;
    const size_t own = r.lanes[i].empty() ? 0 : std::min(f, r.lanes[i].size() - 1);
    out.lanes.push_back({{x, y, x + row.w, y + row.h}, static_cast<int>(own)});
  }
}

// Side by side: each label at the top of its column, below the caption.
void columnLabels(const OverlayRequest& r, float top, float bottom, float margin,
                  OverlayLayout& out) {
  const Rect& v = r.viewport;
  const size_t n = r.lanes.size();
  for (size_t i = 0; i < n; ++i) {
    const float c0 = v.x0 + v.width() * float(i) / float(n);
    const float c1 = v.x0 + v.width() * float(i + 1) / float(n);
    const float m = std::min(margin, kColumnMarginShare * (c1 - c0));
    Placed p = r.lanes[i].empty() ? Placed{} : fit(r.lanes[i], c1 - c0 - 2.0f * m, bottom - top);
    p.rect = at(p.rect, c0 + m, top);
    out.lanes.push_back(p);
  }
}

}  // namespace

OverlayLayout layOutOverlays(const OverlayRequest& r) {
  OverlayLayout out;
  const Rect& v = r.viewport;
  const float m = std::clamp(r.margin, 0.0f, 0.25f * std::min(v.width(), v.height()));
  float top = v.y0 + m, bottom = v.y1 - m;
  const float width = v.width() - 2.0f * m;
  if (r.strain_legend.w > 0.0f && r.strain_legend.h > 0.0f) {
    Placed s = fit({r.strain_legend}, width, bottom - top);
    out.strain_legend = at(s.rect, v.x1 - m - s.rect.width(), bottom - s.rect.height());
  }
  const bool strain = !out.strain_legend.empty();
  const float floor = strain ? out.strain_legend.y0 - m : bottom;  // what the caption may reach
  if (!r.caption.empty()) {
    out.caption = fit(r.caption, width, floor - top);
    out.caption.rect = at(out.caption.rect, v.x0 + m, top);
    if (!out.caption.rect.empty()) top = out.caption.rect.y1 + m;
  }
  if (!r.banner.empty()) {
    // centred under the caption; over the panel only where the viewport cannot hold its buttons
    const float x0 = width >= r.banner_min_w ? v.x0 + m : std::max(0.0f, v.x1 - m - r.banner_min_w);
    const float room = v.x1 - m - x0;
    // the lanes' labels or legend keep a row's height below it: the banner is cut first (its
    // report then scrolls)
    const float keep = r.lanes.size() >= 2 ? rowSize(r.lanes, formCount(r.lanes) - 1).h + m : 0.0f;
    out.banner = fit(r.banner, room, floor - top - keep);
    out.banner.rect = at(out.banner.rect, x0 + 0.5f * (room - out.banner.rect.width()), top);
    if (!out.banner.rect.empty()) top = out.banner.rect.y1 + m;
  }
  if (r.side_by_side) {
    // the labels stop above the strain legend, which spans the bottom right
    columnLabels(r, top, floor, m, out);
  } else if (r.lanes.size() >= 2) {
    // bottom left, beside the strain legend where there is room, else above it
    const float beside = strain ? out.strain_legend.x0 - m - (v.x0 + m) : width;
    const Size row = rowSize(r.lanes, formCount(r.lanes) - 1);
    if (!strain || beside >= row.w)
      legendRows(r, v.x0 + m, top, bottom, beside, out);
    else
      legendRows(r, v.x0 + m, top, out.strain_legend.y0 - m, width, out);
  }
  return out;
}

}  // namespace ui
