#include "app/mouse.hpp"

#include <algorithm>
#include <cmath>

namespace app {

void MouseControl::setViewport(int x0, int width, int height) {
  x0_ = x0, width_ = width > 0 ? width : 1, height_ = height > 0 ? height : 1;
}

glm::dvec2 MouseControl::project(const glm::vec3& p) const {
  const glm::mat4 vp = camera_.projection(float(width_) / float(height_)) * camera_.view();
  const glm::vec4 c = vp * glm::vec4(p, 1.0f);
  if (c.w <= 0.0f) return glm::dvec2(-1e9, -1e9);  // behind the camera
  return glm::dvec2(x0_ + (c.x / c.w * 0.5 + 0.5) * width_, (0.5 - c.y / c.w * 0.5) * height_);
}

int MouseControl::pick(double x, double y, glm::vec3& hit) const {
  const render::SceneView& v = views_.build(session_, false);
  int best = -1;
  double bestPx = kPickRadius;
  for (size_t i = 0; i * 3 + 2 < v.positions.size(); ++i) {
    const glm::vec3 p(v.positions[3 * i], v.positions[3 * i + 1], v.positions[3 * i + 2]);
    const glm::dvec2 s = project(p);
    const double d = std::hypot(s.x - x, s.y - y);
    const int body = ViewBuilder::bodyOfPoint(session_, static_cast<int>(i));
    if (d < bestPx && body >= 0) bestPx = d, best = body, hit = p;
  }
  return best;
}

glm::vec3 MouseControl::cursorOnPlane(double x, double y, const glm::vec3& through) const {
  glm::vec3 o, d;
  camera_.ray(float(x - x0_), float(y), float(width_), float(height_), o, d);
  const glm::vec3 n = glm::normalize(camera_.target - camera_.eye());
  const float den = glm::dot(d, n);
  if (std::abs(den) < 1e-6f) return through;
  return o + d * (glm::dot(through - o, n) / den);
}

int MouseControl::bodyUnder(double x, double y, glm::vec3& hit) const {
  const int body = pick(x, y, hit);
  if (body < 0 || glm::length(project(hit) - glm::dvec2(x, y)) > kPlaceRadius) return -1;
  return body;
}

bool MouseControl::startPlacing(double x, double y) {
  glm::vec3 hit;
  const int body = bodyUnder(x, y, hit);
  if (body < 0) return false;
  place_ = body;
  placed_ = false;
  grab_plane_ = hit;
  return true;
}

void MouseControl::editPress(bool shift, double x, double y) {
  glm::vec3 hit;
  edit_from_ = bodyUnder(x, y, hit);
  edit_shift_ = shift;
  press_x_ = x, press_y_ = y;
  if (edit_from_ >= 0) {
    grab_plane_ = hit;
    return;
  }
  if (shift) {  // Shift+drag on empty space: a box that selects what it holds
    box_ = true;
    return;
  }
  const glm::vec3 at = cursorOnPlane(x, y, camera_.target);  // the plane through the orbit centre
  std::string why;  // a refusal is the Session's edit message, shown in the Edit section
  session_.apply(ui::EditPlaceTool{{at.x, at.y, at.z}}, &why);
}

std::optional<std::array<double, 4>> MouseControl::selectionBox() const {
  if (!box_) return std::nullopt;
  return std::array<double, 4>{press_x_, press_y_, x_, y_};
}

std::vector<int> MouseControl::bodiesInBox(double x, double y) const {
  const render::SceneView& v = views_.build(session_, false);
  const double x0 = std::min(x, press_x_), x1 = std::max(x, press_x_);
  const double y0 = std::min(y, press_y_), y1 = std::max(y, press_y_);
  std::vector<int> inside;
  for (size_t i = 0; i * 3 + 2 < v.positions.size(); ++i) {
    const glm::dvec2 p =
        project(glm::vec3(v.positions[3 * i], v.positions[3 * i + 1], v.positions[3 * i + 2]));
    const int body = ViewBuilder::bodyOfPoint(session_, static_cast<int>(i));
    if (body >= 0 && p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1) inside.push_back(body);
  }
  return inside;
}

void MouseControl::editRelease(double x, double y) {
  const int from = edit_from_;
  edit_from_ = -1;
  views_.guide_line.clear();
  if (box_) {
    box_ = false;
    std::string why;  // the bodies are the scene's own: nothing to refuse
    session_.apply(ui::EditSelectMany{bodiesInBox(x, y), false}, &why);
    return;
  }
  if (from < 0) return;
  glm::vec3 hit;
  const int to = bodyUnder(x, y, hit);
  std::string why;  // as above
  if (to >= 0 && to != from) {
    session_.apply(ui::EditAddSpring{from, to}, &why);
  } else if (std::hypot(x - press_x_, y - press_y_) < kClickSlop) {
    session_.apply(ui::EditSelect{from, edit_shift_}, &why);
  } else {
    const glm::vec3 at = cursorOnPlane(x, y, grab_plane_);
    session_.apply(ui::EditMoveBody{from, {at.x, at.y, at.z}}, &why);
  }
}

void MouseControl::showRuler(bool on) {
  ruler_.shown = on;
  if (!on || ruler_.placed) return;
  // across the middle of the view, level: in a planar view in its plane, else facing the camera
  const glm::vec3 half(0.5f * kRulerFirstLength * camera_.distance, 0.0f, 0.0f);
  ruler_.a = camera_.target - half, ruler_.b = camera_.target + half;
  ruler_.placed = true;
}

void MouseControl::showProtractor(bool on) {
  protractor_.shown = on;
  if (!on || protractor_.placed) return;
  // as the ruler: across the middle of the view, its rays as long as the ruler's first length
  const float len = kRulerFirstLength * camera_.distance, rad = glm::radians(kProtractorFirstDeg);
  protractor_.vertex = camera_.target - glm::vec3(0.5f * len, 0.25f * len, 0.0f);
  protractor_.a = protractor_.vertex + glm::vec3(len, 0.0f, 0.0f);
  protractor_.b = protractor_.vertex + len * glm::vec3(std::cos(rad), std::sin(rad), 0.0f);
  protractor_.placed = true;
}

double MouseControl::angleBetween(const glm::vec3& vertex, const glm::vec3& a, const glm::vec3& b) {
  const glm::dvec3 u = glm::dvec3(a) - glm::dvec3(vertex), v = glm::dvec3(b) - glm::dvec3(vertex);
  // atan2 of the sine and cosine: as exact near 0 and 180 degrees as at 90 (acos is not)
  const double across = glm::length(glm::cross(u, v)), along = glm::dot(u, v);
  if (!(across > 0.0) && !(std::abs(along) > 0.0)) return 0.0;
  return glm::degrees(std::atan2(across, along));
}

glm::vec3* MouseControl::handle(int k) {
  glm::vec3* handles[] = {&ruler_.a, &ruler_.b, &protractor_.vertex, &protractor_.a,
                          &protractor_.b};
  return k >= 0 && k < 5 ? handles[k] : nullptr;
}

bool MouseControl::startRulerDrag(double x, double y) {
  // the protractor's first: shown after the ruler, it is drawn over it
  for (int k : {2, 3, 4, 0, 1}) {
    if (!(k < 2 ? ruler_.shown : protractor_.shown)) continue;
    if (glm::length(project(*handle(k)) - glm::dvec2(x, y)) <= kRulerGrab) {
      ruler_end_ = k;
      return true;
    }
  }
  return false;
}

void MouseControl::press(Button b, bool ctrl, bool shift, double x, double y, double time,
                         bool uiCapture) {
  x_ = x, y_ = y;
  if (uiCapture) return;  // the panel has it
  if (b == Button::Left && startRulerDrag(x, y)) return;
  if (b == Button::Left && !ctrl && session_.editor().editing()) return editPress(shift, x, y);
  // paused, the grab spring could not move anything: a drag on a body places it
  if (b == Button::Left && !shift && session_.paused() && startPlacing(x, y)) return;
  if (b == Button::Left && ctrl) {
    glm::vec3 hit;
    const int body = pick(x, y, hit);
    if (body >= 0) {
      grab_ = true;
      grab_plane_ = hit;
      session_.setGrab(body, sim::Vec3(hit.x, hit.y, hit.z));
    }
  } else if (b == Button::Right || b == Button::Middle || (b == Button::Left && shift)) {
    pan_ = true;
  } else if (b == Button::Left) {
    if (last_click_ >= 0.0 && time - last_click_ < kDoubleClick) {  // the orbit centre
      glm::vec3 hit;
      camera_.target = pick(x, y, hit) >= 0 ? hit : cursorOnPlane(x, y, camera_.target);
      last_click_ = -1.0;
    } else {
      last_click_ = time;
    }
    orbit_ = true;
  }
}

void MouseControl::release(double x, double y) {
  x_ = x, y_ = y;
  editRelease(x, y);
  if (grab_) session_.setGrab(-1, sim::Vec3::Zero());
  orbit_ = pan_ = grab_ = box_ = false;
  ruler_end_ = -1;
  place_ = -1;
}

void MouseControl::move(double x, double y) {
  const double dx = x - x_, dy = y - y_;
  x_ = x, y_ = y;
  if (ruler_end_ >= 0) {  // a ruler's or protractor's handle, on the plane through it facing
    glm::vec3& end = *handle(ruler_end_);  // the camera
    end = cursorOnPlane(x, y, end);
  } else if (edit_from_ >= 0) {  // the spring (or the move) being dragged: a line from the body
    const glm::vec3 t = cursorOnPlane(x, y, grab_plane_);
    views_.guide_line = {grab_plane_.x, grab_plane_.y, grab_plane_.z, t.x, t.y, t.z};
  } else if (place_ >= 0) {
    const glm::vec3 t = cursorOnPlane(x, y, grab_plane_);
    if (!placed_) session_.beginPlacement();  // undo goes back to before the drag
    placed_ = true;
    std::string why;  // the body exists and the point is finite: nothing to refuse
    session_.placeBody(place_, sim::Vec3(t.x, t.y, t.z), why);
  } else if (grab_) {
    const glm::vec3 t = cursorOnPlane(x, y, grab_plane_);
    session_.setGrab(session_.grabbed(), sim::Vec3(t.x, t.y, t.z));
  } else if (pan_ || (orbit_ && camera_.planar)) {
    camera_.pan(float(dx), float(dy), float(height_));
  } else if (orbit_) {
    camera_.orbit(float(-dx) * kOrbitPerPixel, float(dy) * kOrbitPerPixel);
  }
}

void MouseControl::scroll(double dy, bool uiCapture) {
  if (uiCapture) return;
  camera_.zoom(static_cast<float>(std::pow(kZoomPerNotch, dy)),
               cursorOnPlane(x_, y_, camera_.target));
}

}  // namespace app
