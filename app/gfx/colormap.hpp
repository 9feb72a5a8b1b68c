// The two colour maps of the app, computed here on the CPU (no OpenGL) so that
// the shader, the legend and the tests all use the same 256 colours.
//
// Both are built in OKLab, a colour space in which equal steps look equally
// different. Lightness carries the value: it rises steadily along the
// sequential map and falls away from zero on both sides of the diverging map,
// so the order of values still reads in greyscale, on a washed-out projector,
// and for viewers with any kind of colour blindness. Hue only helps.
#pragma once

#include <array>
#include <cstdint>

namespace tilescope::gfx {

enum class ColorMap {
    Sequential,  // data of one sign: dark violet (low) through teal and green to yellow (high)
    Diverging,   // signed data (Sobel): blue (negative), near-white (zero), orange (positive)
};

struct Rgb8 {
    std::uint8_t r = 0, g = 0, b = 0;
};

inline constexpr int kColormapSize = 256;

// The colour at t in [0, 1] (clamped). Diverging: t = 0.5 is zero.
Rgb8 colormapColour(ColorMap map, float t);

// The table the shader samples: entry i is colormapColour(map, i / 255).
std::array<Rgb8, kColormapSize> colormapTable(ColorMap map);

// What the shader draws for `value` on [low, high]: the table sampled with
// linear interpolation between neighbouring entries, as the GPU does.
Rgb8 colourOfValue(ColorMap map, float value, float low, float high);

// Relative luminance (0 black, 1 white) of an sRGB colour, to choose black or
// white text over it.
float luminance(Rgb8 colour);

}  // namespace tilescope::gfx
