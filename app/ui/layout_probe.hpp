// Where things were drawn, for tests. When enabled (`tilescope screenshot
// --layout FILE.json`), panels record named rectangles as they draw them:
// the result images, the legend's colour bars, the message boxes. A test reads
// the file and checks the screenshot's pixels at those places, so it asserts
// what the user sees without hard-coding a layout that may change.
#pragma once

#include <imgui.h>

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::ui {

class LayoutProbe {
public:
    void setEnabled(bool enabled) { m_enabled = enabled; }
    bool enabled() const { return m_enabled; }
    void beginFrame() { m_items.clear(); }

    // `text`: what the rectangle says, for message boxes.
    void record(std::string name, ImVec2 min, ImVec2 max, std::string text = {});
    // The window being drawn (between ImGui::Begin and End), whole.
    void recordWindow(std::string name) {
        const ImVec2 at = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
        record(std::move(name), at, {at.x + size.x, at.y + size.y});
    }

    // After ImGui::Render(): text the user cannot read whole. Two kinds, each
    // an item named "clipped" whose text is the window's name:
    //   - a glyph cut by the left or right edge of its clip rectangle (text
    //     drawn past a panel's or a cell's edge);
    //   - a window whose content is wider than its inside (text laid out past
    //     its right edge, or a horizontal scroll bar).
    // Rows cut by the bottom of a scrolling list are not counted: they scroll.
    // Also "glyphs": how many glyphs were drawn (a test that sees none sees
    // nothing), and "window", whose text is its name: each top-level window
    // (a panel, the legend, the menu bar), whole.
    void recordClippedText();
    // The rectangle recorded last under `name` this frame, in screen units (false: none).
    bool find(const std::string& name, ImVec2& min, ImVec2& max) const {
        for (auto i = m_items.rbegin(); i != m_items.rend(); ++i)
            if (i->name == name) {
                min = i->min;
                max = i->max;
                return true;
            }
        return false;
    }

    // {"framebuffer": [w, h], "scale": s, "items": [{"name", "rect": [x0, y0, x1, y1], "text"}, ...]}
    // in framebuffer pixels; `extra`, a JSON object, adds its fields beside them (the page's
    // "settled" and "redrawn").
    std::string toJson(int framebufferWidth, int framebufferHeight, float scale,
                       const nlohmann::json* extra = nullptr) const;

private:
    struct Item {
        std::string name;
        ImVec2 min, max;
        std::string text;
    };
    bool m_enabled = false;
    std::vector<Item> m_items;
};

}  // namespace tilescope::ui
