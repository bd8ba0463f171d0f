#version 330 core
// Lines with a colour per vertex, computed on the CPU: the grid, the axes and the trails.
layout(location = 0) in vec3 a_position;  // world (m)
layout(location = 1) in vec4 a_color;     // RGBA8, normalised

uniform mat4 u_view_proj;

out vec4 v_color;

void main() {
  v_color = a_color;
  gl_Position = u_view_proj * vec4(a_position, 1.0);
}
