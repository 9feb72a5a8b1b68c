// The lesson bar: across the top of the window while a lesson plays. The
// lesson and the step ("step 4 of 18"), the caption in large type, and the
// step's question: a field for a number (or the output array), or, for a
// question answered by cells, a count of the cells clicked on the grid view;
// then Check, which reveals the answer the trace gives, what was right and
// what was wrong. Back, Next and End; the keys a presenter's clicker sends
// (Page Down / Page Up, the arrows) do the same.
//
// It draws from the lesson player alone (with the theme and the layout probe).
#pragma once

namespace tilescope::ui {

class LessonPlayer;
class LayoutProbe;
struct Theme;

class LessonPanel {
public:
    LessonPanel(LessonPlayer& player, const Theme& theme, LayoutProbe& probe)
        : m_player(player), m_theme(theme), m_probe(probe) {}
    // At the given place and width; its height follows its content.
    void draw(float x, float y, float width);
    // Its height in the last frame (0 before the first), for the layout below it.
    float height() const { return m_height; }

private:
    LessonPlayer& m_player;
    const Theme& m_theme;
    LayoutProbe& m_probe;
    float m_height = 0.0f;
    bool m_focusField = false;
};

}  // namespace tilescope::ui
