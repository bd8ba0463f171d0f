#version 330 core
// Post-process anti-aliasing for a single-sample target (Framebuffer::endScene), FXAA-like and
// pared down for software GL, where every texture fetch costs (llvmpipe, 2 cores, 1280x720, on
// top of a 6.4 ms scene: this pass 10.7 ms, Lottes' FXAA 3 "console" form with its nine bilinear
// taps about twice that, 4x MSAA 15 ms, 2x2 supersampling 14 ms before its downsample; see
// docs/architecture.md). The centre and its four neighbours (exact fetches) give the
// local contrast; below a threshold the pixel is kept. On an edge, the luma gradient gives the
// edge's direction and two bilinear taps a pixel along it, either side, are blended with the
// centre: a staircase's steps average into the line they approximate.
uniform sampler2D u_scene;
uniform vec2 u_texel;  // 1 / size, pixels

out vec4 frag_color;

// no blending below this local contrast (absolute, and relative to the brightest neighbour): the
// background's dither and the cloth's faint checker stay as they are
const float kEdgeMin = 1.0 / 24.0, kEdgeRelative = 1.0 / 8.0;
const float kBlend = 0.5;  // share of the taps along the edge in an edge pixel
const float kTiny = 1e-6;  // keeps normalize() away from a zero gradient

float luma(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec3 m = texelFetch(u_scene, p, 0).rgb;
  float lN = luma(texelFetch(u_scene, p + ivec2(0, 1), 0).rgb);
  float lS = luma(texelFetch(u_scene, p + ivec2(0, -1), 0).rgb);
  float lE = luma(texelFetch(u_scene, p + ivec2(1, 0), 0).rgb);
  float lW = luma(texelFetch(u_scene, p + ivec2(-1, 0), 0).rgb);
  float lM = luma(m);
  float lMin = min(lM, min(min(lN, lS), min(lE, lW)));
  float lMax = max(lM, max(max(lN, lS), max(lE, lW)));
  if (lMax - lMin < max(kEdgeMin, lMax * kEdgeRelative)) {
    frag_color = vec4(m, 1.0);
    return;
  }
  vec2 across = vec2(lE - lW, lN - lS);
  vec2 along = normalize(vec2(-across.y, across.x) + kTiny);
  vec2 uv = gl_FragCoord.xy * u_texel;
  vec3 a = 0.5 * (texture(u_scene, uv + along * u_texel).rgb +
                  texture(u_scene, uv - along * u_texel).rgb);
  frag_color = vec4(mix(m, a, kBlend), 1.0);
}
