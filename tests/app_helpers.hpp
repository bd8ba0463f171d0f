// Shared helpers for the app's tests (tests/test_app*.cpp): the panel's control of a parameter.
// Not a test file itself (the glob only picks up test_*.cpp).
#pragma once

#include "sim/parameters.hpp"
#include "ui/panel.hpp"

namespace apptest {

// The panel's control of parameter p, or null when the panel shows none.
inline const ui::ParameterControl* controlOf(const ui::PanelModel& pm, sim::Parameter p) {
  for (const ui::ParameterControl& c : pm.physics.parameters)
    if (c.id == int(p)) return &c;
  return nullptr;
}

}  // namespace apptest
