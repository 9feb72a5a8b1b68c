// A small SVG document: rectangles, lines, circles and text in user units
// (y down), for the grid diagram's vector export. Colours are 8-bit RGBA.
// Knows nothing of the app: ui/grid_svg.cpp draws the diagram into it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace tilescope::exports {

struct Rgba {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
};

class SvgDocument {
public:
    // A picture of width x height units; `attributes` go on the <svg> element as they are
    // (data-* attributes that describe it to other programs).
    SvgDocument(double width, double height, std::string attributes = {});

    void rect(double x, double y, double width, double height, Rgba fill);
    // An outline of `thickness` centred on the rectangle's edge.
    void rectOutline(double x, double y, double width, double height, Rgba stroke, double thickness);
    void line(double x0, double y0, double x1, double y1, Rgba stroke, double thickness);
    void circle(double cx, double cy, double radius, Rgba stroke, double thickness);
    // `text` with its baseline's left end at (x, y); mono: a monospaced face, else a sans-serif one.
    void text(double x, double y, double size, std::string_view text, Rgba fill, bool mono = false, bool bold = false);
    // Everything drawn between begin and end is clipped to the rectangle.
    void beginClip(double x, double y, double width, double height);
    void endClip();
    void comment(std::string_view text);

    std::string str() const;
    // Written atomically: a failure leaves no partial file.
    Status write(const std::filesystem::path& path) const;

private:
    double m_width, m_height;
    std::string m_attributes;
    std::string m_defs;
    std::string m_body;
    int m_clips = 0;
};

// The text with &, <, > and quotes escaped for XML.
std::string xmlEscape(std::string_view text);

}  // namespace tilescope::exports
