#include "gfx/colormap.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope::gfx {

namespace {

struct Linear {
    double r, g, b;
};

// OKLab (lightness L, opponent axes a and b) to linear sRGB, from the matrices
// that define OKLab (Ottosson, 2020).
Linear oklabToLinear(double L, double a, double b) {
    const double l = std::pow(L + 0.3963377774 * a + 0.2158037573 * b, 3.0);
    const double m = std::pow(L - 0.1055613458 * a - 0.0638541728 * b, 3.0);
    const double s = std::pow(L - 0.0894841775 * a - 1.2914855480 * b, 3.0);
    return {4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
            -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
            -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s};
}

// Lightness, chroma (colourfulness) and hue in degrees: OKLab in polar form.
Linear oklchToLinear(double L, double C, double hueDegrees) {
    const double h = hueDegrees * 3.14159265358979323846 / 180.0;
    return oklabToLinear(L, C * std::cos(h), C * std::sin(h));
}

bool displayable(const Linear& c) {
    return c.r >= 0 && c.r <= 1 && c.g >= 0 && c.g <= 1 && c.b >= 0 && c.b <= 1;
}

// The most colourful chroma a screen can show at this lightness and hue: the
// maps ask for a chroma and get at most this, so no colour is clipped (clipping
// would break the even steps).
double maxChroma(double L, double hue) {
    double low = 0.0, high = 0.4;
    for (int i = 0; i < 32; ++i) {
        const double mid = 0.5 * (low + high);
        (displayable(oklchToLinear(L, mid, hue)) ? low : high) = mid;
    }
    return low;
}

std::uint8_t encode(double linear) {
    linear = std::clamp(linear, 0.0, 1.0);
    const double srgb = linear <= 0.0031308 ? 12.92 * linear : 1.055 * std::pow(linear, 1.0 / 2.4) - 0.055;
    return static_cast<std::uint8_t>(std::lround(srgb * 255.0));
}

Rgb8 toRgb8(const Linear& c) {
    return {encode(c.r), encode(c.g), encode(c.b)};
}

// Lightness rises evenly from 0.28 to 0.92 while the hue turns from violet
// through blue, teal and green to yellow; the chroma asked for grows a little
// and is capped where the screen runs out of colour. Neighbouring entries are
// about equally far apart in OKLab (within 25 %), so no band of values looks
// more important than another.
Rgb8 sequential(double t) {
    const double L = 0.28 + 0.64 * t;
    const double hue = 300.0 - 190.0 * t;
    const double chroma = std::min(0.09 + 0.07 * t, maxChroma(L, hue));
    return toRgb8(oklchToLinear(L, chroma, hue));
}

Rgb8 diverging(double t) {
    const double signedT = 2.0 * t - 1.0;  // -1 .. 1, zero in the middle
    const double size = std::abs(signedT);
    const double L = 0.97 - 0.52 * size;            // zero is lightest, both extremes equally dark
    const double hue = signedT < 0 ? 255.0 : 45.0;  // blue against orange: apart for every colour vision
    const double chroma = std::min(0.19 * size, maxChroma(L, hue));
    return toRgb8(oklchToLinear(L, chroma, hue));
}

}  // namespace

Rgb8 colormapColour(ColorMap map, float t) {
    const double clamped = std::clamp(static_cast<double>(t), 0.0, 1.0);
    return map == ColorMap::Sequential ? sequential(clamped) : diverging(clamped);
}

std::array<Rgb8, kColormapSize> colormapTable(ColorMap map) {
    std::array<Rgb8, kColormapSize> table;
    for (int i = 0; i < kColormapSize; ++i)
        table[static_cast<std::size_t>(i)] = colormapColour(map, static_cast<float>(i) / (kColormapSize - 1));
    return table;
}

Rgb8 colourOfValue(ColorMap map, float value, float low, float high) {
    const float span = std::max(high - low, 1e-30f);
    const float t = std::clamp((value - low) / span, 0.0f, 1.0f);
    const float position = t * (kColormapSize - 1);
    const int below = std::min(static_cast<int>(position), kColormapSize - 2);
    const float f = position - static_cast<float>(below);
    const Rgb8 a = colormapColour(map, static_cast<float>(below) / (kColormapSize - 1));
    const Rgb8 b = colormapColour(map, static_cast<float>(below + 1) / (kColormapSize - 1));
    auto mix = [f](std::uint8_t x, std::uint8_t y) {
        return static_cast<std::uint8_t>(std::lround(x + (static_cast<float>(y) - x) * f));
    };
    return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

float luminance(Rgb8 c) {
    auto linear = [](std::uint8_t v) {
        const double s = v / 255.0;
        return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
    };
    return static_cast<float>(0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b));
}

}  // namespace tilescope::gfx
