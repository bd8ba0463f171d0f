#version 330 core
// One segment from u_a to u_b as a screen-space quad u_width_px wide with square caps, without
// vertex attributes (6 vertices, two triangles): the mouse's pull (SceneView::grab_line). Its
// colour and shading as a rod's (spring.frag).
uniform mat4 u_view_proj;
uniform vec2 u_viewport;  // pixels
uniform vec3 u_a, u_b;    // world (m)
uniform float u_width_px;
uniform vec3 u_color;

flat out vec3 v_color;
out float v_across;
flat out float v_shading;

const float kNearW = 1e-5;  // an end behind the eye is clipped to the eye plane
const int kEnd[6] = int[6](0, 1, 1, 0, 1, 0);
const float kSide[6] = float[6](-1.0, -1.0, 1.0, -1.0, 1.0, 1.0);

void main() {
  vec4 a = u_view_proj * vec4(u_a, 1.0), b = u_view_proj * vec4(u_b, 1.0);
  v_color = u_color, v_shading = 1.0;
  if (a.w < kNearW && b.w < kNearW) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0), v_across = 0.0;
    return;
  }
  if (a.w < kNearW) a = mix(a, b, (kNearW - a.w) / (b.w - a.w));
  if (b.w < kNearW) b = mix(b, a, (kNearW - b.w) / (a.w - b.w));
  vec2 pa = a.xy / a.w * 0.5 * u_viewport, pb = b.xy / b.w * 0.5 * u_viewport;
  vec2 d = pb - pa;
  float len = length(d);
  vec2 along = len > 1e-6 ? d / len : vec2(1.0, 0.0);
  vec2 across = vec2(-along.y, along.x);
  int end = kEnd[gl_VertexID % 6];
  float side = kSide[gl_VertexID % 6];
  vec4 c = end == 0 ? a : b;
  vec2 offset = 0.5 * u_width_px * (side * across + (end == 0 ? -along : along));
  gl_Position = c + vec4(offset / (0.5 * u_viewport) * c.w, 0.0, 0.0);
  v_across = side;
}
