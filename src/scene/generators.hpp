// Generators (docs/scenes.md): chain, hanging chain, loop, spring pendulum, cloth grid. Usable from
// code (the *Params structs) and from JSON (expandGenerator).
#pragma once

#include <string>

#include "scene/scene_def.hpp"

namespace scene {

struct ChainParams {
  Vec3 start = Vec3::Zero(), end = Vec3(1, 0, 0);  // m
  int segments = 10;
  double mass = 0.1;         // kg per moving particle
  double stiffness = 100.0;  // N/m
  std::optional<double> rest_length;
  double damping = 0.0;
  bool fix_start = true, fix_end = false;
  Vec3 velocity = Vec3::Zero();
  std::optional<Vec3> end_velocity;
};

struct HangingChainParams {
  Vec3 pivot = Vec3::Zero();
  int segments = 10;
  double segment_length = 0.1;  // m
  double mass = 0.1;
  double stiffness = 100.0;
  std::optional<double> rest_length;
  double damping = 0.0;
  std::vector<double> angles;  // rad, per segment; empty = all vertical
};

struct LoopParams {
  Vec3 center = Vec3::Zero();
  double radius = 1.0;
  int count = 4;
  double mass = 0.1, stiffness = 100.0;
  std::optional<double> rest_length;
  double damping = 0.0;
  double phase = 0.0;
  Vec3 velocity = Vec3::Zero();
};

struct SpringPendulumParams {
  Vec3 pivot = Vec3::Zero(), bob = Vec3(0, -1, 0), velocity = Vec3::Zero();
  double mass = 1.0, stiffness = 10.0;
  std::optional<double> rest_length;
  double damping = 0.0;
};

enum class ClothPins { TopCorners, TopEdge, AllCorners, None };

struct ClothParams {
  int nx = 16, ny = 16;
  double width = 1.0, height = 1.0;  // m
  double mass = 1.0;                 // kg, whole cloth
  double stiffness = 1000.0;         // N/m structural
  std::optional<double> shear_stiffness, bending_stiffness;
  double damping = 0.0;
  Vec3 center = Vec3::Zero();
  bool horizontal = false;
  double tilt = 0.0;  // degrees a hanging sheet is swung about its top edge, towards +z
  ClothPins pins = ClothPins::TopCorners;
};

// Each appends to `out` (particle indices offset by what `out` already holds).
void addChain(MassSpringDef& out, const ChainParams& p);
void addHangingChain(MassSpringDef& out, const HangingChainParams& p);
void addLoop(MassSpringDef& out, const LoopParams& p);
void addSpringPendulum(MassSpringDef& out, const SpringPendulumParams& p);
// At most this many cells a side in a cloth's shadow mesh (MassSpringDef::shadow_triangles).
inline constexpr int kShadowCells = 64;
void addShadowMesh(MassSpringDef& out, const ClothParams& p, int first);
// A cloth with at least kMinLevelCells * stride cells a side gets a surface level at that stride
// (2, 4, ... up to kMaxSurfaceLevels levels; MassSpringDef::surface_levels). A level covers every
// cloth of the system: one too coarse for it adds its whole surface there.
inline constexpr int kMinLevelCells = 48;
inline constexpr int kMaxSurfaceLevels = 2;
void addSurfaceLevels(MassSpringDef& out, const ClothParams& p, int first, size_t trianglesBefore);
void addCloth(MassSpringDef& out, const ClothParams& p);

}  // namespace scene
