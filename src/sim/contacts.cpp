#include "sim/contacts.hpp"

#include <algorithm>
#include <cmath>

namespace sim {

namespace {

// A start this far (relative, in r^2) inside a sphere is inside it; nearer the surface it is on
// it: a particle resting on the sphere, put there by the last push, is within rounding of r.
constexpr double kInsideTolerance = 1e-9;

std::optional<Push> pushOutOfPlane(const Collider& c, const Vec3& to) {
  const double depth = (c.point - to).dot(c.normal);  // > 0: below the surface
  if (!(depth > 0.0)) return std::nullopt;
  return Push{to + depth * c.normal, c.normal, depth};
}

// The first point where the segment from -> to meets the sphere's surface, entering it: the
// smaller root t in [0, 1] of |from + t d - centre| = r, from outside.
std::optional<Vec3> entryPoint(const Collider& c, const Vec3& from, const Vec3& to) {
  const Vec3 d = to - from, f = from - c.point;
  // a start on the surface but a rounding error inside counts as on it (t = 0)
  const double a = d.squaredNorm(), b = f.dot(d),
               q = std::max(0.0, f.squaredNorm() - c.radius * c.radius);
  if (a == 0.0 || b >= 0.0) return std::nullopt;  // not moving, or moving away from the centre
  const double disc = b * b - a * q;
  if (disc < 0.0) return std::nullopt;               // the line misses the sphere
  const double t = q / (-b + std::sqrt(disc));       // (-b - sqrt(disc)) / a, cancellation-free
  if (!(t >= 0.0 && t <= 1.0)) return std::nullopt;  // the segment stops short of it
  return from + t * d;
}

std::optional<Push> pushOutOfSphere(const Collider& c, const Vec3& from, const Vec3& to) {
  const double r2 = c.radius * c.radius;
  if ((from - c.point).squaredNorm() < r2 * (1.0 - kInsideTolerance)) {
    // already inside (a start in the solid): out along the radius, or straight up at the centre
    const Vec3 off = to - c.point;
    const double l = off.norm();
    const Vec3 n = l > 0.0 ? Vec3(off / l) : Vec3(0.0, 1.0, 0.0);
    if (l >= c.radius) return std::nullopt;
    return Push{c.point + c.radius * n, n, c.radius - l};
  }
  const auto e = entryPoint(c, from, to);
  if (!e) return std::nullopt;
  // onto the tangent plane at the entry point: outside the sphere everywhere but at e itself,
  // and the motion along the surface is kept for friction to act on
  const Vec3 n = (*e - c.point).normalized();
  const double depth = (*e - to).dot(n);
  if (!(depth > 0.0)) return std::nullopt;
  return Push{to + depth * n, n, depth};
}

// v loses its part into the surface, v_n < 0, and its sliding part shrinks by mu |v_n|: the
// impulse that stopped the particle bounds the friction impulse (Coulomb).
void stopAndRub(Vec3& v, const Vec3& n, double mu) {
  const double vn = v.dot(n);
  if (!(vn < 0.0)) return;
  v -= vn * n;
  const double vt = v.norm(), cut = -mu * vn;
  v = vt > cut ? Vec3(v * (1.0 - cut / vt)) : Vec3::Zero();
}

}  // namespace

Vec3 holdBack(const Vec3& from, const Push& push, double friction) {
  const Vec3 moved = push.to - from;
  const Vec3 slide = moved - moved.dot(push.normal) * push.normal;
  const double s = slide.norm(), limit = friction * push.depth;
  if (s == 0.0) return push.to;
  return push.to - (s <= limit ? slide : Vec3(slide * (limit / s)));
}

std::optional<Push> pushOut(const Collider& c, const Vec3& from, const Vec3& to) {
  return c.shape == Collider::Shape::Plane ? pushOutOfPlane(c, to) : pushOutOfSphere(c, from, to);
}

bool resolveStepContacts(const MassSpringModel& m, const Eigen::VectorXd& from, Eigen::VectorXd& x,
                         Eigen::VectorXd& v) {
  bool touched = false;
  for (int i = 0; i < m.particles(); ++i) {
    if (m.fixed(i)) continue;
    for (const Collider& c : m.colliders) {
      const auto push = pushOut(c, from.segment<3>(3 * i), x.segment<3>(3 * i));
      if (!push) continue;
      touched = true;
      x.segment<3>(3 * i) = holdBack(from.segment<3>(3 * i), *push, c.friction);
      Vec3 vi = v.segment<3>(3 * i);
      stopAndRub(vi, push->normal, c.friction);
      v.segment<3>(3 * i) = vi;
    }
  }
  return touched;
}

}  // namespace sim
