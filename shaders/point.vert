#version 330 core
// Particles as sphere impostors: one GL_POINTS vertex per particle, sized so that the sprite
// covers the projected sphere (perspective or orthographic).
layout(location = 0) in vec3 a_position;  // world (m)
layout(location = 1) in float a_radius;   // world (m)
layout(location = 2) in uint a_flags;     // render::PointFlag bits

uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_viewport_height;  // pixels
uniform float u_radius_scale;

flat out vec3 v_center;  // view space
flat out float v_radius;  // world (m)
flat out uint v_flags;
flat out float v_size;  // sprite diameter, pixels

const float kMinW = 1e-6;         // a point at the eye: a huge sprite, not a division by zero
const float kMinPointSize = 1.0;  // pixels: a far particle stays visible

void main() {
  vec4 c = u_view * vec4(a_position, 1.0);
  v_center = c.xyz;
  v_radius = a_radius * u_radius_scale;
  v_flags = a_flags;
  gl_Position = u_proj * c;
  // diameter in pixels: 2 r * P[1][1] / w * (H / 2); w = 1 for the orthographic projection
  float w = max(gl_Position.w, kMinW);
  gl_PointSize = max(v_radius * u_proj[1][1] * u_viewport_height / w, kMinPointSize);
  v_size = gl_PointSize;
}
