#include "ui/layout_probe.hpp"

#include <imgui_internal.h>  // the windows' content sizes

#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>

namespace tilescope::ui {

void LayoutProbe::record(std::string name, ImVec2 min, ImVec2 max, std::string text) {
    if (m_enabled)
        m_items.push_back({std::move(name), min, max, std::move(text)});
}

void LayoutProbe::recordClippedText() {
    if (!m_enabled)
        return;
    const ImDrawData* data = ImGui::GetDrawData();
    if (!data)
        return;
#if IMGUI_VERSION_NUM >= 19200
    const ImTextureID font = ImGui::GetIO().Fonts->TexRef.GetTexID();
#else
    const ImTextureID font = ImGui::GetIO().Fonts->TexID;
#endif
    std::size_t glyphs = 0;
    for (const ImDrawList* list : data->CmdLists) {
        const char* owner = list->_OwnerName ? list->_OwnerName : "";
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback)
                continue;
#if IMGUI_VERSION_NUM >= 19200
            if (cmd.GetTexID() != font)
                continue;
#else
            if (cmd.TextureId != font)
                continue;
#endif
            const ImDrawIdx* idx = list->IdxBuffer.Data + cmd.IdxOffset;
            const ImDrawVert* vtx = list->VtxBuffer.Data + cmd.VtxOffset;
            // A glyph is a quad of two triangles (a, a+1, a+2) (a, a+2, a+3)
            // whose corners sample a rectangle of the font atlas; shapes sample
            // one white texel, anti-aliased lines a row of texels.
            for (unsigned i = 0; i + 6 <= cmd.ElemCount; i += 3) {
                const unsigned a = idx[i];
                if (idx[i + 1] != a + 1 || idx[i + 2] != a + 2 || idx[i + 3] != a || idx[i + 4] != a + 2 ||
                    idx[i + 5] != a + 3)
                    continue;
                const ImDrawVert& p = vtx[a];
                const ImDrawVert& q = vtx[a + 2];
                if (p.uv.x == q.uv.x || p.uv.y == q.uv.y)
                    continue;
                ++glyphs;
                const float x0 = std::min(p.pos.x, q.pos.x), x1 = std::max(p.pos.x, q.pos.x);
                const float y0 = std::min(p.pos.y, q.pos.y), y1 = std::max(p.pos.y, q.pos.y);
                const ImVec4& clip = cmd.ClipRect;
                const bool rowVisible = y1 > clip.y && y0 < clip.w;
                if (rowVisible && (x0 < clip.x - 0.5f || x1 > clip.z + 0.5f))
                    record("clipped", {x0, y0}, {x1, y1}, owner);
                i += 3;
            }
        }
    }
    record("glyphs", {0, 0}, {0, 0}, std::to_string(glyphs));
    const ImGuiContext& g = *GImGui;
    for (const ImGuiWindow* w : g.Windows) {
        if (!w->Active || w->Hidden || (w->Flags & ImGuiWindowFlags_Tooltip))
            continue;
        // Each top-level window whole (the panels, the legend, the menu bar), for tests of the layout.
        if (!(w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Popup)))
            record("window", w->Pos, {w->Pos.x + w->Size.x, w->Pos.y + w->Size.y}, w->Name);
        const float inside = w->ContentRegionRect.GetWidth();
        if (w->ContentSize.x > inside + 1.0f || w->ScrollbarX)
            record("clipped", w->InnerRect.Min, w->InnerRect.Max,
                   std::string(w->Name) + ": content " + std::to_string(static_cast<int>(w->ContentSize.x)) +
                       " wide in " + std::to_string(static_cast<int>(inside)));
    }
}

std::string LayoutProbe::toJson(int framebufferWidth, int framebufferHeight, float scale,
                                const nlohmann::json* extra) const {
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
    nlohmann::json j = extra && extra->is_object() ? *extra : nlohmann::json::object();
    j["framebuffer"] = std::move(framebuffer);
    j["scale"] = scale;
    j["items"] = std::move(items);
    return j.dump(2) + "\n";
}

}  // namespace tilescope::ui
