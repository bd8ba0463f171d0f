#version 330 core
// The cloth surface: positions shared with the particles, area-weighted normals from the CPU.
layout(location = 0) in vec3 a_position;  // world (m)
layout(location = 1) in vec3 a_normal;    // world, not normalised

uniform mat4 u_view;
uniform mat4 u_proj;

out vec3 v_normal;    // view space
out vec3 v_position;  // view space

void main() {
  vec4 p = u_view * vec4(a_position, 1.0);
  v_position = p.xyz;
  v_normal = mat3(u_view) * a_normal;
  gl_Position = u_proj * p;
}
