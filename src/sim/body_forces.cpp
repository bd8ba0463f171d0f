#include "sim/body_forces.hpp"

#include <cmath>

namespace sim {

std::string_view forceSourceName(ForceSource s) {
  switch (s) {
    case ForceSource::Gravity:
      return "gravity";
    case ForceSource::Spring:
      return "spring";
    case ForceSource::Damping:
      return "damping";
    case ForceSource::Drag:
      return "drag";
    case ForceSource::Rod:
      return "rod";
    case ForceSource::Grab:
      return "mouse";
    case ForceSource::Contact:
      return "contact";
  }
  return "force";
}

namespace {

// Spring s's elastic and dashpot forces on its end b (its end a gets their negatives), as
// sim/forces.cpp's springForce: zero at zero length, where the direction is undefined.
void springOnB(const MassSpringModel& m, int s, const State& st, Vec3& elastic, Vec3& dashpot) {
  const int a = m.spring_a[s], b = m.spring_b[s];
  const Vec3 d = st.x.segment<3>(3 * b) - st.x.segment<3>(3 * a);
  const double l = d.norm();
  elastic = dashpot = Vec3::Zero();
  if (!(l > 0.0)) return;
  const Vec3 u = d / l;
  elastic = -m.stiffness[s] * (l - m.rest_length[s]) * u;
  if (m.damping.size() > s && m.damping[s] != 0.0) {
    const Vec3 dv = st.v.segment<3>(3 * b) - st.v.segment<3>(3 * a);
    dashpot = -m.damping[s] * dv.dot(u) * u;
  }
}

// The springs on particle i: its adjacency where built, else every spring looked at.
template <class F>
void forEachSpringOn(const MassSpringModel& m, int i, F&& f) {
  if (static_cast<int>(m.adjacency_start.size()) == m.particles() + 1) {
    for (int k = m.adjacency_start[i]; k < m.adjacency_start[i + 1]; ++k) f(m.adjacency_spring[k]);
    return;
  }
  for (int s = 0; s < m.springs(); ++s)
    if (m.spring_a[s] == i || m.spring_b[s] == i) f(s);
}

}  // namespace

std::vector<BodyForce> bodyForces(const MassSpringModel& m, const State& s, int i) {
  std::vector<BodyForce> out;
  if (i < 0 || i >= m.particles() || m.fixed(i)) return out;
  out.push_back({ForceSource::Gravity, -1, m.mass[i] * m.gravity});
  forEachSpringOn(m, i, [&](int k) {
    Vec3 elastic, dashpot;
    springOnB(m, k, s, elastic, dashpot);
    if (m.spring_a[k] == m.spring_b[k]) return;  // a spring from i to itself pulls nothing
    const double sign = m.spring_b[k] == i ? 1.0 : -1.0;
    out.push_back({ForceSource::Spring, k, sign * elastic});
    if (m.damping.size() > k && m.damping[k] != 0.0)
      out.push_back({ForceSource::Damping, k, sign * dashpot});
  });
  if (m.drag != 0.0)
    out.push_back({ForceSource::Drag, -1, -m.drag * (s.v.segment<3>(3 * i) - m.wind)});
  if (m.grab == i)
    out.push_back(
        {ForceSource::Grab, -1, m.grab_stiffness * (m.grab_target - s.x.segment<3>(3 * i))});
  return out;
}

std::vector<BodyForce> bodyForces(const PendulumModel& m, const State& s, int bob) {
  std::vector<BodyForce> out;
  const int n = m.links();
  if (bob < 0 || bob >= n || s.x.size() != n || s.v.size() != n) return out;
  Eigen::VectorXd acc, damping;
  PendulumWork work;
  pendulumAcceleration(m, s.x, s.v, acc, work);
  jointDampingForce(m, s.v, damping);
  Eigen::VectorXd px;
  pendulumPositions(m, s.x, px);
  // per bob: e_i along its rod (from the joint above), n_i = de_i/dphi_i, the acceleration
  // a_i = a_(i-1) + R_i (phi''_i n_i - phi'_i^2 e_i), and the applied forces F_i
  std::vector<Vec3> e(n), nrm(n), a(n), gravity(n), pair(n, Vec3::Zero()), grab(n, Vec3::Zero());
  Vec3 above = Vec3::Zero();
  for (int i = 0; i < n; ++i) {
    e[i] = Vec3(std::sin(s.x[i]), -std::cos(s.x[i]), 0.0);
    nrm[i] = Vec3(std::cos(s.x[i]), std::sin(s.x[i]), 0.0);
    a[i] = above + m.length[i] * (acc[i] * nrm[i] - s.v[i] * s.v[i] * e[i]);
    above = a[i];
    gravity[i] = m.mass[i] * Vec3(m.gravity.x(), m.gravity.y(), 0.0);
  }
  for (int k = 0; k < n; ++k) {  // the torque Q_k as +Q_k/R_k n_k on bob k, the reaction above
    const Vec3 f = damping[k] / m.length[k] * nrm[k];
    pair[k] += f;
    if (k > 0) pair[k - 1] -= f;
  }
  if (m.grab >= 0 && m.grab < n) {
    const Vec3 f = m.grab_stiffness * (m.grab_target - px.segment<3>(3 * m.grab));
    grab[m.grab] = Vec3(f.x(), f.y(), 0.0);
  }
  // the tensions from the last bob up: -T_i e_i = m_i a_i - F_i - T_(i+1) e_(i+1)
  std::vector<double> tension(n + 1, 0.0);
  for (int i = n - 1; i >= bob; --i) {
    const Vec3 below = i + 1 < n ? Vec3(tension[i + 1] * e[i + 1]) : Vec3::Zero();
    const Vec3 rest = m.mass[i] * a[i] - gravity[i] - pair[i] - grab[i] - below;
    tension[i] = -e[i].dot(rest);
  }
  out.push_back({ForceSource::Gravity, -1, gravity[bob]});
  out.push_back({ForceSource::Rod, bob, -tension[bob] * e[bob]});
  if (bob + 1 < n) out.push_back({ForceSource::Rod, bob + 1, tension[bob + 1] * e[bob + 1]});
  if (m.joint_damping != 0.0) out.push_back({ForceSource::Damping, -1, pair[bob]});
  if (m.grab == bob) out.push_back({ForceSource::Grab, -1, grab[bob]});
  return out;
}

namespace {
// How far x is outside collider c (m; negative inside).
double outside(const Collider& c, const Vec3& x) {
  if (c.shape == Collider::Shape::Sphere) return (x - c.point).norm() - c.radius;
  return (x - c.point).dot(c.normal);
}
}  // namespace

std::vector<BodyForce> contactForce(const MassSpringModel& m, const State& s, int i,
                                    const Vec3& observed_acceleration) {
  if (i < 0 || i >= m.particles() || m.fixed(i) || !observed_acceleration.allFinite()) return {};
  const Vec3 x = s.x.segment<3>(3 * i);
  bool touching = false;
  for (const Collider& c : m.colliders) touching = touching || outside(c, x) <= kContactReach;
  if (!touching) return {};
  Vec3 law = Vec3::Zero();
  for (const BodyForce& f : bodyForces(m, s, i)) law += f.force;
  return {{ForceSource::Contact, -1, m.mass[i] * observed_acceleration - law}};
}

}  // namespace sim
