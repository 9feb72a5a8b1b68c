#include "ui/lesson_draw.hpp"

#include <algorithm>
#include <cmath>

#include "model/lesson_player.hpp"
#include "ui/layout_probe.hpp"
#include "ui/theme.hpp"

namespace tilescope::ui {

namespace {

std::string cellText(const Cell& c) {
    return std::to_string(c[0]) + "," + std::to_string(c[1]);
}

void brackets(ImDrawList* draw, ImVec2 a, ImVec2 b, float arm, ImU32 colour, float thickness) {
    const float h = thickness * 0.5f;
    a = {a.x + h, a.y + h};
    b = {b.x - h, b.y - h};
    // Each corner: an L of two arms.
    const ImVec2 corners[4] = {a, {b.x, a.y}, b, {a.x, b.y}};
    const float dx[4] = {1, -1, -1, 1}, dy[4] = {1, 1, -1, -1};
    for (int i = 0; i < 4; ++i) {
        const ImVec2 c = corners[i];
        const ImVec2 pts[3] = {{c.x + dx[i] * arm, c.y}, c, {c.x, c.y + dy[i] * arm}};
        draw->AddPolyline(pts, 3, colour, thickness, ImDrawFlags_JoinMiter);
    }
}

}  // namespace

void pointerBrackets(ImDrawList* draw, const Theme& theme, ImVec2 a, ImVec2 b, int layer) {
    const float size = std::min(b.x - a.x, b.y - a.y);
    const float thick = std::clamp(size * 0.09f, 2.0f, std::max(2.0f, theme.lineWidth * 3.0f));
    const float arm = size * 0.3f;
    if (layer != 2)
        brackets(draw, a, b, arm, theme.palette.pointerCasing, thick * 2.0f);
    if (layer != 1)
        brackets(draw, a, b, arm, theme.palette.pointer, thick);
}

void drawLessonCellMarks(ImDrawList* draw, const Theme& theme, LayoutProbe& probe, const std::string& prefix,
                         const LessonMarks& marks, const std::function<void(int, int, ImVec2&, ImVec2&)>& cellRect) {
    const Palette& palette = theme.palette;
    // Casings first, then the brackets: a neighbour's casing never covers a bracket.
    for (int layer = 1; layer <= 2; ++layer) {
        int k = 0;
        for (const Cell& c : marks.cells) {
            ImVec2 a, b;
            cellRect(c[0], c[1], a, b);
            pointerBrackets(draw, theme, a, b, layer);
            if (layer == 2)
                probe.record(prefix + ".point." + std::to_string(k++), a, b, cellText(c));
        }
    }
    auto outline = [&](const Cell& c, ImU32 colour, const char* name, int index, bool cross, bool dashed) {
        ImVec2 a, b;
        cellRect(c[0], c[1], a, b);
        const float size = std::min(b.x - a.x, b.y - a.y);
        const float thick = std::clamp(size * 0.12f, 2.0f, std::max(2.0f, theme.lineWidth * 3.5f));
        const float in = thick * 0.5f;
        const ImVec2 p{a.x + in, a.y + in}, q{b.x - in, b.y - in};
        if (dashed) {
            // Four short dashes per side.
            for (int side = 0; side < 4; ++side)
                for (int d = 0; d < 4; ++d) {
                    const float t0 = (static_cast<float>(d) + 0.15f) / 4.0f, t1 = (static_cast<float>(d) + 0.65f) / 4.0f;
                    ImVec2 u, v;
                    switch (side) {
                        case 0: u = {p.x + (q.x - p.x) * t0, p.y}; v = {p.x + (q.x - p.x) * t1, p.y}; break;
                        case 1: u = {q.x, p.y + (q.y - p.y) * t0}; v = {q.x, p.y + (q.y - p.y) * t1}; break;
                        case 2: u = {p.x + (q.x - p.x) * t0, q.y}; v = {p.x + (q.x - p.x) * t1, q.y}; break;
                        default: u = {p.x, p.y + (q.y - p.y) * t0}; v = {p.x, p.y + (q.y - p.y) * t1}; break;
                    }
                    draw->AddLine(u, v, colour, thick);
                }
        } else {
            draw->AddRect(p, q, palette.pointerCasing, 0.0f, thick * 1.6f);
            draw->AddRect(p, q, colour, 0.0f, thick);
        }
        if (cross) {
            draw->AddLine(p, q, colour, thick);
            draw->AddLine({p.x, q.y}, {q.x, p.y}, colour, thick);
        }
        probe.record(prefix + "." + name + "." + std::to_string(index), a, b, cellText(c));
    };
    if (marks.grade) {
        int i = 0;
        for (const Cell& c : marks.grade->hit)
            outline(c, palette.answerRight, "right", i++, false, false);
        i = 0;
        for (const Cell& c : marks.grade->wrong)
            outline(c, palette.answerWrong, "wrong", i++, true, false);
        i = 0;
        for (const Cell& c : marks.grade->missed)
            outline(c, palette.answerMissed, "missed", i++, false, true);
    } else if (marks.expected && marks.expected->byCells) {
        // Revealed without an answer given: the cells, outlined.
        int i = 0;
        for (const Cell& c : marks.expected->cells)
            outline(c, palette.answerRight, "right", i++, false, false);
    } else {
        int i = 0;
        for (const Cell& c : marks.picked)
            outline(c, palette.pointer, "picked", i++, false, false);
    }
}

}  // namespace tilescope::ui
