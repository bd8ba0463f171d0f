#version 330 core
// The planar shadow: every vertex (cloth, springs, particles) projected along the light onto the
// ground plane y = u_level. Particles are GL_POINTS sized like their spheres.
layout(location = 0) in vec3 a_position;  // world (m)
layout(location = 1) in float a_radius;   // world (m); read for particles only

uniform mat4 u_view_proj;
uniform vec3 u_light;   // world direction the light travels (y < 0), unit
uniform float u_level;  // y of the ground (m)
uniform float u_fade_height;  // m: a caster this high above the ground casts a fainter shadow
uniform bool u_points;
uniform float u_point_scale;  // pixels per metre of radius at w = 1: P[1][1] * H / 2 * scale

out float v_height;  // of the caster above the ground, fraction of u_fade_height

const float kMinW = 1e-6;
const float kMinPointSize = 1.0;  // pixels

void main() {
  float h = max(a_position.y - u_level, 0.0);
  // below the ground (falling through it): flattened straight down
  vec3 p = a_position - u_light * (h / -u_light.y);
  p.y = u_level;
  v_height = h / u_fade_height;
  gl_Position = u_view_proj * vec4(p, 1.0);
  if (u_points)
    gl_PointSize = max(2.0 * a_radius * u_point_scale / max(gl_Position.w, kMinW), kMinPointSize);
}
