// The output view: P as the selected block has written it up to the cursor.
#pragma once

#include "ui/panel.hpp"

namespace tilescope::ui {

class TraceSession;

class OutputPanel : public Panel {
public:
    OutputPanel(PanelContext context, TraceSession& session) : m_context(context), m_session(session) {}
    void draw(bool* open) override;

private:
    PanelContext m_context;
    TraceSession& m_session;
};

}  // namespace tilescope::ui
