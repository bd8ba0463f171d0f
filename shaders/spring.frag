#version 330 core
// A spring's or rod's colour (decided in spring.vert), shaded across its width like a lit
// cylinder seen side on: full colour along its middle, darker toward its edges.
flat in vec3 v_color;
in float v_across;
flat in float v_shading;
out vec4 frag_color;

// a ghosted lane (docs/lab.md#lanes): its colour mixed toward the lane's by u_tint.a, and drawn
// translucent (u_opacity < 1, blended)
uniform vec4 u_tint;
uniform float u_opacity;

// the edges' brightness relative to the middle: dark enough to read as round, light enough that
// the strain colour stays readable across the whole width
const float kEdgeBrightness = 0.55;

void main() {
  float c = sqrt(max(1.0 - v_across * v_across, 0.0));  // cos of the angle to the eye
  float brightness = mix(1.0, mix(kEdgeBrightness, 1.0, c), v_shading);
  frag_color = vec4(mix(v_color * brightness, u_tint.rgb, u_tint.a), u_opacity);
}
