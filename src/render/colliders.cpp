#include "render/colliders.hpp"

#include <cmath>
#include <numbers>

namespace render {

namespace {

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

}  // namespace render
