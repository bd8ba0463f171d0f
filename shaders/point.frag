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
// a ghosted lane (docs/lab.md#lanes): mixed toward the lane's colour, translucent
uniform vec4 u_tint;
uniform float u_opacity;

const uint kFixed = 1u, kHighlight = 2u, kGrabbed = 4u;
const vec3 kLight = vec3(-0.3, 0.45, 0.84);  // view space, near the headlight
// sphere shading: ambient share (the unlit side stays readable), specular exponent and strength
const float kAmbient = 0.28, kShininess = 40.0, kSpecular = 0.35;
// a darker outline (down to kOutlineDarken) in the outer ring r^2 > kOutlineFrom separates
// touching spheres
const float kOutlineFrom = 0.85, kOutlineDarken = 0.7;
// the pin: a square of half-size kPinEdge (of the sprite) with a light rim (kPinRim) from
// kRimFrom to kRimTo, the face bevelled by kBevel and lit kPinAmbient + rest diffuse
const float kPinEdge = 0.92, kRimFrom = 0.62, kRimTo = 0.70, kBevel = 0.35, kPinAmbient = 0.55;
const vec3 kPinRim = vec3(0.86);
// edge coverage ramps from 0 to 1 over the outermost pixel: a distance in sprite units (the
// sprite spans -1..1) times size / 2 is a distance in pixels
const float kCoverageRamp = 0.5;

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
    if (edge > kPinEdge) discard;
    coverage = clamp((kPinEdge - edge) * kCoverageRamp * v_size, 0.0, 1.0);
    n = normalize(vec3(p * kBevel, 1.0));
    float rim = smoothstep(kRimFrom, kRimTo, edge);
    vec3 face = base * (kPinAmbient + (1.0 - kPinAmbient) * max(dot(n, normalize(kLight)), 0.0));
    color = mix(face, kPinRim, rim);
    n = vec3(0.0, 0.0, 1.0);
  } else {
    if (r2 > 1.0) discard;
    coverage = clamp((1.0 - sqrt(r2)) * kCoverageRamp * v_size, 0.0, 1.0);
    n = vec3(p, sqrt(1.0 - r2));
    vec3 l = normalize(kLight);
    float diffuse = max(dot(n, l), 0.0);
    vec3 h = normalize(l + vec3(0.0, 0.0, 1.0));
    float spec = pow(max(dot(n, h), 0.0), kShininess);
    color = base * (kAmbient + (1.0 - kAmbient) * diffuse) + vec3(kSpecular * spec);
    color *= mix(1.0, kOutlineDarken, smoothstep(kOutlineFrom, 1.0, r2));
  }

  vec4 clip = u_proj * vec4(v_center + n * v_radius, 1.0);
  gl_FragDepth = clamp(0.5 * (clip.z / clip.w) + 0.5, 0.0, 1.0);
  frag_color = vec4(mix(color, u_tint.rgb, u_tint.a), coverage * u_opacity);
}
