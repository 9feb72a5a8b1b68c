// How the step-through views draw a lesson's marks (lesson_player.hpp): the
// cells or threads a step points at, and a revealed answer's cells.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>

namespace tilescope::ui {

struct Theme;
struct LessonMarks;
class LayoutProbe;

// Corner brackets just inside the cell [a, b): black on a white casing in
// lecture mode (white on black otherwise), thick enough for the back row.
// `layer`: 1 the casing only, 2 the brackets only, 0 both.
void pointerBrackets(ImDrawList* draw, const Theme& theme, ImVec2 a, ImVec2 b, int layer = 0);

// Every mark of the lesson on a grid of cells; `cellRect(x, y, min, max)`
// gives a cell's place. Picked cells (an answer being given) are outlined;
// once revealed, right cells are outlined, wrong ones crossed, missed ones
// dashed. Each mark goes to the probe as "<prefix>.point.K",
// "<prefix>.picked.K", "<prefix>.right.K", "<prefix>.wrong.K", "<prefix>.missed.K"
// with the cell's coordinates as its text.
void drawLessonCellMarks(ImDrawList* draw, const Theme& theme, LayoutProbe& probe, const std::string& prefix,
                         const LessonMarks& marks, const std::function<void(int, int, ImVec2&, ImVec2&)>& cellRect);

}  // namespace tilescope::ui
