#version 330 core
// The shadow darkens what is there (blended): strongest under a caster touching the ground,
// fading with its height (a high caster's shadow is softer and paler, as under a broad light).
in float v_height;

uniform float u_alpha;
uniform bool u_points;

out vec4 frag_color;

const float kFarShare = 0.45;  // of u_alpha, under a caster at the fade height and above

void main() {
  if (u_points) {
    vec2 p = gl_PointCoord * 2.0 - 1.0;
    if (dot(p, p) > 1.0) discard;
  }
  float a = u_alpha * mix(1.0, kFarShare, smoothstep(0.0, 1.0, v_height));
  frag_color = vec4(0.0, 0.0, 0.0, a);
}
