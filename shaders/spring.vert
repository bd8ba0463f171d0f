#version 330 core
// Springs and rods, drawn as screen-space quads without vertex attributes (GL 3.3 core promises no
// line width above 1): vertex v of the draw is corner v % 6 of line v / 6's quad, two triangles
// around the segment between its ends, u_width_px wide (u_rod_width_px for a rod) and as much
// longer (square caps, so that a chain's segments join). Over a cloth's surface, GL_LINES a pixel
// wide (u_thin). The points at the ends come from the
// line index pairs, their positions from the particles' position buffer (the very buffer particles
// and surface read as an attribute), the line's colour from its strain and LineFlag bits: all
// texture buffers, because a per-line value cannot be a vertex attribute of vertices that lines
// share (and GL 3.3 has no storage buffers). The strain colour map is render::strainColor
// (renderer.hpp); a test holds the two equal.
uniform samplerBuffer u_positions;    // x y z per point (m)
uniform usamplerBuffer u_lines;       // point index pairs
uniform samplerBuffer u_strain;       // per line: (l - rest) / rest
uniform usamplerBuffer u_line_flags;  // per line: render::LineFlag bits

uniform mat4 u_view_proj;
uniform vec2 u_viewport;         // pixels
uniform float u_width_px;        // a spring's full width, pixels
uniform float u_rod_width_px;    // a rod's
uniform bool u_all_highlighted;  // the culprits' pass: u_lines holds only them
uniform bool u_thin;  // GL_LINES a pixel wide instead of quads (over a cloth's surface)
uniform float u_strain_scale;    // |strain| drawn at full colour; 0: only the sign counts
uniform vec3 u_color_rest, u_color_stretched, u_color_compressed, u_color_rigid,
    u_color_highlight;

flat out vec3 v_color;
out float v_across;       // -1 .. 1 from one edge of the quad to the other
flat out float v_shading; // how much of the cylinder's shading applies (none on thin lines)

const uint kHighlight = 1u, kRigid = 2u;
// a line's end this close to the eye plane (or behind it) is clipped to it (clip-space w)
const float kNearW = 1e-5;
// lines narrower than this many pixels are flat (shading would only dim them); full shading
// from kShadedFrom + kShadingRamp pixels
const float kShadedFrom = 1.5, kShadingRamp = 2.5;
// the corners of a quad: which end (0, 1) and which side (-1, 1), two triangles
const int kEnd[6] = int[6](0, 1, 1, 0, 1, 0);
const float kSide[6] = float[6](-1.0, -1.0, 1.0, -1.0, 1.0, 1.0);

vec3 strainColor(float strain) {
  if (isnan(strain)) return u_color_rest;
  float t = u_strain_scale > 0.0 ? strain / u_strain_scale : sign(strain);
  t = clamp(t, -1.0, 1.0);
  float a = abs(t);
  float s = a * (2.0 - a);  // ease-out
  return t >= 0.0 ? mix(u_color_rest, u_color_stretched, s)
                  : mix(u_color_rest, u_color_compressed, s);
}

vec3 lineColor(uint flags, int line) {
  if ((flags & kHighlight) != 0u) return u_color_highlight;
  if ((flags & kRigid) != 0u) return u_color_rigid;
  return strainColor(texelFetch(u_strain, line).r);
}

vec4 project(int end, int line) {
  int p = 3 * int(texelFetch(u_lines, 2 * line + end).r);
  vec3 x = vec3(texelFetch(u_positions, p).r, texelFetch(u_positions, p + 1).r,
                texelFetch(u_positions, p + 2).r);
  return u_view_proj * vec4(x, 1.0);
}

void main() {
  if (u_thin) {  // GL_LINES: vertex v is end v % 2 of line v / 2, a pixel wide
    int line = gl_VertexID / 2;
    gl_Position = project(gl_VertexID % 2, line);
    uint flags = u_all_highlighted ? kHighlight : texelFetch(u_line_flags, line).r;
    v_color = lineColor(flags, line), v_across = 0.0, v_shading = 0.0;
    return;
  }
  int line = gl_VertexID / 6, corner = gl_VertexID % 6;
  vec4 a = project(0, line), b = project(1, line);
  // an end behind the eye is moved along the line to the eye plane; both behind: nothing
  if (a.w < kNearW && b.w < kNearW) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the view, a degenerate quad
    v_color = vec3(0.0), v_across = 0.0, v_shading = 0.0;
    return;
  }
  if (a.w < kNearW) a = mix(a, b, (kNearW - a.w) / (b.w - a.w));
  if (b.w < kNearW) b = mix(b, a, (kNearW - b.w) / (a.w - b.w));
  uint flags = u_all_highlighted ? kHighlight : texelFetch(u_line_flags, line).r;
  bool rigid = (flags & kRigid) != 0u;
  float width = rigid ? u_rod_width_px : u_width_px;
  // the segment in pixels; a point-like one gets a square around it
  vec2 pa = a.xy / a.w * 0.5 * u_viewport, pb = b.xy / b.w * 0.5 * u_viewport;
  vec2 d = pb - pa;
  float len = length(d);
  vec2 along = len > 1e-6 ? d / len : vec2(1.0, 0.0);
  vec2 across = vec2(-along.y, along.x);
  int end = kEnd[corner];
  float side = kSide[corner];
  vec4 c = end == 0 ? a : b;
  vec2 offset = 0.5 * width * (side * across + (end == 0 ? -along : along));
  gl_Position = c + vec4(offset / (0.5 * u_viewport) * c.w, 0.0, 0.0);
  v_across = side;
  v_shading = clamp((width - kShadedFrom) / kShadingRamp, 0.0, 1.0);
  v_color = lineColor(flags, line);
}
