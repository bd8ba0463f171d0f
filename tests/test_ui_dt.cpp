// The panel's dt slider, driven by a simulated mouse and keyboard: typed values clamped and
// committed once, never non-finite; a drag committed on release (stiffness scale likewise, a live
// slider while dragging); Shift for a 10 times finer drag; a logarithmic scale down to 1e-7 s.
#include <doctest/doctest.h>
#include <imgui.h>

#include <cmath>
#include <functional>
#include <vector>

#include "fp_trap.hpp"
#include "ui/panel.hpp"
#include "ui_helpers.hpp"

using namespace uitest;

namespace {

// On the dt slider: press at x, move by dx (Shift held as given), release; returns the committed
// dt, or the model's when none was committed.
double dtAfterDrag(Harness& h, const Fixture& f,
                   const std::function<std::vector<ui::Command>()>& draw, float x, float dx,
                   bool shift) {
  ImGuiIO& io = ImGui::GetIO();
  h.commands.clear();
  io.MousePos = ImVec2(x, 0.5f * (h.item("dt").y0 + h.item("dt").y1));
  h.frame(draw);
  io.KeyShift = shift;
  io.MouseDown[0] = true;
  h.frame(draw);
  for (int i = 1; i <= 4; ++i) {
    io.MousePos.x = x + dx * float(i) / 4.0f;
    h.frame(draw);
  }
  io.MouseDown[0] = false;
  h.frame(draw);
  io.KeyShift = false;
  h.frame(draw);
  const auto dts = h.of<ui::SetDt>();
  return dts.empty() ? f.model.clock.dt : dts.back().dt;
}

}  // namespace

TEST_CASE("ui: dt typed through the slider is clamped, committed on release, never non-finite") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);

  h.typeInto("dt", "10", draw);
  auto dts = h.of<ui::SetDt>();
  REQUIRE(dts.size() == 1);  // one commit, not one per keystroke
  CHECK(dts[0].dt == ui::Limits::kDtMax);

  h.commands.clear();
  h.typeInto("dt", "1e-12", draw);
  dts = h.of<ui::SetDt>();
  REQUIRE(dts.size() == 1);
  CHECK(dts[0].dt == ui::Limits::kDtMin);

  h.commands.clear();
  h.typeInto("dt", "0.004", draw);
  dts = h.of<ui::SetDt>();
  REQUIRE(dts.size() == 1);
  CHECK(dts[0].dt == doctest::Approx(0.004));

  // "1e999" parses to infinity: ignored
  h.commands.clear();
  {
    const testutil::FpTrapsOff overflowIsTheInput;  // strtod itself raises FE_OVERFLOW on it
    h.typeInto("dt", "1e999", draw);
  }
  CHECK(h.of<ui::SetDt>().empty());
  CHECK(h.commands.empty());
  CHECK(f.state.edit_id == 0u);

  // a live slider typed out of range: every emitted value within Limits
  h.commands.clear();
  h.typeInto("Time scale", "1000", draw);
  auto ts = h.of<ui::SetTimeScale>();
  REQUIRE_FALSE(ts.empty());
  CHECK(ts.back().scale == ui::Limits::kTimeScaleMax);
  for (const ui::SetTimeScale& c : ts) CHECK(c.scale <= ui::Limits::kTimeScaleMax);
}

TEST_CASE("ui: dragging dt emits nothing until the release, stiffness scale likewise") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  ImGuiIO& io = ImGui::GetIO();

  h.moveTo("dt", 0.3f);
  h.frame(draw);
  io.MouseDown[0] = true;
  h.frame(draw);
  io.MousePos.x += 60;
  h.frame(draw);
  io.MousePos.x += 60;
  h.frame(draw);
  CHECK(h.of<ui::SetDt>().empty());  // still dragging
  CHECK(f.state.edit_id != 0u);
  io.MouseDown[0] = false;
  h.frame(draw);
  h.frame(draw);
  auto dts = h.of<ui::SetDt>();
  REQUIRE(dts.size() == 1);
  CHECK(dts[0].dt > ui::Limits::kDtMin);
  CHECK(dts[0].dt < ui::Limits::kDtMax);
  CHECK(dts[0].dt != f.model.clock.dt);

  h.commands.clear();
  h.drag("Stiffness scale", 0.5f, 0.9f, draw);
  auto ks = h.params(kStiffness);
  REQUIRE(ks.size() == 1);
  CHECK(ks[0].value > 1.0);  // right of the middle of a log slider 1e-3..1e3
  CHECK(ks[0].value <= 1e3);

  // a live slider emits while dragging
  h.commands.clear();
  h.drag("Drag", 0.1f, 0.9f, draw);
  auto drag = h.params(kDrag);
  CHECK(drag.size() >= 2);
  for (const ui::SetParameter& c : drag) {
    CHECK(c.value >= 0.0);
    CHECK(c.value <= 1e3);
  }
}

