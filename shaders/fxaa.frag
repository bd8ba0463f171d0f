#version 330 core
// Post-process anti-aliasing for a single-sample target (Framebuffer::endScene): FXAA in its
// small form (after Lottes' FXAA 3 "console" variant). The luma of four diagonal neighbours gives
// the edge's direction; two or four bilinear taps along it blend across the edge; the wider
// blend is kept unless it leaves the local luma range (then it crossed a second edge). Flat
// regions return the pixel untouched, which keeps the pass cheap on a software rasteriser.
uniform sampler2D u_scene;
uniform vec2 u_texel;  // 1 / size, pixels

out vec4 frag_color;

// no blending below this local contrast (absolute, and relative to the brightest neighbour):
// the background's dither and the cloth's faint checker stay as they are
const float kEdgeMin = 1.0 / 24.0, kEdgeRelative = 1.0 / 8.0;
// direction estimate: a floor on the divisor (noise in dark areas) and the longest blend, pixels
const float kReduceMin = 1.0 / 128.0, kReduceMul = 1.0 / 8.0, kSpanMax = 8.0;

float luma(vec3 c) { return dot(c, vec3(0.299, 0.587, 0.114)); }

void main() {
  vec2 uv = gl_FragCoord.xy * u_texel;
  vec4 centre = texture(u_scene, uv);
  float lNW = luma(texture(u_scene, uv + vec2(-0.5, 0.5) * u_texel).rgb);
  float lNE = luma(texture(u_scene, uv + vec2(0.5, 0.5) * u_texel).rgb);
  float lSW = luma(texture(u_scene, uv + vec2(-0.5, -0.5) * u_texel).rgb);
  float lSE = luma(texture(u_scene, uv + vec2(0.5, -0.5) * u_texel).rgb);
  float lM = luma(centre.rgb);
  float lMin = min(lM, min(min(lNW, lNE), min(lSW, lSE)));
  float lMax = max(lM, max(max(lNW, lNE), max(lSW, lSE)));
  if (lMax - lMin < max(kEdgeMin, lMax * kEdgeRelative)) {
    frag_color = vec4(centre.rgb, 1.0);
    return;
  }
  vec2 dir = vec2(-((lNW + lNE) - (lSW + lSE)), (lNW + lSW) - (lNE + lSE));
  float reduce = max((lNW + lNE + lSW + lSE) * 0.25 * kReduceMul, kReduceMin);
  float scale = 1.0 / (min(abs(dir.x), abs(dir.y)) + reduce);
  dir = clamp(dir * scale, vec2(-kSpanMax), vec2(kSpanMax)) * u_texel;
  vec3 a = 0.5 * (texture(u_scene, uv + dir * (1.0 / 3.0 - 0.5)).rgb +
                  texture(u_scene, uv + dir * (2.0 / 3.0 - 0.5)).rgb);
  vec3 b = 0.5 * a + 0.25 * (texture(u_scene, uv - 0.5 * dir).rgb +
                             texture(u_scene, uv + 0.5 * dir).rgb);
  float lB = luma(b);
  frag_color = vec4((lB < lMin || lB > lMax) ? a : b, 1.0);
}
