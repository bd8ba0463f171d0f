#include "app/setup.hpp"

#include <cstdio>

namespace app {

std::optional<std::string> setUpSession(Session& s, const std::string& scene,
                                        const std::string& integrator, double dt,
                                        const std::string& prefix) {
  try {
    s.load(scene);
  } catch (const scene::Error& e) {
    return std::string(e.what());
  }
  return applyIntegratorAndDt(s, integrator, dt, prefix);
}

std::optional<std::string> applyIntegratorAndDt(Session& s, const std::string& integrator,
                                                double dt, const std::string& prefix) {
  using K = ui::Command::Kind;
  std::string error;
  if (!integrator.empty() && !s.apply(ui::command(K::SetIntegrator, 0.0, 0, integrator), &error))
    return prefix + ": --integrator: " + error;
  if (dt > 0.0 && !s.apply(ui::command(K::SetDt, dt), &error)) {
    char range[96];
    std::snprintf(range, sizeof range, " (allowed %g to %g s)", ui::Limits::kDtMin,
                  ui::Limits::kDtMax);
    return prefix + ": --dt: " + error + range;
  }
  return std::nullopt;
}

}  // namespace app
