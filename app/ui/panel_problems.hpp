// The Problems panel: what the problem detector found in the step-through
// trace (trace/problems.hpp), grouped by kind with the count of each, one line
// of words per problem. Clicking a problem jumps to it: its block, the thread
// of its second access, the step just after both accesses; the other views
// then mark it (the element outlined, an arrow from the first access's thread
// to the second's, the wrong outputs outlined). A clean trace says so in one
// line, and says what "clean" covers.
//
// It draws from the trace session alone (with the theme, and the layout probe
// for tests), not from the whole App.
#pragma once

#include <imgui.h>

#include <cstddef>
#include <optional>

#include "ui/panel.hpp"

namespace tilescope::ui {

class TraceSession;
class LayoutProbe;
struct Theme;

class ProblemsPanel : public Panel {
public:
    ProblemsPanel(PanelContext context, TraceSession& session)
        : m_session(session), m_theme(context.theme), m_probe(context.probe) {}
    void draw(bool* open) override;

private:
    void drawKind(int kind, std::size_t begin, std::size_t end);

    TraceSession& m_session;
    const Theme& m_theme;
    LayoutProbe& m_probe;
    std::optional<std::size_t> m_shownSelection;  // scroll to a selection made elsewhere (--problem)
};

}  // namespace tilescope::ui
