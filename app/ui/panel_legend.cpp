#include "ui/panel_legend.hpp"

#include <imgui_internal.h>  // BringWindowToDisplayFront: the legend stays above moved panels

#include <algorithm>
#include <cstdint>

#include "gfx/texture.hpp"
#include "ui/image_view.hpp"
#include "ui/layout_probe.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

void LegendPanel::beginFrame() {
    m_bars.clear();
    m_swatches.clear();
}

void LegendPanel::addColourBar(std::string label, gfx::ColorMap map, float low, float high) {
    m_bars.push_back({std::move(label), map, low, high});
}

void LegendPanel::addSwatch(ImU32 colour, std::string label) {
    // Several views draw the same mark (the selected problem's): explained once.
    for (const Swatch& s : m_swatches)
        if (s.colour == colour && s.label == label)
            return;
    m_swatches.push_back({colour, std::move(label), false, {}});
}

void LegendPanel::addOutline(ImU32 colour, std::string label) {
    for (const Swatch& s : m_swatches)
        if (s.colour == colour && s.label == label && s.outline)
            return;
    m_swatches.push_back({colour, std::move(label), true, {}});
}

void LegendPanel::addColourSet(std::vector<ImU32> colours, std::string label) {
    for (const Swatch& s : m_swatches)
        if (s.label == label)
            return;
    m_swatches.push_back({colours.empty() ? 0 : colours.front(), std::move(label), false, std::move(colours)});
}

void LegendPanel::drawBar(const Bar& bar, int index) {
    const Theme& theme = m_theme;
    const float barWidth = theme.fontPixels * 9.0f;
    const float barHeight = ImGui::GetTextLineHeight();

    ImGui::TextUnformatted(bar.label.c_str());
    ImGui::SameLine();
    const std::string low = shortValue(bar.low), high = shortValue(bar.high);
    ImGui::TextUnformatted(low.c_str());
    ImGui::SameLine();
    const GLuint texture = m_colorMapper.colormapTexture(bar.map).id();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    beginOwnTextureFiltering(ImGui::GetWindowDrawList());
    ImGui::Image(textureId(texture), {barWidth, barHeight});
    endOwnTextureFiltering(ImGui::GetWindowDrawList());
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRect({at.x - 1, at.y - 1}, {at.x + barWidth + 1, at.y + barHeight + 1}, theme.palette.frame, 0.0f,
                  theme.lineWidth);
    if (bar.map == gfx::ColorMap::Diverging) {
        // Zero sits in the middle of a diverging bar: mark it.
        const float mid = at.x + barWidth * 0.5f;
        draw->AddLine({mid, at.y - 3}, {mid, at.y + barHeight + 3}, theme.palette.frame, theme.lineWidth);
    }
    m_probe.record("legend.bar." + std::to_string(index), at, {at.x + barWidth, at.y + barHeight}, bar.label);
    ImGui::SameLine();
    ImGui::TextUnformatted(high.c_str());
    if (bar.map == gfx::ColorMap::Diverging) {
        ImGui::SameLine();
        ImGui::TextDisabled("(white = 0)");
    }
}

void LegendPanel::draw() {
    const Theme& theme = m_theme;
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos({viewport->WorkPos.x, viewport->WorkPos.y + viewport->WorkSize.y}, ImGuiCond_Always,
                            {0.0f, 1.0f});
    ImGui::SetNextWindowSizeConstraints({viewport->WorkSize.x, 0.0f}, {viewport->WorkSize.x, viewport->WorkSize.y});
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_AlwaysAutoResize;
    if (ImGui::Begin("Legend###legend", nullptr, flags)) {
        ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
        pushHeadingFont(theme);
        ImGui::TextUnformatted("Legend");
        ImGui::PopFont();
        const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
        const float gap = theme.fontPixels * 1.5f;

        // Items flow left to right and wrap when the next one would not fit.
        auto place = [&](float width) {
            ImGui::SameLine(0.0f, gap);
            if (ImGui::GetCursorScreenPos().x + width > right - ImGui::GetStyle().ItemSpacing.x)
                ImGui::NewLine();
        };
        int index = 0;
        for (const Bar& bar : m_bars) {
            const float width = ImGui::CalcTextSize(bar.label.c_str()).x + theme.fontPixels * 18.0f;
            place(width);
            ImGui::BeginGroup();
            drawBar(bar, index++);
            ImGui::EndGroup();
        }
        for (const Swatch& s : m_swatches) {
            const float box = ImGui::GetTextLineHeight();
            // A colour set: a strip of small boxes, as wide as four swatches.
            const float boxWidth = s.set.empty() ? box : box * 4.0f;
            place(boxWidth + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(s.label.c_str()).x +
                  theme.fontPixels);
            const ImVec2 at = ImGui::GetCursorScreenPos();
            ImDrawList* draw = ImGui::GetWindowDrawList();
            if (!s.set.empty()) {
                const float w = boxWidth / static_cast<float>(s.set.size());
                for (std::size_t k = 0; k < s.set.size(); ++k)
                    draw->AddRectFilled({at.x + w * static_cast<float>(k), at.y},
                                        {at.x + w * static_cast<float>(k + 1), at.y + box}, s.set[k]);
            } else if (s.outline) {
                // A frame over its casing, as the views draw it, round a cell of the window's colour.
                const float t = std::max(2.0f, theme.lineWidth * 2.0f);
                draw->AddRect({at.x + t * 0.5f, at.y + t * 0.5f}, {at.x + box - t * 0.5f, at.y + box - t * 0.5f},
                              s.colour, 0.0f, t);
            } else {
                draw->AddRectFilled(at, {at.x + box, at.y + box}, s.colour);
            }
            draw->AddRect(at, {at.x + boxWidth, at.y + box}, theme.palette.frame, 0.0f, theme.lineWidth * 0.75f);
            m_probe.record("legend.swatch", at, {at.x + boxWidth, at.y + box}, s.label);
            ImGui::Dummy({boxWidth, box});
            ImGui::SameLine();
            ImGui::TextUnformatted(s.label.c_str());
        }
        if (m_bars.empty() && m_swatches.empty()) {
            place(theme.fontPixels * 12.0f);
            ImGui::TextDisabled("(nothing drawn yet)");
        }
        place(ImGui::CalcTextSize(m_keyHint.c_str()).x);
        ImGui::TextDisabled("%s", m_keyHint.c_str());
        m_probe.record("legend.keys", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), m_keyHint);
        m_height = ImGui::GetWindowHeight();
        m_probe.record(
            "legend", ImGui::GetWindowPos(),
            {ImGui::GetWindowPos().x + ImGui::GetWindowWidth(), ImGui::GetWindowPos().y + ImGui::GetWindowHeight()});
    }
    ImGui::End();
}

}  // namespace tilescope::ui
