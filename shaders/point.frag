#version 330 core
// Shades a sphere inside the point sprite and writes its true depth, so that spheres and lines
// occlude each other correctly. Fixed points are drawn as dark square pins with a light rim.
// The alpha is the edge coverage: with multisampling the renderer turns it into sample coverage
// (alpha to coverage; the alpha channel itself is not written), so that sprite edges are smooth.
flat in vec3 v_center;
flat in float v_radius;
flat in uint v_flags;
flat in float v_size;

uniform mat4 u_proj;
uniform vec3 u_color_moving;
uniform vec3 u_color_fixed;
uniform vec3 u_color_highlight;
uniform vec3 u_color_grabbed;

out vec4 frag_color;

const uint kFixed = 1u, kHighlight = 2u, kGrabbed = 4u;
const vec3 kLight = vec3(-0.3, 0.45, 0.84);  // view space, near the headlight

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  p.y = -p.y;  // gl_PointCoord grows downwards
  float r2 = dot(p, p);
  bool fixed_point = (v_flags & kFixed) != 0u;
  vec3 base = u_color_moving;
  if (fixed_point) base = u_color_fixed;
  if ((v_flags & kGrabbed) != 0u) base = u_color_grabbed;
  if ((v_flags & kHighlight) != 0u) base = u_color_highlight;

  vec3 n;
  vec3 color;
  float coverage;
  if (fixed_point) {
    // a square pin: a flat face with a bevelled light rim
    float edge = max(abs(p.x), abs(p.y));
    if (edge > 0.92) discard;
    coverage = clamp((0.92 - edge) * 0.5 * v_size, 0.0, 1.0);
    n = normalize(vec3(p * 0.35, 1.0));
    float rim = smoothstep(0.62, 0.70, edge);
    vec3 face = base * (0.55 + 0.45 * max(dot(n, normalize(kLight)), 0.0));
    color = mix(face, vec3(0.86), rim);
    n = vec3(0.0, 0.0, 1.0);
  } else {
    if (r2 > 1.0) discard;
    coverage = clamp((1.0 - sqrt(r2)) * 0.5 * v_size, 0.0, 1.0);
    n = vec3(p, sqrt(1.0 - r2));
    vec3 l = normalize(kLight);
    float diffuse = max(dot(n, l), 0.0);
    vec3 h = normalize(l + vec3(0.0, 0.0, 1.0));
    float spec = pow(max(dot(n, h), 0.0), 40.0);
    color = base * (0.28 + 0.72 * diffuse) + vec3(0.35 * spec);
    // a thin darker outline separates touching spheres
    color *= mix(1.0, 0.7, smoothstep(0.85, 1.0, r2));
  }

  vec4 clip = u_proj * vec4(v_center + n * v_radius, 1.0);
  gl_FragDepth = clamp(0.5 * (clip.z / clip.w) + 0.5, 0.0, 1.0);
  frag_color = vec4(color, coverage);
}
