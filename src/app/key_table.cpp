#include "app/key_table.hpp"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <string_view>

#include "lab/clock_settings.hpp"

namespace app {

namespace {

using Out = std::vector<ui::Command>;

// time scale x2 or /2 within the limits
void scaleTime(FrameDriver& d, Out& out, double factor) {
  const lab::ClockSettingInfo& scale = lab::clockSetting(lab::ClockSetting::TimeScale);
  out.push_back(ui::SetTimeScale{std::clamp(d.session().timeScale() * factor, scale.lo, scale.hi)});
}

void toggleTrailUnderCursor(FrameDriver& d) {
  glm::vec3 hit;
  const int body = d.mouse().pick(d.mouse().x(), d.mouse().y(), hit);
  if (body >= 0) d.views().toggleTrail(body);
}

struct KeyAction {
  const char* binding;  // the `keys` of the ui::bindings() row this implements
  int key;              // GLFW key
  bool ctrl;            // true: only with Ctrl; false: only without
  void (*act)(FrameDriver& d, bool shift, Out& out);
};
constexpr KeyAction kKeyActions[] = {
    {"Space", GLFW_KEY_SPACE, false,
     [](FrameDriver& d, bool, Out& o) { o.push_back(ui::SetPaused{!d.session().paused()}); }},
    {"Right arrow", GLFW_KEY_RIGHT, false,
     [](FrameDriver&, bool shift, Out& o) { o.push_back(ui::Step{shift ? 10 : 1}); }},
    {"R or Backspace", GLFW_KEY_R, false,
     [](FrameDriver&, bool, Out& o) { o.push_back(ui::Reset{}); }},
    {"R or Backspace", GLFW_KEY_BACKSPACE, false,
     [](FrameDriver&, bool, Out& o) { o.push_back(ui::Reset{}); }},
    {"Ctrl+L", GLFW_KEY_L, true, [](FrameDriver&, bool, Out& o) { o.push_back(ui::Reload{}); }},
    {"Ctrl+S", GLFW_KEY_S, true,
     [](FrameDriver& d, bool, Out& o) { o.push_back(ui::SaveScene{d.panelState().save_path}); }},
    {"+ / -", GLFW_KEY_EQUAL, false, [](FrameDriver& d, bool, Out& o) { scaleTime(d, o, 2.0); }},
    {"+ / -", GLFW_KEY_KP_ADD, false, [](FrameDriver& d, bool, Out& o) { scaleTime(d, o, 2.0); }},
    {"+ / -", GLFW_KEY_MINUS, false, [](FrameDriver& d, bool, Out& o) { scaleTime(d, o, 0.5); }},
    {"+ / -", GLFW_KEY_KP_SUBTRACT, false,
     [](FrameDriver& d, bool, Out& o) { scaleTime(d, o, 0.5); }},
    {"Ctrl+P", GLFW_KEY_P, true, [](FrameDriver&, bool, Out& o) { o.push_back(ui::Screenshot{}); }},
    {"E", GLFW_KEY_E, false,
     [](FrameDriver& d, bool, Out& o) {
       o.push_back(ui::SetEditMode{!d.session().editor().editing()});
     }},
    {"Ctrl+Z / Ctrl+Shift+Z", GLFW_KEY_Z, true,
     [](FrameDriver&, bool shift, Out& o) {
       o.push_back(shift ? ui::Command(ui::Redo{}) : ui::Command(ui::Undo{}));
     }},
    {"Ctrl+N", GLFW_KEY_N, true, [](FrameDriver&, bool, Out& o) { o.push_back(ui::NewScene{}); }},
    {"Delete", GLFW_KEY_DELETE, false,
     [](FrameDriver&, bool, Out& o) { o.push_back(ui::EditDelete{}); }},
    {"P", GLFW_KEY_P, false, [](FrameDriver&, bool, Out& o) { o.push_back(ui::EditTogglePin{}); }},
    {"Ctrl+R", GLFW_KEY_R, true,
     [](FrameDriver&, bool, Out& o) { o.push_back(ui::ToggleRecording{}); }},
    {"Ctrl+Q", GLFW_KEY_Q, true, [](FrameDriver&, bool, Out& o) { o.push_back(ui::Quit{}); }},
    {"Tab", GLFW_KEY_TAB, false, [](FrameDriver& d, bool, Out&) { d.toggleUi(); }},
    {"F1", GLFW_KEY_F1, false, [](FrameDriver& d, bool, Out&) { d.toggleHelp(); }},
    {"F", GLFW_KEY_F, false, [](FrameDriver& d, bool, Out&) { d.frameScene(); }},
    {"T", GLFW_KEY_T, false, [](FrameDriver& d, bool, Out&) { toggleTrailUnderCursor(d); }},
};
// The rows of ui::bindings() that MouseControl implements.
constexpr const char* kMouseRows[] = {"Left-drag",      "Right-drag or Shift+left-drag",
                                      "Wheel",          "Double-click",
                                      "Ctrl+left-drag", "Paused: left-drag on a body"};

}  // namespace

void onKeyPress(FrameDriver& d, int glfwKey, bool ctrl, bool shift, Out& commands) {
  for (const KeyAction& k : kKeyActions)
    if (k.key == glfwKey && k.ctrl == ctrl) return k.act(d, shift, commands);
}

std::vector<std::string> keyBindingMismatches() {
  std::vector<std::string> out;
  auto implemented = [](std::string_view row) {
    for (const KeyAction& k : kKeyActions)
      if (row == k.binding) return true;
    for (const char* m : kMouseRows)
      if (row == m) return true;
    return false;
  };
  for (const ui::Binding& b : ui::bindings())
    if (!implemented(b.keys)) out.push_back(std::string("no action for ").append(b.keys));
  for (const KeyAction& k : kKeyActions) {
    bool listed = false;
    for (const ui::Binding& b : ui::bindings())
      listed = listed || std::string_view(b.keys) == k.binding;
    if (!listed) out.push_back(std::string("not in the help: ").append(k.binding));
  }
  return out;
}

}  // namespace app