TEST_CASE("ui: Shift makes a dt drag 10 times finer, without a jump") {
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  h.frame(draw);
  ImGuiIO& io = ImGui::GetIO();
  auto dragBy = [&](float x, float dx, bool shift) {
    return dtAfterDrag(h, f, draw, x, dx, shift);
  };
  const ui::ItemRect r = h.item("dt");
  const float x = r.x0 + 0.3f * (r.x1 - r.x0);
  // without Shift the slider puts dt under the mouse: the value at x, then 56 px further right
  const double at_x = dragBy(x, 0.0f, false);
  f.model.clock.dt = at_x;
  const double coarse = dragBy(x, 56.0f, false);
  // with Shift the same 56 px from the same dt: a 10 times smaller factor (in decades)
  f.model.clock.dt = at_x;
  const double fine = dragBy(x + 100.0f, 56.0f, true);  // where the drag starts does not matter
  CHECK(coarse > at_x);
  CHECK(fine > at_x);
  CHECK(std::log10(coarse / at_x) > 1.0);  // more than a factor of 10 in 56 px
  // (values are rounded to the 3 digits shown: 0.002 decades)
  CHECK(std::abs(std::log10(fine / at_x) - 0.1 * std::log10(coarse / at_x)) < 0.005);
  // leftwards too, and a Shift+click without a move commits nothing
  f.model.clock.dt = at_x;
  CHECK(dragBy(x + 50.0f, -56.0f, true) ==
        doctest::Approx(at_x * at_x / fine).epsilon(0.01));  // the inverse factor
  f.model.clock.dt = at_x;
  h.commands.clear();
  dragBy(x + 50.0f, 0.0f, true);
  CHECK(h.of<ui::SetDt>().empty());

  // Shift pressed in the middle of a drag: no jump, then the slower rate
  f.model.clock.dt = at_x;
  h.commands.clear();
  io.MousePos = ImVec2(x, 0.5f * (r.y0 + r.y1));
  h.frame(draw);
  io.MouseDown[0] = true;
  h.frame(draw);
  io.MousePos.x += 56.0f;
  h.frame(draw);
  const double before = f.state.edit_value;
  CHECK(before == coarse);
  io.KeyShift = true;
  h.frame(draw);
  CHECK(f.state.edit_value == before);
  io.MousePos.x += 56.0f;
  h.frame(draw);
  CHECK(f.state.edit_value == doctest::Approx(before * fine / at_x).epsilon(0.01));
  io.MouseDown[0] = false;
  io.KeyShift = false;
  h.frame(draw);
  h.frame(draw);
  REQUIRE(h.of<ui::SetDt>().size() == 1);
  CHECK(h.of<ui::SetDt>()[0].dt == f.state.edit_value);
}

TEST_CASE("ui: the dt slider is logarithmic over its whole range, down to 1e-7 s") {
  // ImGui 1.86 clamps a logarithmic slider to 10^-(format's digits): with "%.3g" every dt below
  // 1e-3 sat at the left end
  Harness h;
  Fixture f;
  auto draw = f.panel(h);
  for (int i = 0; i < 3; ++i) h.frame(draw);  // settled: the scrollbar has appeared
  const ui::ItemRect r = h.item("dt");        // the slider's frame
  const float grab = ImGui::GetStyle().GrabMinSize, usable = (r.x1 - r.x0) - 4.0f - grab;
  for (double want : {1e-7, 1e-6, 1e-5, 1e-4, 1e-2}) {
    CAPTURE(want);
    const double p = (std::log10(want) + 7.0) / 6.0;
    h.commands.clear();
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos =
        ImVec2(r.x0 + 2.0f + 0.5f * grab + static_cast<float>(p) * usable, 0.5f * (r.y0 + r.y1));
    h.frame(draw);
    io.MouseDown[0] = true;
    h.frame(draw);
    io.MouseDown[0] = false;
    h.frame(draw);
    REQUIRE(h.of<ui::SetDt>().size() == 1);
    CAPTURE(h.of<ui::SetDt>()[0].dt);
    CHECK(std::abs(std::log10(h.of<ui::SetDt>()[0].dt / want)) < 0.03);  // within a pixel
  }
}
