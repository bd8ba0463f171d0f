#include "render/colliders.hpp"

#include <glad/gl.h>

#include <cmath>
#include <numbers>

namespace render {

namespace {

// a sphere in a warm light grey (it reads apart from the blue cloth), a plane a translucent dark
// grey disc that darkens the background into a floor
constexpr glm::vec3 kColliderSphere{0.72f, 0.69f, 0.64f};
constexpr glm::vec3 kColliderPlane{0.24f, 0.25f, 0.28f};
constexpr float kColliderPlaneOpacity = 0.6f;
// a sphere hidden under a cloth shows through it (ColliderPass::drawThrough): this opaque in its
// middle and at its silhouette
constexpr float kThroughOpacity = 0.12f, kThroughRimOpacity = 0.5f;
// a cloth resting on a sphere lies exactly on its surface, and the cloth is pushed back by its
// polygon offset: the sphere is pushed back further, so that the cloth on it always wins
constexpr float kColliderOffsetFactor = 3.0f, kColliderOffsetUnits = 3.0f;

glm::vec3 vec(const float (&a)[3]) {
  return {a[0], a[1], a[2]};
}

void addVertex(ColliderMesh& m, const glm::vec3& p, const glm::vec3& n) {
  m.positions.insert(m.positions.end(), {p.x, p.y, p.z});
  m.normals.insert(m.normals.end(), {n.x, n.y, n.z});
}

// Two unit vectors spanning the plane of normal n.
void planeBasis(const glm::vec3& n, glm::vec3& u, glm::vec3& w) {
  const glm::vec3 helper = std::abs(n.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
  u = glm::normalize(glm::cross(n, helper));
  w = glm::cross(n, u);
}

void addDisc(ColliderMesh& m, const ColliderShape& c, const glm::vec3& around, float reach) {
  const glm::vec3 n = glm::normalize(vec(c.normal)), p = vec(c.point);
  const glm::vec3 centre = around - glm::dot(around - p, n) * n;
  glm::vec3 u, w;
  planeBasis(n, u, w);
  const auto first = static_cast<std::uint32_t>(m.positions.size() / 3);
  addVertex(m, centre, n);
  for (int k = 0; k < kDiscSegments; ++k) {
    const float a = 2.0f * std::numbers::pi_v<float> * static_cast<float>(k) / kDiscSegments;
    addVertex(m, centre + reach * (std::cos(a) * u + std::sin(a) * w), n);
  }
  for (std::uint32_t k = 0; k < kDiscSegments; ++k)
    m.triangles.insert(m.triangles.end(),
                       {first, first + 1 + k, first + 1 + (k + 1) % kDiscSegments});
}

void addSphere(ColliderMesh& m, const ColliderShape& c) {
  const glm::vec3 centre = vec(c.point);
  const auto first = static_cast<std::uint32_t>(m.positions.size() / 3);
  constexpr float pi = std::numbers::pi_v<float>;
  for (int i = 0; i <= kSphereStacks; ++i) {
    const float theta = pi * static_cast<float>(i) / kSphereStacks;  // from the top pole
    for (int j = 0; j <= kSphereSlices; ++j) {
      const float phi = 2.0f * pi * static_cast<float>(j) / kSphereSlices;
      const glm::vec3 n(std::sin(theta) * std::cos(phi), std::cos(theta),
                        std::sin(theta) * std::sin(phi));
      addVertex(m, centre + (1.0f - kSphereInset) * c.radius * n, n);
    }
  }
  const std::uint32_t row = kSphereSlices + 1;
  for (std::uint32_t i = 0; i < kSphereStacks; ++i)
    for (std::uint32_t j = 0; j < kSphereSlices; ++j) {
      const std::uint32_t a = first + i * row + j, b = a + row;
      m.triangles.insert(m.triangles.end(), {a, b, a + 1, a + 1, b, b + 1});
    }
}

}  // namespace

void buildColliderMesh(std::span<const ColliderShape> colliders, const glm::vec3& around,
                       float reach, ColliderMesh& out) {
  out.positions.clear(), out.normals.clear(), out.triangles.clear();
  for (const ColliderShape& c : colliders)
    if (!c.sphere) addDisc(out, c, around, reach);
  out.plane_indices = out.triangles.size();
  for (const ColliderShape& c : colliders)
    if (c.sphere) addSphere(out, c);
}

bool floorLevel(std::span<const ColliderShape> colliders, float& level) {
  bool found = false;
  for (const ColliderShape& c : colliders) {
    if (c.sphere || c.normal[1] < 1.0f - kFloorTolerance) continue;
    level = found ? std::max(level, c.point[1]) : c.point[1];
    found = true;
  }
  return found;
}

// ---- the pass ----

// their own positions, normals and triangles; no uv (a constant 0)
util::Problem ColliderPass::init() {
  if (auto problem = throughProgram_.link("surface.vert", "collider_xray.frag")) return problem;
  vao_.create();
  positions_.create();
  normals_.create();
  triangles_.create();
  glBindVertexArray(vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, positions_.id());
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, normals_.id());
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, triangles_.id());
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return std::nullopt;
}

