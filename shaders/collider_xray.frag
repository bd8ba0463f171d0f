#version 330 core
// A collider sphere seen through what covers it (a cloth draped over it): drawn only where it
// is hidden (depth test GREATER), faint in its middle and stronger toward its silhouette, so that
// the ball reads under the cloth while the cloth's folds stay visible.
in vec3 v_normal;
in vec3 v_position;
in vec2 v_uv;

uniform vec3 u_color_front;
uniform bool u_orthographic;
uniform float u_opacity;  // in the middle
uniform float u_rim_opacity;  // at the silhouette

out vec4 frag_color;

const float kRimPower = 2.0;  // how quickly the rim's share falls off toward the middle

void main() {
  vec3 n = normalize(v_normal);
  vec3 to_eye = u_orthographic ? vec3(0.0, 0.0, 1.0) : normalize(-v_position);
  float rim = pow(1.0 - abs(dot(n, to_eye)), kRimPower);
  frag_color = vec4(u_color_front, mix(u_opacity, u_rim_opacity, rim));
}
