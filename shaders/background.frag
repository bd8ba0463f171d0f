#version 330 core
// The vertical background gradient, render::backgroundColor restated: u_color at mid height,
// times 1 + u_gradient (v - 1/2), v from 0 (bottom row's centre) to 1 (top row's). A gentle
// gradient spans few 8-bit levels, so its steps would show as bands: an ordered dither of under
// half a level (interleaved gradient noise, fixed per pixel: frames do not shimmer) hides them.
uniform vec3 u_color;
uniform float u_gradient;
uniform float u_height;  // pixels

out vec4 frag_color;

const float kDither = 0.45 / 255.0;

void main() {
  float v = u_height > 1.0 ? (gl_FragCoord.y - 0.5) / (u_height - 1.0) : 0.5;
  vec3 c = clamp(u_color * (1.0 + u_gradient * (v - 0.5)), 0.0, 1.0);
  float noise = fract(52.9829189 * fract(dot(gl_FragCoord.xy, vec2(0.06711056, 0.00583715))));
  frag_color = vec4(c + (2.0 * noise - 1.0) * kDither, 1.0);
}
