#version 330 core
// One triangle over the whole viewport (vertices from gl_VertexID, no attributes): the
// background gradient that Renderer::clear draws, and Framebuffer::endScene's FXAA pass (which
// ignores the colour). The gradient is render::backgroundColor restated: u_color at mid height,
// times 1 + u_gradient (v - 1/2), v from 0 (the bottom row's centre) to 1 (the top row's). It is
// linear in y, so it is computed per vertex and interpolated: on a software rasteriser the
// fragment stage is what costs. Out-of-range values are clamped by the 8-bit target.
uniform vec3 u_color;
uniform float u_gradient;
uniform float u_height;  // pixels

out vec3 v_color;

void main() {
  vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
  float rowFromBottom = 0.5 * (p.y + 1.0) * u_height - 0.5;  // at this vertex, in pixel centres
  float v = u_height > 1.0 ? rowFromBottom / (u_height - 1.0) : 0.5;
  v_color = u_color * (1.0 + u_gradient * (v - 0.5));
  gl_Position = vec4(p, 0.0, 1.0);
}
