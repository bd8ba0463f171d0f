#version 330 core
// Springs and rods, drawn as GL_LINES without vertex attributes: vertex v of the draw is end
// v % 2 of line v / 2. The point at that end comes from the line index pairs, its position from
// the particles' position buffer (the very buffer particles and surface read as an attribute),
// the line's colour from its strain and LineFlag bits: all texture buffers, because a per-line
// value cannot be a vertex attribute of vertices that lines share (and GL 3.3 has no storage
// buffers). The strain colour map is render::strainColor (renderer.hpp); a test holds the two
// equal.
uniform samplerBuffer u_positions;    // x y z per point (m)
uniform usamplerBuffer u_lines;       // point index pairs
uniform samplerBuffer u_strain;       // per line: (l - rest) / rest
uniform usamplerBuffer u_line_flags;  // per line: render::LineFlag bits

uniform mat4 u_view_proj;
uniform float u_strain_scale;  // |strain| drawn at full colour; 0: only the sign counts
uniform vec3 u_color_rest, u_color_stretched, u_color_compressed, u_color_rigid,
    u_color_highlight;

flat out vec3 v_color;

const uint kHighlight = 1u, kRigid = 2u;

vec3 strainColor(float strain) {
  if (isnan(strain)) return u_color_rest;
  float t = u_strain_scale > 0.0 ? strain / u_strain_scale : sign(strain);
  t = clamp(t, -1.0, 1.0);
  float a = abs(t);
  float s = a * (2.0 - a);  // ease-out
  return t >= 0.0 ? mix(u_color_rest, u_color_stretched, s)
                  : mix(u_color_rest, u_color_compressed, s);
}

void main() {
  int line = gl_VertexID / 2;
  int p = 3 * int(texelFetch(u_lines, gl_VertexID).r);
  vec3 x = vec3(texelFetch(u_positions, p).r, texelFetch(u_positions, p + 1).r,
                texelFetch(u_positions, p + 2).r);
  gl_Position = u_view_proj * vec4(x, 1.0);
  uint flags = texelFetch(u_line_flags, line).r;
  if ((flags & kHighlight) != 0u)
    v_color = u_color_highlight;
  else if ((flags & kRigid) != 0u)
    v_color = u_color_rigid;
  else
    v_color = strainColor(texelFetch(u_strain, line).r);
}
