// The frame driver's measuring overlays on screen (docs/exploring.md#protractor,
// #rest-lengths, #forces): the protractor, the springs' rest lengths, the forces' key and what the
// ruler's label keeps clear of. Plain geometry and the session's data; no force is evaluated here
// (the forces come from sim/body_forces.hpp through Measurements::tracedForces).
#include <algorithm>
#include <cmath>

#include "app/frame_driver.hpp"
#include "render/trails.hpp"

namespace app {

namespace {
constexpr float kClearanceMargin = 6.0f;  // px beyond a body's drawn radius
}  // namespace

ui::ProtractorView FrameDriver::protractorView() const {
  const MouseControl::Protractor& p = mouse_.protractor();
  const glm::dvec2 v = mouse_.project(p.vertex), a = mouse_.project(p.a), b = mouse_.project(p.b);
  return {static_cast<float>(v.x),
          static_cast<float>(v.y),
          static_cast<float>(a.x),
          static_cast<float>(a.y),
          static_cast<float>(b.x),
          static_cast<float>(b.y),
          MouseControl::angleBetween(p.vertex, p.a, p.b)};
}

float FrameDriver::bodyRadiusPx(const render::SceneView& view, const glm::vec3& a,
                                const glm::vec3& b) const {
  float radius = 0.0f;  // m
  for (const float r : view.radii) radius = std::max(radius, r);
  const glm::mat4 m = camera_.view();
  const glm::vec3 right(m[0][0], m[1][0], m[2][0]);  // the camera's right, in the world
  float px = 0.0f;
  for (const glm::vec3& end : {a, b})
    px = std::max(px, static_cast<float>(
                          glm::length(mouse_.project(end + radius * right) - mouse_.project(end))));
  return std::isfinite(px) ? px + kClearanceMargin : kClearanceMargin;
}

// Each spring's rest length along it: from a fixed end where it has one (the mark then shows where
// the other end would rest), else centred on the spring. Every spring of a small system, else the
// traced body's.
std::vector<ui::RestMark> FrameDriver::restMarks(const render::SceneView& view) const {
  std::vector<ui::RestMark> out;
  const sim::MassSpringModel* m = session_.built().massSpring();
  if (!m) return out;
  const int traced = session_.measurements().tracedBody();
  const bool all = m->springs() <= kRestMarksAll;
  auto point = [&](int p) {
    return glm::vec3(view.positions[3 * p], view.positions[3 * p + 1], view.positions[3 * p + 2]);
  };
  for (int s = 0; s < m->springs(); ++s) {
    const int a = m->spring_a[s], b = m->spring_b[s];
    if (!all && a != traced && b != traced) continue;
    const int pa = ViewBuilder::pointOfBody(session_, a),
              pb = ViewBuilder::pointOfBody(session_, b);
    if (pa < 0 || pb < 0 || 3 * std::max(pa, pb) + 2 >= static_cast<int>(view.positions.size()))
      continue;
    const glm::vec3 xa = point(pa), xb = point(pb);
    const float l = glm::length(xb - xa), rest = static_cast<float>(m->rest_length[s]);
    if (!(l > 0.0f) || !std::isfinite(rest)) continue;
    const glm::vec3 u = (xb - xa) / l;
    glm::vec3 from = 0.5f * (xa + xb) - 0.5f * rest * u, to = from + rest * u;
    if (m->fixed(a))
      from = xa, to = xa + rest * u;
    else if (m->fixed(b))
      from = xb, to = xb - rest * u;
    const glm::dvec2 p0 = mouse_.project(from), p1 = mouse_.project(to);
    out.push_back({static_cast<float>(p0.x), static_cast<float>(p0.y), static_cast<float>(p1.x),
                   static_cast<float>(p1.y)});
  }
  return out;
}

void FrameDriver::fillForceKeys(ui::MeasureView& v) const {
  v.force_keys.clear();
  v.force_scale = 0.0;
  if (!draw_.show_forces) return;
  const Measurements::TracedForces f = session_.measurements().tracedForces(0);
  if (f.forces.empty()) return;
  v.force_scale = f.scale;
  std::vector<sim::ForceSource> seen;
  for (const sim::BodyForce& force : f.forces) {
    if (std::find(seen.begin(), seen.end(), force.source) != seen.end()) continue;
    seen.push_back(force.source);
    const glm::vec3 c = render::ArrowsPass::color(arrowKindOf(force.source));
    v.force_keys.push_back({std::string(sim::forceSourceName(force.source)), c.r, c.g, c.b});
  }
}

}  // namespace app
