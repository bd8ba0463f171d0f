// The colliders' pass: the triangles of a scene's colliders (render::ColliderShape), built on the
// CPU each frame (a few thousand vertices: planes first, as discs, then spheres; no GL, tested on
// their own), and drawn lit like the cloth.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <string>
#include <vector>

#include "render/frame.hpp"
#include "render/gl_objects.hpp"
#include "render/program.hpp"
#include "render/scene_view.hpp"

namespace render {

struct ColliderMesh {
  std::vector<float> positions, normals;  // x y z per vertex (m; unit normals, outward)
  std::vector<std::uint32_t> triangles;   // vertex index triples
  std::size_t plane_indices = 0;          // the first ones belong to the planes
};

// Slices (around) and stacks (pole to pole) of a sphere's mesh; segments of a plane's disc.
inline constexpr int kSphereSlices = 48, kSphereStacks = 24, kDiscSegments = 64;
inline constexpr float kSphereInset = 0.005f;

// Each plane as a disc of radius `reach` (m) centred on the point of the plane nearest `around`,
// each sphere as a UV sphere kSphereInset of its radius inside its surface (a cloth resting on
// the sphere, whose triangles' chords dip below the surface, is not pierced by the sphere's). `out`
// is overwritten (its capacity reused).
void buildColliderMesh(std::span<const ColliderShape> colliders, const glm::vec3& around,
                       float reach, ColliderMesh& out);

// The height of the highest upward-facing horizontal plane (normal within kFloorTolerance of +y):
// the floor the ground grid lies on. False when there is none.
inline constexpr float kFloorTolerance = 1e-4f;
bool floorLevel(std::span<const ColliderShape> colliders, float& level);

// The colliders lit like the cloth without its checker: the spheres opaque, then the planes as
// translucent discs as wide as the ground grid, pushed back so that the grid and shadows lying on
// a floor stay in front, and writing no depth. Their shadows are cast in the shadow pass (which
// reuses this frame's mesh). After the scene, the spheres show through whatever hides them
// (drawThrough).
class ColliderPass {
 public:
  // `litProgram`: the lit program (shaders/surface.vert), shared with the surface pass
  explicit ColliderPass(Program& litProgram) : litProgram_(litProgram) {}
  util::Problem init();
  // Builds this frame's mesh, the planes as discs of radius `reach` about `around` (the grid's
  // centre), and draws it.
  void draw(std::span<const ColliderShape> colliders, const Frame& frame, const glm::vec3& around,
            float reach);
  // After the cloth: this frame's spheres, faintly and with a stronger silhouette, where something
  // nearer hides them (a ball under a draped cloth stays in view).
  void drawThrough(const Frame& frame);
  void skip();  // the colliders are not drawn this frame: nor are their shadows
  // The spheres of this frame's mesh, with the program in use (the shadow's).
  void drawSpheresForShadow() const;

 private:
  void uploadMesh();

  Program& litProgram_;
  Program throughProgram_;  // surface.vert, collider_xray.frag
  VertexArray vao_;
  Buffer positions_, normals_, triangles_;
  ColliderMesh mesh_;  // this frame's, rebuilt with the grid's centre and reach
};

}  // namespace render
