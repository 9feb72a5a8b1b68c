#include "ui/scripted_input.hpp"

#include <cctype>
#include <utility>

#include "ui/layout_probe.hpp"

namespace tilescope::ui {

namespace {

constexpr int kFramesPerStep = 6;  // a press, its release, then frames for the app to answer

ImGuiKey namedKey(const std::string& name) {
    if (name.size() == 1 && std::isalpha(static_cast<unsigned char>(name[0])))
        return static_cast<ImGuiKey>(ImGuiKey_A + (std::tolower(static_cast<unsigned char>(name[0])) - 'a'));
    if (name.size() == 1 && std::isdigit(static_cast<unsigned char>(name[0])))
        return static_cast<ImGuiKey>(ImGuiKey_0 + (name[0] - '0'));
    static const std::pair<const char*, ImGuiKey> keys[] = {
        {"enter", ImGuiKey_Enter},   {"escape", ImGuiKey_Escape}, {"tab", ImGuiKey_Tab},
        {"up", ImGuiKey_UpArrow},    {"down", ImGuiKey_DownArrow}, {"left", ImGuiKey_LeftArrow},
        {"right", ImGuiKey_RightArrow}, {"home", ImGuiKey_Home},  {"end", ImGuiKey_End},
        {"backspace", ImGuiKey_Backspace}, {"delete", ImGuiKey_Delete}, {"f5", ImGuiKey_F5}};
    for (const auto& [n, key] : keys)
        if (name == n)
            return key;
    return ImGuiKey_None;
}

}  // namespace

Result<ScriptedInput> ScriptedInput::parse(const std::vector<std::string>& steps) {
    ScriptedInput input;
    for (const std::string& text : steps) {
        const std::size_t colon = text.find(':');
        const std::string kind = text.substr(0, colon), rest = colon == std::string::npos ? "" : text.substr(colon + 1);
        Step step;
        step.text = rest;
        if (kind == "click" || kind == "hover") {
            step.kind = kind == "click" ? Step::Kind::Click : Step::Kind::Hover;
        } else if (kind == "type") {
            step.kind = Step::Kind::Type;
        } else if (kind == "key") {
            step.kind = Step::Kind::Key;
            std::string chord = rest;
            for (std::size_t plus; (plus = chord.find('+')) != std::string::npos && plus + 1 < chord.size();) {
                const std::string mod = chord.substr(0, plus);
                chord = chord.substr(plus + 1);
                if (mod == "ctrl")
                    step.mods |= ImGuiMod_Ctrl;
                else if (mod == "shift")
                    step.mods |= ImGuiMod_Shift;
                else if (mod == "alt")
                    step.mods |= ImGuiMod_Alt;
                else
                    return badInput("--do " + text + ": unknown modifier '" + mod + "' (ctrl, shift, alt)");
            }
            step.key = namedKey(chord);
            if (step.key == ImGuiKey_None)
                return badInput("--do " + text + ": unknown key '" + chord + "'");
        } else {
            return badInput("--do " + text + ": a step is click:NAME, hover:NAME, key:CHORD or type:TEXT");
        }
        if (step.text.empty())
            return badInput("--do " + text + ": nothing after the colon");
        input.m_steps.push_back(std::move(step));
    }
    return input;
}

void ScriptedInput::feed(const LayoutProbe& probe) {
    ImGuiIO& io = ImGui::GetIO();
    if (done()) {
        if (m_mousePlaced)
            io.AddMousePosEvent(m_mouse.x, m_mouse.y);
        return;
    }
    const Step& step = m_steps[m_next];
    auto modifiers = [&](bool down) {
        for (const auto& [mod, key] : {std::pair{ImGuiMod_Ctrl, ImGuiKey_LeftCtrl},
                                       std::pair{ImGuiMod_Shift, ImGuiKey_LeftShift},
                                       std::pair{ImGuiMod_Alt, ImGuiKey_LeftAlt}})
            if (step.mods & mod) {
                io.AddKeyEvent(mod, down);
                io.AddKeyEvent(key, down);
            }
    };
    switch (step.kind) {
        case Step::Kind::Click:
        case Step::Kind::Hover:
            if (m_frame == 0) {
                ImVec2 min, max;
                if (!probe.find(step.text, min, max)) {
                    m_error = "nothing named " + step.text + " was drawn in the last frame";
                    m_next = m_steps.size();
                    return;
                }
                m_mouse = {(min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f};
                m_mousePlaced = true;
            } else if (step.kind == Step::Kind::Click && (m_frame == 1 || m_frame == 2)) {
                io.AddMouseButtonEvent(ImGuiMouseButton_Left, m_frame == 1);
            }
            break;
        case Step::Kind::Key:
            if (m_frame == 0) {
                modifiers(true);
                io.AddKeyEvent(step.key, true);
            } else if (m_frame == 1) {
                io.AddKeyEvent(step.key, false);
                modifiers(false);
            }
            break;
        case Step::Kind::Type:
            if (m_frame == 0)
                io.AddInputCharactersUTF8(step.text.c_str());
            break;
    }
    // After the backend's own position (when the window has the pointer), so that ours holds.
    if (m_mousePlaced)
        io.AddMousePosEvent(m_mouse.x, m_mouse.y);
    if (++m_frame >= kFramesPerStep) {
        m_frame = 0;
        ++m_next;
    }
}

}  // namespace tilescope::ui
