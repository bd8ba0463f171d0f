#version 330 core
// One colour per line, decided in spring.vert.
flat in vec3 v_color;
out vec4 frag_color;

// a ghosted lane (docs/lab.md#lanes): its colour mixed toward the lane's by u_tint.a, and drawn
// translucent (u_opacity < 1, blended)
uniform vec4 u_tint;
uniform float u_opacity;

void main() { frag_color = vec4(mix(v_color, u_tint.rgb, u_tint.a), u_opacity); }
