#version 330 core
// Two-sided lighting: a headlight plus ambient, the back face in its own colour, and a faint
// checker over the material coordinates so that the cloth's motion and folds read.
in vec3 v_normal;
in vec3 v_position;
in vec2 v_uv;

uniform vec3 u_color_front;
uniform vec3 u_color_back;
uniform bool u_orthographic;
uniform float u_checker_squares;  // across one unit of uv; 0: no checker (and the wireframe)

out vec4 frag_color;
// a ghosted lane (docs/lab.md#lanes): mixed toward the lane's colour, translucent
uniform vec4 u_tint;
uniform float u_opacity;
// A ghost's surface is not filled, which would tint lane 0 under it (docs/lab.md#lanes): u_ghost_net
// > 0 draws it as a net, lines along every 1/u_ghost_net of its material coordinates (its edges
// among them); < 0 (no material coordinates) as its outline, where it turns away from the eye.
// 0: filled.
uniform float u_ghost_net;
const float kNetHalfWidthPx = 1.0;          // the net's lines are 2 pixels wide
const float kRimStart = 0.55, kRimFull = 0.85;  // 1 - |n . eye| where the outline begins, is full

const vec3 kLight = vec3(-0.3, 0.45, 0.84);  // view space, near the headlight
// ambient share (folds facing away stay readable), specular exponent and strength (a faint
// sheen: cloth is not glossy)
const float kAmbient = 0.30, kSpecular = 0.08;  // and kShininess 24, in main()
// the dark squares are this much darker: enough to see motion, not enough to read as a pattern
// competing with the shading
const float kCheckerDepth = 0.14;

// 1 on the dark squares, 0 on the light ones, box-filtered over the pixel's footprint (fwidth)
// so that far or grazing squares fade to grey instead of aliasing into moire
float checker(vec2 p) {
  vec2 w = max(fwidth(p), vec2(1e-4));
  vec2 i = 2.0 * (abs(fract((p - 0.5 * w) * 0.5) - 0.5) - abs(fract((p + 0.5 * w) * 0.5) - 0.5)) / w;
  return 0.5 - 0.5 * i.x * i.y;
}

void main() {
  vec3 n = v_normal;
  float len = length(n);
  n = len > 0.0 ? n / len : vec3(0.0, 0.0, 1.0);
  vec3 base = u_color_front;
  if (!gl_FrontFacing) {
    n = -n;
    base = u_color_back;
  }
  if (u_checker_squares > 0.0) base *= 1.0 - kCheckerDepth * checker(v_uv * u_checker_squares);
  vec3 to_eye = u_orthographic ? vec3(0.0, 0.0, 1.0) : normalize(-v_position);
  vec3 l = normalize(kLight);
  // a normal facing away from the eye (interpolation on a fold) is lit as if facing it
  if (dot(n, to_eye) < 0.0) n = reflect(n, to_eye);
  float diffuse = max(dot(n, l), 0.0);
  vec3 h = normalize(l + to_eye);
  // x^24 by squaring (kShininess): pow() is exp2(24 log2 x), several times dearer on a software
  // rasteriser, for the same value
  float s2 = max(dot(n, h), 0.0);
  s2 *= s2;
  float s8 = s2 * s2;
  s8 *= s8;
  float spec = s8 * s8 * s8;
  vec3 color = base * (kAmbient + (1.0 - kAmbient) * diffuse) + vec3(kSpecular * spec);
  if (u_ghost_net != 0.0) {
    float coverage;
    if (u_ghost_net > 0.0) {
      vec2 g = v_uv * u_ghost_net;
      vec2 px = abs(fract(g + 0.5) - 0.5) / max(fwidth(g), vec2(1e-6));
      coverage = clamp(kNetHalfWidthPx + 0.5 - min(px.x, px.y), 0.0, 1.0);
    } else {
      coverage = smoothstep(kRimStart, kRimFull, 1.0 - abs(dot(n, to_eye)));
    }
    if (coverage <= 0.0) discard;
    // opaque where drawn: a thin line in the lane's colour reads, a translucent one muddies
    frag_color = vec4(mix(color, u_tint.rgb, u_tint.a), coverage);
    return;
  }
  frag_color = vec4(mix(color, u_tint.rgb, u_tint.a), u_opacity);
}