void ColliderPass::uploadMesh() {
  upload(GL_ARRAY_BUFFER, positions_, mesh_.positions.size() * sizeof(float),
         mesh_.positions.data(), GL_STREAM_DRAW);
  upload(GL_ARRAY_BUFFER, normals_, mesh_.normals.size() * sizeof(float), mesh_.normals.data(),
         GL_STREAM_DRAW);
  glBindVertexArray(vao_.id());
  upload(GL_ELEMENT_ARRAY_BUFFER, triangles_, mesh_.triangles.size() * sizeof(std::uint32_t),
         mesh_.triangles.data(), GL_STREAM_DRAW);
}

void ColliderPass::draw(std::span<const ColliderShape> colliders, const Frame& f,
                        const glm::vec3& around, float reach) {
  buildColliderMesh(colliders, around, reach, mesh_);
  uploadMesh();  // leaves the vertex array bound
  litProgram_.use();
  litProgram_.set("u_view", f.view);
  litProgram_.set("u_proj", f.proj);
  litProgram_.set("u_orthographic", f.orthographic ? 1 : 0);
  litProgram_.set("u_checker_squares", 0.0f);
  litProgram_.set("u_tint", glm::vec4(0.0f));
  litProgram_.set("u_ghost_net", 0.0f);  // filled: the program is the cloth's, a ghost's maybe
  glVertexAttrib2f(2, 0.0f, 0.0f);
  const auto planes = static_cast<GLsizei>(mesh_.plane_indices);
  const auto spheres = static_cast<GLsizei>(mesh_.triangles.size()) - planes;
  if (spheres > 0) {
    litProgram_.set("u_opacity", 1.0f);
    litProgram_.set("u_color_front", kColliderSphere);
    litProgram_.set("u_color_back", kColliderSphere);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(kColliderOffsetFactor, kColliderOffsetUnits);
    glDrawElements(GL_TRIANGLES, spheres, GL_UNSIGNED_INT,
                   reinterpret_cast<const void*>(planes * sizeof(std::uint32_t)));
    glDisable(GL_POLYGON_OFFSET_FILL);
  }
  if (planes > 0) {
    litProgram_.set("u_opacity", kColliderPlaneOpacity);
    litProgram_.set("u_color_front", kColliderPlane);
    litProgram_.set("u_color_back", kColliderPlane);
    glEnable(GL_BLEND);
    glDepthMask(GL_FALSE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(kSurfaceOffsetFactor, kSurfaceOffsetUnits);
    glDrawElements(GL_TRIANGLES, planes, GL_UNSIGNED_INT, nullptr);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
  }
}

// The spheres again where something nearer hides them: depth test GREATER at the very polygon
// offset of their first draw (so that their visible parts, at equal depth, are not drawn twice),
// their far half culled (it lies behind their own near half), blended, no depth written.
void ColliderPass::drawThrough(const Frame& f) {
  const auto planes = static_cast<GLsizei>(mesh_.plane_indices);
  const auto spheres = static_cast<GLsizei>(mesh_.triangles.size()) - planes;
  if (spheres <= 0) return;
  throughProgram_.use();
  throughProgram_.set("u_view", f.view);
  throughProgram_.set("u_proj", f.proj);
  throughProgram_.set("u_orthographic", f.orthographic ? 1 : 0);
  throughProgram_.set("u_color_front", kColliderSphere);
  throughProgram_.set("u_opacity", kThroughOpacity);
  throughProgram_.set("u_rim_opacity", kThroughRimOpacity);
  glBindVertexArray(vao_.id());
  glEnable(GL_BLEND);
  glDepthMask(GL_FALSE);
  glDepthFunc(GL_GREATER);
  glEnable(GL_CULL_FACE);
  glFrontFace(GL_CW);  // addSphere's triangles wind clockwise seen from outside
  glCullFace(GL_BACK);
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(kColliderOffsetFactor, kColliderOffsetUnits);
  glDrawElements(GL_TRIANGLES, spheres, GL_UNSIGNED_INT,
                 reinterpret_cast<const void*>(planes * sizeof(std::uint32_t)));
  glDisable(GL_POLYGON_OFFSET_FILL);
  glFrontFace(GL_CCW);
  glDisable(GL_CULL_FACE);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

void ColliderPass::skip() {
  mesh_.triangles.clear();
  mesh_.plane_indices = 0;
}

void ColliderPass::drawSpheresForShadow() const {
  if (mesh_.triangles.size() <= mesh_.plane_indices) return;
  glBindVertexArray(vao_.id());
  glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(mesh_.triangles.size() - mesh_.plane_indices),
                 GL_UNSIGNED_INT,
                 reinterpret_cast<const void*>(mesh_.plane_indices * sizeof(std::uint32_t)));
}

}  // namespace render
