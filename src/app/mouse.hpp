// Mouse interaction with the conventions of MuJoCo's simulate and polyscope, independent of GLFW
// (the window forwards its events in framebuffer pixels), so that it is testable:
// left-drag orbit (pan in 2-D scenes), right-drag or Shift+left-drag pan, wheel zoom toward the
// cursor, double-click set the orbit centre, Ctrl+left-drag pull the nearest particle or bob with
// the session's grab spring. While paused, a left-drag that starts on a body places it instead
// (Session::placeBody: a new initial state at rest). In edit mode (docs/exploring.md#edit-mode) a
// left click on empty space adds a particle, a drag from one body to another adds a spring, a
// click on a body selects it (Shift: adds to the selection), a drag from a body elsewhere moves it.
// Presses that ImGui wants are ignored.
#pragma once

#include <array>
#include <optional>

#include <glm/glm.hpp>

#include "app/session.hpp"
#include "app/view_builder.hpp"
#include "render/camera.hpp"

namespace app {

class MouseControl {
 public:
  enum class Button { Left, Right, Middle };

  MouseControl(render::Camera& camera, Session& session, ViewBuilder& views)
      : camera_(camera), session_(session), views_(views) {}

  // The scene's viewport in framebuffer pixels: columns [x0, x0 + width), rows [0, height).
  void setViewport(int x0, int width, int height);

  // time in s (double-click detection); uiCapture: ImGui wants the mouse
  void press(Button b, bool ctrl, bool shift, double x, double y, double time, bool uiCapture);
  void release(double x, double y);
  void move(double x, double y);
  void scroll(double dy, bool uiCapture);

  // The ruler (docs/exploring.md#ruler): two ends in the scene, each dragged by its ring; it
  // takes a press within kRulerGrab of an end before anything else does.
  struct Ruler {
    bool shown = false, placed = false;
    glm::vec3 a{0.0f}, b{0.0f};  // m
  };
  const Ruler& ruler() const { return ruler_; }
  // Shows or hides it; shown the first time, it lies across the middle of the view.
  void showRuler(bool on);
  static constexpr double kRulerGrab = 10.0;  // px
  // The ruler's first length: this fraction of the camera's distance to its target
  static constexpr float kRulerFirstLength = 0.4f;

  // The protractor (docs/exploring.md#protractor): a vertex and the ends of two rays from it, each
  // dragged by its ring as the ruler's ends are (a press within kRulerGrab takes it first); it
  // reads the angle between the rays.
  struct Protractor {
    bool shown = false, placed = false;
    glm::vec3 vertex{0.0f}, a{0.0f}, b{0.0f};  // m
  };
  const Protractor& protractor() const { return protractor_; }
  // Shows or hides it; shown the first time, its vertex left of the view's middle, one ray level
  // to the right and the other kProtractorFirstDeg above it.
  void showProtractor(bool on);
  static constexpr float kProtractorFirstDeg = 60.0f;
  // The angle between the rays vertex -> a and vertex -> b, degrees in [0, 180] (0 where a ray
  // has no length).
  static double angleBetween(const glm::vec3& vertex, const glm::vec3& a, const glm::vec3& b);

  // The selection box being dragged in edit mode (framebuffer px: x0, y0, x1, y1), if one is.
  std::optional<std::array<double, 4>> selectionBox() const;
  double x() const { return x_; }
  double y() const { return y_; }

  // Framebuffer pixel of a world point (y from the top).
  glm::dvec2 project(const glm::vec3& p) const;
  // The body (particle or bob) nearest to the pixel within 40 px, or -1; `hit` its position.
  int pick(double x, double y, glm::vec3& hit) const;
  // Where the cursor ray meets the plane through `through` facing the camera.
  glm::vec3 cursorOnPlane(double x, double y, const glm::vec3& through) const;

  static constexpr double kPickRadius = 40.0;  // px
  // A paused drag places a body only when it starts this close to it: elsewhere it orbits as ever
  static constexpr double kPlaceRadius = 15.0;     // px
  static constexpr double kDoubleClick = 0.3;      // s
  static constexpr float kOrbitPerPixel = 0.005f;  // rad
  static constexpr float kZoomPerNotch = 0.85f;

 private:
  render::Camera& camera_;
  Session& session_;
  ViewBuilder& views_;
  int x0_ = 0, width_ = 1, height_ = 1;
  double x_ = 0.0, y_ = 0.0, last_click_ = -1.0;
  bool orbit_ = false, pan_ = false, grab_ = false;
  int place_ = -1;       // the body a paused drag places, -1: none
  bool placed_ = false;  // it has moved since the press (the undo stack has the scene before)
  int edit_from_ = -1;   // in edit mode, the body a press started on
  bool edit_shift_ = false;
  bool box_ = false;
  Ruler ruler_;
  Protractor protractor_;
  // the handle being dragged: the ruler's ends 0 (a) and 1 (b), the protractor's vertex 2 and its
  // rays' ends 3 (a) and 4 (b); -1 none
  int ruler_end_ = -1;
  glm::vec3* handle(int k);
  // A left press within kRulerGrab of a handle of a shown ruler or protractor: that handle is
  // dragged from here on.
  bool startRulerDrag(
      double x,
      double y);  // a Shift+drag on empty space in edit mode: a selection box from the press
  double press_x_ = 0.0, press_y_ = 0.0;
  glm::vec3 grab_plane_{0.0f};
  // A paused left press on a body within kPlaceRadius: place it from here on; false elsewhere.
  bool startPlacing(double x, double y);
  // The body within kPlaceRadius of the pixel, or -1; `hit` its position.
  int bodyUnder(double x, double y, glm::vec3& hit) const;
  void editPress(bool shift, double x, double y);
  void editRelease(double x, double y);
  // The bodies whose points are inside the box from the press to (x, y).
  std::vector<int> bodiesInBox(double x, double y) const;
  // A click that moved less than this is a click, not a drag.
  static constexpr double kClickSlop = 4.0;  // px
};

}  // namespace app
