// Input played into the app as a user would give it, for tests
// (`tilescope screenshot --do STEP ...`): a click or a hover at the middle of
// a rectangle the layout probe recorded in the last frame (so a test names
// what it clicks, "editor.marker.12", never a pixel position), a key chord,
// typed text. Events go into ImGui's input queue before each frame, one
// step every few frames (a press, then its release, then frames to settle),
// and a mouse that has been placed stays there (a tooltip stays open).
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "core/result.hpp"

namespace tilescope::ui {

class LayoutProbe;

class ScriptedInput {
public:
    // Steps: click:NAME, hover:NAME, key:CHORD (ctrl+z, ctrl+shift+z, enter,
    // escape, tab, up, down, home, end, a letter or a digit), type:TEXT.
    static Result<ScriptedInput> parse(const std::vector<std::string>& steps);

    // Between the backends' NewFrame and ImGui::NewFrame: this frame's events.
    void feed(const LayoutProbe& probe);
    bool done() const { return m_next >= m_steps.size(); }
    // A step that could not be played (a rectangle not drawn): the rest are dropped.
    const std::string& error() const { return m_error; }

private:
    struct Step {
        enum class Kind { Click, Hover, Key, Type } kind = Kind::Click;
        std::string text;  // the rectangle's name, or the text typed
        ImGuiKey key = ImGuiKey_None;
        ImGuiKeyChord mods = 0;
    };
    std::vector<Step> m_steps;
    std::size_t m_next = 0;
    int m_frame = 0;  // frames into the current step
    bool m_mousePlaced = false;
    ImVec2 m_mouse{};
    std::string m_error;
};

}  // namespace tilescope::ui
