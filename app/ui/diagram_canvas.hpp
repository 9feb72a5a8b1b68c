// The surface a diagram is drawn on: an ImGui draw list on screen, SVG
// elements in an export (grid_svg.cpp). The grid view's picture
// (grid_diagram.hpp) and the marks every step-through view draws
// (trace_draw.hpp) go through it, so they look the same on either.
#pragma once

#include <imgui.h>

#include <functional>

#include "ui/theme.hpp"

namespace tilescope::ui {

// Rectangles, lines, circles and text in screen units (y down), colours as ImGui packs them.
class DiagramCanvas {
public:
    virtual ~DiagramCanvas() = default;
    // The base: cells x0 <= x < x1, y0 <= y < y1 of the array, cell (x0, y0)
    // at a and cell (x1 - 1, y1 - 1) ending at b, each in colourOf(x, y).
    virtual void cells(ImVec2 a, ImVec2 b, int x0, int y0, int x1, int y1,
                       const std::function<ImU32(int, int)>& colourOf) = 0;
    virtual void rect(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) = 0;
    virtual void rectFilled(ImVec2 a, ImVec2 b, ImU32 colour) = 0;
    virtual void line(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) = 0;
    virtual void circle(ImVec2 centre, float radius, ImU32 colour, float thickness) = 0;
    // Text in the mono font, `size` units high, its top-left corner at `at`.
    virtual ImVec2 textSize(float size, const char* text) const = 0;
    virtual void text(ImVec2 at, float size, const char* text, ImU32 colour) = 0;
};

// An ImGui draw list; the base cells are a texture already mapped to colours.
class DrawListCanvas final : public DiagramCanvas {
public:
    DrawListCanvas(ImDrawList* draw, ImFont* mono, ImTextureID base = ImTextureID{})
        : m_draw(draw), m_mono(mono ? mono : ImGui::GetFont()), m_base(base) {}
    void cells(ImVec2 a, ImVec2 b, int, int, int, int, const std::function<ImU32(int, int)>&) override;
    void rect(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) override;
    void rectFilled(ImVec2 a, ImVec2 b, ImU32 colour) override;
    void line(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) override;
    void circle(ImVec2 centre, float radius, ImU32 colour, float thickness) override;
    ImVec2 textSize(float size, const char* text) const override;
    void text(ImVec2 at, float size, const char* text, ImU32 colour) override;

private:
    ImDrawList* m_draw;
    ImFont* m_mono;
    ImTextureID m_base;
};

// `text` centred in the cell [a, b], at most `fontSize` high, when it fits.
void cellLabel(DiagramCanvas& canvas, float fontSize, ImVec2 a, ImVec2 b, const char* text, ImU32 colour);
// The problem outline of trace_draw.hpp, on any canvas.
void problemOutline(DiagramCanvas& canvas, const Theme& theme, ImVec2 a, ImVec2 b, ImU32 colour, float thickness);

}  // namespace tilescope::ui
