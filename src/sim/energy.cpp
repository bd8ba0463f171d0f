#include "sim/energy.hpp"

#include <cmath>

namespace sim {

Energy energy(const MassSpringModel& m, const State& s) {
  Energy e;
  const int n = m.particles();
  for (int i = 0; i < n; ++i) {
    if (m.fixed(i)) continue;
    const auto v = s.v.segment<3>(3 * i);
    e.kinetic += 0.5 * m.mass[i] * v.squaredNorm();
    const double height_energy = m.mass[i] * m.gravity.dot(s.x.segment<3>(3 * i));
    e.potential -= height_energy;
    e.gravitational -= height_energy;
  }
  for (int k = 0; k < m.springs(); ++k) {
    const double l = (s.x.segment<3>(3 * m.spring_b[k]) - s.x.segment<3>(3 * m.spring_a[k])).norm();
    const double stretch = l - m.rest_length[k];
    const double stored = 0.5 * m.stiffness[k] * stretch * stretch;
    e.potential += stored;
    e.elastic += stored;
  }
  return e;
}

}  // namespace sim
