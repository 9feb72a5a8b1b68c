#include "ui/diagram_canvas.hpp"

#include <algorithm>

#include "ui/widgets.hpp"

namespace tilescope::ui {

// [SECTION] The draw-list canvas

void DrawListCanvas::cells(ImVec2 a, ImVec2 b, int, int, int, int, const std::function<ImU32(int, int)>&) {
    if (m_base) {
        // Our textures keep their own (nearest) filtering: one cell, one colour.
        beginOwnTextureFiltering(m_draw);
        m_draw->AddImage(m_base, a, b);
        endOwnTextureFiltering(m_draw);
    }
}

void DrawListCanvas::rect(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) {
    m_draw->AddRect(a, b, colour, 0.0f, thickness);
}

void DrawListCanvas::rectFilled(ImVec2 a, ImVec2 b, ImU32 colour) {
    m_draw->AddRectFilled(a, b, colour);
}

void DrawListCanvas::line(ImVec2 a, ImVec2 b, ImU32 colour, float thickness) {
    m_draw->AddLine(a, b, colour, thickness);
}

void DrawListCanvas::circle(ImVec2 centre, float radius, ImU32 colour, float thickness) {
    m_draw->AddCircle(centre, radius, colour, 0, thickness);
}

ImVec2 DrawListCanvas::textSize(float size, const char* text) const {
    return m_mono->CalcTextSizeA(size, 1e9f, 0.0f, text);
}

void DrawListCanvas::text(ImVec2 at, float size, const char* text, ImU32 colour) {
    m_draw->AddText(m_mono, size, at, colour, text);
}

// [SECTION] Marks every view draws

void cellLabel(DiagramCanvas& canvas, float fontSize, ImVec2 a, ImVec2 b, const char* text, ImU32 colour) {
    const float size = std::min(fontSize, (b.y - a.y) * 0.6f);
    const ImVec2 extent = canvas.textSize(size, text);
    if (extent.x > (b.x - a.x) * 0.92f)
        return;
    canvas.text({(a.x + b.x - extent.x) * 0.5f, (a.y + b.y - extent.y) * 0.5f}, size, text, colour);
}

void problemOutline(DiagramCanvas& canvas, const Theme& theme, ImVec2 a, ImVec2 b, ImU32 colour, float thickness) {
    const float casing = std::max(1.0f, theme.lineWidth);
    const float h = thickness * 0.5f;
    canvas.rect({a.x - h, a.y - h}, {b.x + h, b.y + h}, theme.palette.problemCasing, thickness + 2.0f * casing);
    canvas.rect({a.x - h, a.y - h}, {b.x + h, b.y + h}, colour, thickness);
}

}  // namespace tilescope::ui
