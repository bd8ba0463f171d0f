#include "app/view_builder.hpp"

#include <algorithm>
#include <cmath>

#include "app/framing.hpp"
#include "sim/diagnostics.hpp"

namespace app {

namespace {
constexpr size_t kTrailSamples = 240;  // 4 s at 60 frames/s

// The automatic strain scale's smoothing, per build: a rise is followed at once by this share
// (a sudden stretch shows within a few frames), a fall slowly (a passing peak does not make the
// legend jump back and forth).
constexpr float kStrainRise = 0.5f, kStrainFall = 0.03f;
// The rounded scale moves down only once the smoothed value is below this share of it: nice
// steps are 2 to 2.5 apart, so this leaves a band in which it holds still.
constexpr float kStrainShrinkBelow = 0.35f;
// The percentile is taken over at most about this many springs, every k-th of a larger system:
// plenty for a 95th percentile that is smoothed and rounded, and a full nth_element over the 256 x
// 256 cloth's 390 658 springs cost 1.5 ms a frame.
constexpr size_t kStrainScaleSamples = 16384;
}  // namespace

float ViewBuilder::niceScaleAtLeast(float x) {
  if (!(x > kMinStrainScale) || !std::isfinite(x)) return kMinStrainScale;
  const float p = std::pow(10.0f, std::floor(std::log10(x)));
  const float m = x / p;
  // the small tolerance keeps an exact 0.002 from rounding up to 0.005 through float error
  constexpr float kTol = 1e-4f;
  return (m <= 1.0f + kTol ? 1.0f : m <= 2.0f + kTol ? 2.0f : m <= 5.0f + kTol ? 5.0f : 10.0f) * p;
}

int ViewBuilder::pointOfBody(const Session& s, int body) {
  return s.built().pointOfBody(body);
}

int ViewBuilder::bodyOfPoint(const Session& s, int point) {
  return s.built().bodyOfPoint(point);
}

// The system's skeleton (sim/skeleton.hpp) as the view's points and lines, and the scene's
// surface, colliders and trails.
void ViewBuilder::rebuildTopology(const Session& s) {
  const scene::Built& b = s.built();
  built_ = &b;
  ++topology_;
  levels_.clear(), level_spans_.clear();
  lines_.clear(), tris_.clear(), shadow_tris_.clear(), colliders_.clear(), radii_.clear(),
      base_flags_.clear(), line_flags_.clear();
  uv_.clear();
  fresh_scene_ = true;
  streak_box_valid_ = false;
  trails_of_.clear();
  skeleton_ = b.skeleton(b.state, !b.triangles.empty());
  culprit_radius_ = static_cast<float>(kCulpritOfScene * skeleton_.size);
  for (size_t i = 0; i < skeleton_.radius.size(); ++i) {
    radii_.push_back(static_cast<float>(skeleton_.radius[i]));
    base_flags_.push_back(skeleton_.fixed[i] ? render::kPointFixed : 0);
  }
  for (size_t k = 0; k < skeleton_.rigid.size(); ++k) {
    lines_.push_back(skeleton_.lines[2 * k]), lines_.push_back(skeleton_.lines[2 * k + 1]);
    line_flags_.push_back(skeleton_.rigid[k] ? render::kLineRigid : 0);
  }
  for (int body : skeleton_.trail_bodies) trails_of_.push_back({body, {}, 0});
  tris_ = b.triangles;
  torn_ = false;
  shadow_tris_ = b.shadow_triangles;
  levels_ = b.surface_levels;
  level_spans_.assign(levels_.begin(), levels_.end());
  fillSurfaceUv(b);
  for (const sim::Collider& c : skeleton_.colliders) {
    render::ColliderShape shape;
    shape.sphere = c.shape == sim::Collider::Shape::Sphere;
    for (int k = 0; k < 3; ++k)
      shape.point[k] = static_cast<float>(c.point[k]),
      shape.normal[k] = static_cast<float>(c.normal[k]);
    shape.radius = static_cast<float>(c.radius);
    colliders_.push_back(shape);
  }
}

// Material coordinates of a cloth: its initial (rest) positions projected on the plane of their
// two largest extents (a flat cloth's own plane, whichever way it hangs or lies), the larger side
// spanning 0..1. Triangles' points only matter, but every point gets a pair (the view's contract).
void ViewBuilder::fillSurfaceUv(const scene::Built& b) {
  const auto& x = b.state.x;
  const Eigen::Index n = x.size() / 3;
  if (b.triangles.empty() || n == 0) return;
  Eigen::Vector3d lo = x.segment<3>(0), hi = lo;
  for (Eigen::Index i = 1; i < n; ++i) {
    lo = lo.cwiseMin(x.segment<3>(3 * i));
    hi = hi.cwiseMax(x.segment<3>(3 * i));
  }
  const Eigen::Vector3d ext = hi - lo;
  int a = 0, c = 1, smallest = 2;  // the two largest extents' axes
  for (int k = 0; k < 3; ++k)
    if (ext[k] < ext[smallest]) smallest = k;
  a = smallest == 0 ? 1 : 0;
  c = smallest == 2 ? 1 : 2;
  const double side = std::max(ext[a], ext[c]);
  const double inv = side > 0.0 && std::isfinite(side) ? 1.0 / side : 0.0;
  uv_.resize(static_cast<size_t>(2 * n));
  for (Eigen::Index i = 0; i < n; ++i) {
    uv_[2 * i] = static_cast<float>((x[3 * i + a] - lo[a]) * inv);
    uv_[2 * i + 1] = static_cast<float>((x[3 * i + c] - lo[c]) * inv);
  }
}

// the percentile of |strain| over the springs (rods carry none; every k-th of many), smoothed and
// rounded
void ViewBuilder::updateAutoStrainScale(bool fresh) {
  abs_strain_.clear();
  const size_t every = (strain_.size() + kStrainScaleSamples - 1) / kStrainScaleSamples;
  for (size_t k = 0; k < strain_.size(); k += std::max<size_t>(every, 1))
    if (!(line_flags_[k] & render::kLineRigid) && std::isfinite(strain_[k]))
      abs_strain_.push_back(std::abs(strain_[k]));
  if (abs_strain_.empty()) {
    smoothed_strain_ = 0.0f, auto_strain_scale_ = kMinStrainScale;
    return;
  }
  const size_t at = std::min(abs_strain_.size() - 1,
                             static_cast<size_t>(kStrainPercentile * float(abs_strain_.size())));
  std::nth_element(abs_strain_.begin(), abs_strain_.begin() + static_cast<long>(at),
                   abs_strain_.end());
  const float raw = abs_strain_[at];
  if (fresh)
    smoothed_strain_ = raw;
  else
    smoothed_strain_ +=
        (raw - smoothed_strain_) * (raw > smoothed_strain_ ? kStrainRise : kStrainFall);
  if (fresh || smoothed_strain_ > auto_strain_scale_ ||
      smoothed_strain_ < kStrainShrinkBelow * auto_strain_scale_)
    auto_strain_scale_ = niceScaleAtLeast(smoothed_strain_);
}

// positions of the skeleton's points (a pendulum's pivot first)
void ViewBuilder::fillPositions(const Session& s) {
  // a diverged lane: the state the runaway rule found (docs/integrators.md#runaway-rule), or
  // the blow-up's replayed frame while it plays (Session::shownLane)
  if (shown_state)
    s.built().pointPositions(*shown_state, pos_, tmp_);
  else
    s.lane(lane).system().pointPositions(s.shownLane(lane).state(), pos_, tmp_);
}

ViewBuilder::Culprits ViewBuilder::fillFlagsAndRadii(const Session& s) {
  // flags: fixed, grabbed, the divergence culprit
  flags_ = base_flags_;
  const int grabbed = s.grabbed();
  if (grabbed >= 0) flags_[pointOfBody(s, grabbed)] |= render::kPointGrabbed;
  // edit mode's selection looks held: the bodies the Edit section's fields and keys act on
  if (s.editor().editing())
    for (const int body : s.editor().selection())
      if (const int p = pointOfBody(s, body); p >= 0 && p < static_cast<int>(flags_.size()))
        flags_[size_t(p)] |= render::kPointGrabbed;
  Culprits culprit;
  const auto point = [&](int body) {
    const int p = body >= 0 ? pointOfBody(s, body) : -1;
    return p < static_cast<int>(flags_.size()) ? p : -1;
  };
  if (const auto& divergence = s.lane(lane).divergence(); divergence && !shown_state)
    culprit = {point(divergence->body), point(divergence->other_body)};
  point_radii_ = radii_;
  float culpritRadius = 0.0f;
  if (culprit.a >= 0) {
    // whatever the display options (a cloth hides its springs and its beads are small and under
    // the surface): the culprit is flagged and drawn large enough to find
    // ... at the size of the scene as drawn
    const Box now = boxOf(pos_);
    const float spread = now.empty() ? 0.0f : glm::length(now.hi - now.lo);
    culpritRadius =
        std::max({kCulpritRadiusScale * radii_[culprit.a], culprit_radius_,
                  static_cast<float>(kCulpritOfScene) * (std::isfinite(spread) ? spread : 0.0f)});
    for (const int p : {culprit.a, culprit.b})
      if (p >= 0) flags_[p] |= render::kPointHighlight, point_radii_[p] = culpritRadius;
  }
  if (culprit != shown_culprit_ || culpritRadius != shown_culprit_radius_) {
    ++topology_;  // the renderer uploads radii with the topology only
    shown_culprit_ = culprit, shown_culprit_radius_ = culpritRadius;
  }
  return culprit;
}

// line strains (l - r) / r, and the culprit's springs highlighted: a torn spring itself, or every
// spring of a single culprit
void ViewBuilder::fillLineStrains(Culprits culprit) {
  const size_t nl = lines_.size() / 2;
  strain_.assign(nl, 0.0f);
  const auto hotLine = [&](int a, int c) {
    if (culprit.b >= 0)
      return (a == culprit.a && c == culprit.b) || (a == culprit.b && c == culprit.a);
    return culprit.a >= 0 && (a == culprit.a || c == culprit.a);
  };
  for (size_t k = 0; k < nl; ++k) {
    const std::uint32_t a = lines_[2 * k], c = lines_[2 * k + 1];
    if (!skeleton_.rigid[k]) {
      const float dx = pos_[3 * c] - pos_[3 * a], dy = pos_[3 * c + 1] - pos_[3 * a + 1],
                  dz = pos_[3 * c + 2] - pos_[3 * a + 2];
      const double l = std::sqrt(double(dx) * dx + double(dy) * dy + double(dz) * dz);
      const double r = skeleton_.rest[k];
      strain_[k] = r > 0.0 ? static_cast<float>((l - r) / r) : 0.0f;
    }
    const bool hot = hotLine(int(a), int(c));
    line_flags_[k] =
        (line_flags_[k] & ~render::kLineHighlight) | (hot ? render::kLineHighlight : 0);
  }
}

// trail ring buffers of the chosen bodies (a new sample when `advance`), unrolled oldest first
void ViewBuilder::fillTrails(const Session& s, bool advance) {
  trails_.clear(), trail_len_.clear();
  for (Trail& t : trails_of_) {
    const int p = pointOfBody(s, t.body);
    if (p < 0 || 3 * p + 2 >= static_cast<int>(pos_.size())) continue;
    if (advance) {
      if (t.ring.size() < 3 * kTrailSamples) {
        t.ring.insert(t.ring.end(), {pos_[3 * p], pos_[3 * p + 1], pos_[3 * p + 2]});
      } else {
        for (int c = 0; c < 3; ++c) t.ring[3 * t.head + c] = pos_[3 * p + c];
        t.head = (t.head + 1) % kTrailSamples;
      }
    }
    const size_t count = t.ring.size() / 3;
    if (count < 2) continue;
    const size_t head = count < kTrailSamples ? 0 : t.head;
    for (size_t i = 0; i < count; ++i)
      for (int c = 0; c < 3; ++c) trails_.push_back(t.ring[3 * ((head + i) % count) + c]);
    trail_len_.push_back(static_cast<std::uint32_t>(count));
  }
}

// The mouse's pull: from the grab's target to the grabbed body's point (render::SceneView).
void ViewBuilder::fillGrabLine(const Session& s) {
  grab_line_.clear();
  if (shown_state) return;  // a ghost is not held
  if (guide_line.size() == 6) {
    grab_line_ = guide_line;
    return;
  }
  const int grabbed = s.grabbed();
  const int p = grabbed >= 0 ? pointOfBody(s, grabbed) : -1;
  if (p < 0 || 3 * p + 2 >= static_cast<int>(pos_.size())) return;
  const sim::Vec3 target = s.built().grabTarget();
  grab_line_ = {static_cast<float>(target.x()),
                static_cast<float>(target.y()),
                static_cast<float>(target.z()),
                pos_[3 * p],
                pos_[3 * p + 1],
                pos_[3 * p + 2]};
}

// The traced body's velocity and acceleration in this builder's lane (Measurements::tracedMotion),
// from its drawn point, to the session's fixed scales.
void ViewBuilder::fillArrows(const Session& s) {
  arrows_.clear();
  const BodyMotion m = s.measurements().tracedMotion(lane);
  const int p = m.valid ? pointOfBody(s, s.measurements().tracedBody()) : -1;
  if (p < 0 || 3 * p + 2 >= static_cast<int>(pos_.size())) return;
  auto add = [&](const sim::Vec3& v, double scale, render::ArrowKind kind) {
    render::Arrow a;
    a.kind = kind;
    for (int c = 0; c < 3; ++c) {
      a.tail[c] = pos_[3 * p + c];
      a.head[c] = a.tail[c] + static_cast<float>(v[c] * scale);
    }
    arrows_.push_back(a);
  };
  add(m.velocity, s.measurements().arrowScales().velocity, render::ArrowKind::Velocity);
  if (m.has_acceleration)
    add(m.acceleration, s.measurements().arrowScales().acceleration,
        render::ArrowKind::Acceleration);
  // the forces, each from the body at their scale (docs/exploring.md#forces)
  if (!forces) return;
  const Measurements::TracedForces f = s.measurements().tracedForces(lane);
  for (const sim::BodyForce& force : f.forces) add(force.force, f.scale, arrowKindOf(force.source));
}

render::ArrowKind arrowKindOf(sim::ForceSource source) {
  switch (source) {
    case sim::ForceSource::Gravity:
      return render::ArrowKind::Gravity;
    case sim::ForceSource::Spring:
    case sim::ForceSource::Rod:
      return render::ArrowKind::Spring;
    case sim::ForceSource::Damping:
      return render::ArrowKind::Damping;
    case sim::ForceSource::Drag:
      return render::ArrowKind::Drag;
    case sim::ForceSource::Grab:
      return render::ArrowKind::Grab;
    case sim::ForceSource::Contact:
      return render::ArrowKind::Contact;
  }
  return render::ArrowKind::Gravity;
}

// The wind's streaks (app/wind_streaks.hpp) where the wind acts: a system with drag and wind.
void ViewBuilder::fillWind(const Session& s) {
  const scene::Built& b = s.built();
  const sim::Vec3 w = b.vectorParameter(sim::Parameter::Wind);
  if (!(b.parameter(sim::Parameter::Drag) > 0.0) || w.isZero()) {
    wind_.clear();
    return;
  }
  if (!streak_box_valid_) streak_box_ = streakBox(pos_, b.planar()), streak_box_valid_ = true;
  const double wind[3] = {w.x(), w.y(), w.z()};
  windStreaks(streak_box_, wind, s.time(), wind_);
}

// A diverged lane's surface without its torn triangles: one with an edge stretched past the
// runaway rule's tear (sim::kTornStretchFactor times its length in the scene's initial state).
// A cloth torn by a blow-up then shows its tears instead of triangles spanning the picture
// between the flung particles and the rest (docs/lab.md#the-blow-up-in-slow-motion).
void ViewBuilder::fillTornSurface(const Session& s) {
  const scene::Built& b = s.built();
  const bool diverged = s.lane(lane).diverged() && !b.triangles.empty() && !shown_state;
  if (!diverged) {
    if (torn_) {  // the whole surface again (a reset, a rewind)
      tris_ = b.triangles, shadow_tris_ = b.shadow_triangles, levels_ = b.surface_levels;
      level_spans_.assign(levels_.begin(), levels_.end());
      torn_ = false, ++topology_;
    }
    return;
  }
  const auto stretched = [&](std::uint32_t i, std::uint32_t j) {
    if (3 * std::max(i, j) + 2 >= pos_.size()) return true;
    const sim::Vec3 now(pos_[3 * j] - pos_[3 * i], pos_[3 * j + 1] - pos_[3 * i + 1],
                        pos_[3 * j + 2] - pos_[3 * i + 2]);
    const double start = (b.state.x.segment<3>(3 * j) - b.state.x.segment<3>(3 * i)).norm();
    return !(now.norm() <= sim::kTornStretchFactor * start);  // a NaN is torn too
  };
  std::vector<std::uint32_t> kept;
  for (size_t t = 0; t + 2 < b.triangles.size(); t += 3) {
    const std::uint32_t p = b.triangles[t], q = b.triangles[t + 1], r = b.triangles[t + 2];
    if (!stretched(p, q) && !stretched(q, r) && !stretched(r, p))
      kept.insert(kept.end(), {p, q, r});
  }
  if (torn_ && kept == tris_) return;
  tris_ = std::move(kept);
  shadow_tris_.clear(), levels_.clear(), level_spans_.clear();  // the coarse ones are whole
  torn_ = true, ++topology_;
}

const render::SceneView& ViewBuilder::build(const Session& s, bool trails) {
  const scene::Built& b = s.built();
  if (built_ != &b) rebuildTopology(s);
  fillPositions(s);
  fillTornSurface(s);
  const Culprits culprit = fillFlagsAndRadii(s);
  fillLineStrains(culprit);
  fillTrails(s, trails);
  fillWind(s);
  fillGrabLine(s);
  fillArrows(s);
  if (s.timeline().restores() != restores_)
    fresh_scene_ = true, restores_ = s.timeline().restores();
  updateAutoStrainScale(fresh_scene_);
  fresh_scene_ = false;
  view_.positions = pos_;
  view_.radii = point_radii_;
  view_.flags = flags_;
  view_.lines = lines_;
  view_.line_strain = strain_;
  view_.line_flags = line_flags_;
  view_.triangles = tris_;
  view_.shadow_triangles = shadow_tris_;
  view_.surface_levels = level_spans_;
  view_.surface_uv = uv_;
  view_.trails = trails_;
  view_.trail_lengths = trail_len_;
  view_.colliders = colliders_;
  view_.wind_streaks = wind_;
  view_.grab_line = grab_line_;
  view_.arrows = arrows_;
  // each lane's builder is its own upload source: the renderer must not take one lane's radii
  // (a culprit's) for another's
  view_.topology = (topology_ << 3) | static_cast<std::uint64_t>(lane & 7);
  view_.planar = b.planar();
  return view_;
}

void ViewBuilder::toggleTrail(int body) {
  for (size_t i = 0; i < trails_of_.size(); ++i)
    if (trails_of_[i].body == body) {
      trails_of_.erase(trails_of_.begin() + static_cast<long>(i));
      return;
    }
  if (body >= 0) trails_of_.push_back({body, {}, 0});
}

const std::vector<int> ViewBuilder::trailBodies() const {
  std::vector<int> out;
  for (const auto& t : trails_of_) out.push_back(t.body);
  return out;
}

}  // namespace app
