// The thread view: every thread of the selected block as a cell coloured by
// its state at the cursor (loading, computing, switched off for the output,
// idle, at a barrier, done; idle lanes of the last warp hatched), warps
// outlined. A click selects a thread. In compare mode, each kernel's block,
// one above the other. The two threads of the problem selected in the
// Problems panel are ringed, with an arrow from the first access's thread to
// the second's.
#pragma once

#include <array>
#include <vector>

#include "ui/cell_picture.hpp"
#include "ui/panel.hpp"

namespace tilescope::ui {

class TraceSession;
class LessonPlayer;

class ThreadsPanel : public Panel {
public:
    ThreadsPanel(PanelContext context, TraceSession& session, const LessonPlayer& lessons)
        : m_context(context), m_session(session), m_lessons(lessons) {}
    void draw(bool* open) override;

private:
    // Run i's block in `height` pixels; notes the states it drew in `seen`.
    void drawRun(int i, float height, bool (&seen)[16]);

    PanelContext m_context;
    TraceSession& m_session;
    const LessonPlayer& m_lessons;  // the threads a lesson's step points at
    bool m_problemShown = false;  // this frame: the selected problem's threads are marked
    std::array<CellPicture, 2> m_pictures;  // each run's threads
    std::vector<CellLook> m_looks;          // this frame's, kept to spare an allocation a frame
};

}  // namespace tilescope::ui
