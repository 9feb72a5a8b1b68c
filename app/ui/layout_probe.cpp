#include "ui/layout_probe.hpp"

#include <initializer_list>
#include <nlohmann/json.hpp>

namespace tilescope::ui {

void LayoutProbe::record(std::string name, ImVec2 min, ImVec2 max, std::string text) {
    if (m_enabled)
        m_items.push_back({std::move(name), min, max, std::move(text)});
}

std::string LayoutProbe::toJson(int framebufferWidth, int framebufferHeight, float scale) const {
    // Field by field, not nested initializer lists (see settings.cpp).
    nlohmann::json items = nlohmann::json::array();
    for (const Item& i : m_items) {
        nlohmann::json rect = nlohmann::json::array();
        for (float v : {i.min.x, i.min.y, i.max.x, i.max.y})
            rect.push_back(v * scale);
        nlohmann::json item = nlohmann::json::object();
        item["name"] = i.name;
        item["rect"] = std::move(rect);
        item["text"] = i.text;
        items.push_back(std::move(item));
    }
    nlohmann::json framebuffer = nlohmann::json::array();
    framebuffer.push_back(framebufferWidth);
    framebuffer.push_back(framebufferHeight);
    nlohmann::json j = nlohmann::json::object();
    j["framebuffer"] = std::move(framebuffer);
    j["scale"] = scale;
    j["items"] = std::move(items);
    return j.dump(2) + "\n";
}

}  // namespace tilescope::ui
