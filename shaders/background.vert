#version 330 core
// One triangle over the whole viewport (vertices from gl_VertexID, no attributes): the
// background gradient that Renderer::clear draws, and Framebuffer::endScene's FXAA pass.
void main() {
  vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
  gl_Position = vec4(p, 0.0, 1.0);
}
