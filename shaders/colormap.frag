#version 330 core
// Turns float data (one texel per array element) into colours.
//
// The viewport is exactly the data's size, so each fragment is one element and
// reads it with texelFetch: no filtering ever mixes two elements, and what the
// screen shows is the value itself, not an interpolation.
//
// Colour-mapped mode: the element's first channel is placed on [u_low, u_high]
// and looked up in a 256-entry colour map (u_colormap). A sequential map for
// data of one sign, a diverging map centred on 0 for signed data (the caller
// passes u_low = -u_high so that zero lands on the map's neutral middle).
// RGB mode (images with three channels): each channel placed on the same range
// and shown as it is.

uniform sampler2D u_values;    // R32F or RGB32F
uniform sampler2D u_colormap;  // 256 x 1, RGBA8
uniform float u_low;
uniform float u_high;
uniform int u_rgb;             // 1: show the three channels as colour

out vec4 o_colour;

void main() {
    vec3 value = texelFetch(u_values, ivec2(gl_FragCoord.xy), 0).rgb;
    float span = max(u_high - u_low, 1e-30);
    if (u_rgb == 1) {
        o_colour = vec4(clamp((value - u_low) / span, 0.0, 1.0), 1.0);
        return;
    }
    float t = clamp((value.r - u_low) / span, 0.0, 1.0);
    // Texel centres of the 256-entry map lie at (i + 0.5) / 256.
    o_colour = vec4(texture(u_colormap, vec2((0.5 + t * 255.0) / 256.0, 0.5)).rgb, 1.0);
}
