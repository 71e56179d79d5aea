// glevo-demo text layer: the overlay texture (cairo's rows, top row first) over the window,
// texel for texel; blended by the caller as premultiplied alpha.
uniform sampler2D t_overlay;
out vec4 o_colour;
void main() {
    ivec2 size = textureSize(t_overlay, 0);
    ivec2 p = ivec2(gl_FragCoord.xy);
    o_colour = texelFetch(t_overlay, ivec2(p.x, size.y - 1 - p.y), 0);
}
