#include "ui/layout_probe.hpp"

#include <nlohmann/json.hpp>

namespace tilescope::ui {

void LayoutProbe::record(std::string name, ImVec2 min, ImVec2 max, std::string text) {
    if (m_enabled)
        m_items.push_back({std::move(name), min, max, std::move(text)});
}

std::string LayoutProbe::toJson(int framebufferWidth, int framebufferHeight, float scale) const {
    nlohmann::json items = nlohmann::json::array();
    for (const Item& i : m_items)
        items.push_back({{"name", i.name},
                         {"rect", {i.min.x * scale, i.min.y * scale, i.max.x * scale, i.max.y * scale}},
                         {"text", i.text}});
    nlohmann::json j{{"framebuffer", {framebufferWidth, framebufferHeight}}, {"scale", scale}, {"items", items}};
    return j.dump(2) + "\n";
}

}  // namespace tilescope::ui
