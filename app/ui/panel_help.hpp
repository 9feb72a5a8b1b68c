// The help overlay: the keyboard shortcuts, over everything, until F1 or Esc.
#pragma once

#include <span>

#include "ui/panel.hpp"

namespace tilescope::ui {

struct Shortcut {
    const char* keys;    // "Ctrl+L"
    const char* action;  // "lecture-hall mode on or off"
};

class HelpPanel : public Panel {
public:
    HelpPanel(PanelContext context, std::span<const Shortcut> shortcuts)
        : m_context(context), m_shortcuts(shortcuts) {}
    void draw(bool* open) override;

private:
    PanelContext m_context;
    std::span<const Shortcut> m_shortcuts;
};

}  // namespace tilescope::ui
