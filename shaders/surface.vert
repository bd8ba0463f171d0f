#version 330 core
// The cloth surface: positions shared with the particles, unit vertex normals from the CPU
// (render::vertexNormals), material coordinates for the checker.
layout(location = 0) in vec3 a_position;  // world (m)
layout(location = 1) in vec3 a_normal;    // world, unit (0 where a vertex has none)
layout(location = 2) in vec2 a_uv;        // SceneView::surface_uv

uniform mat4 u_view;
uniform mat4 u_proj;

out vec3 v_normal;    // view space
out vec3 v_position;  // view space
out vec2 v_uv;

void main() {
  vec4 p = u_view * vec4(a_position, 1.0);
  v_position = p.xyz;
  v_normal = mat3(u_view) * a_normal;
  v_uv = a_uv;
  gl_Position = u_proj * p;
}
