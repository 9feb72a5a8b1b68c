// The Class panel: a graded class (class.json, as `tilescope grade` writes
// it), for the teacher. A summary line (how many graded, did not compile,
// were refused or failed; the mean and median score), the score histogram,
// the patterns most students first ("31 of 120 submissions: shared race,
// ..."), and one row per submission: the student, the score, the status, and
// a pass or fail mark per case in words and shapes (never colour alone).
// A click on a pattern shows only the submissions that have it (again, or
// "Show all", shows them all); a click on a row opens that student's kernel
// file in the editor, set up for the case of its first problem, and the
// step-through goes to that problem.
//
// The panel knows only its ClassView and the callbacks below; who reads the
// file and opens the kernel (the App) is none of its business.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "model/class_results.hpp"
#include "model/live_class.hpp"
#include "ui/panel.hpp"

namespace tilescope::ui {

struct ClassCallbacks {
    std::function<void(const std::string&)> open;     // a class.json, or a results folder holding one
    std::function<void(std::size_t)> openSubmission;  // index into results->submissions
    std::function<void(std::size_t)> openLiveStudent;  // index into live->students: their latest kernel
    std::function<void()> classNow;                    // the projector's layout of the class now
};

class ClassPanel : public Panel {
public:
    ClassPanel(PanelContext context, ClassView& view, ClassCallbacks callbacks)
        : m_view(view),
          m_theme(context.theme),
          m_probe(context.probe),
          m_legend(context.legend),
          m_callbacks(std::move(callbacks)) {}
    void draw(bool* open) override;
    // A screenshot of the live class waits for the server's first answer.
    bool settled() const override { return !m_view.liveWaiting; }

private:
    // The class now, from a server (panel_class_live.cpp).
    void drawLive();
    void drawLiveHistogram(const LiveSummary& summary, float height);
    void drawLivePatterns(const LiveClass& live, const std::vector<LivePattern>& patterns);
    void drawLiveStudents(const LiveClass& live, const std::vector<std::size_t>& rows, int columns, int tileLines);
    void drawPathField();
    void drawSummary(const ClassResults& results);
    void drawHistogram(const ClassResults& results, float height);
    void drawPatterns(const ClassResults& results, float height);
    void drawRows(const ClassResults& results);

    ClassView& m_view;
    const Theme& m_theme;
    LayoutProbe& m_probe;
    LegendPanel& m_legend;
    ClassCallbacks m_callbacks;
    float m_plotHeight = 0.0f;                // the histogram's plot area in the last frame
    std::optional<std::size_t> m_scrolledTo;  // the opened row the table was last scrolled to
};

}  // namespace tilescope::ui
