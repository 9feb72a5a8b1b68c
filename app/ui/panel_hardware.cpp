#include "ui/panel_hardware.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/trace_session.hpp"
#include "trace/trace.hpp"
#include "trace/trace_index.hpp"
#include "model/trace_session.hpp"
#include "ui/layout_probe.hpp"
#include "ui/opened_trace.hpp"
#include "ui/panel_legend.hpp"
#include "ui/theme.hpp"

namespace tilescope::ui {

namespace {

constexpr const char* kNoSms = "the CPU executor has no SMs: run on a GPU, or open a trace recorded on one";

// 1234 ns -> "1.23 us"; below a microsecond in ns, above a millisecond in ms.
std::string duration(double ns) {
    char text[32];
    if (ns < 1e3)
        std::snprintf(text, sizeof text, "%.0f ns", ns);
    else if (ns < 1e6)
        std::snprintf(text, sizeof text, "%.3g us", ns / 1e3);
    else
        std::snprintf(text, sizeof text, "%.3g ms", ns / 1e6);
    return text;
}

std::string blockText(const Trace& trace, Dim3 b) {
    if (trace.dims() == 1)
        return std::to_string(b.x);
    return std::to_string(b.x) + "," + std::to_string(b.y);
}

// Dark text on a light fill, light on a dark one.
ImU32 labelOn(ImU32 fill) {
    const ImVec4 c = ImGui::ColorConvertU32ToFloat4(fill);
    const float luminance = 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
    return luminance > 0.45f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

}  // namespace

void HardwarePanel::draw(bool* open) {
    if (!ImGui::Begin("Hardware###hardware", open)) {
        ImGui::End();
        return;
    }
    const Theme& theme = m_context.theme;
    const Palette& palette = theme.palette;
    TraceSession& session = m_session;

    // Which trace: the opened file's, else the step-through views' own.
    const Trace* trace = m_openedTrace.trace.get();
    std::string source;
    if (!m_openedTrace.problem.empty()) {
        ImGui::TextColored(palette.error, "%s", m_openedTrace.problem.c_str());
        m_context.probe.record("hardware.message", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                             m_openedTrace.problem);
        ImGui::End();
        return;
    }
    if (trace) {
        source = m_openedTrace.path;
    } else if (const auto& model = session.run(0).model) {
        trace = &model->trace();
    }
    if (!trace) {
        ImGui::TextDisabled("no trace yet");
        ImGui::End();
        return;
    }
    if (trace->hardware.empty()) {
        ImGui::TextWrapped("%s", kNoSms);
        m_context.probe.record("hardware.message", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), kNoSms);
        ImGui::End();
        return;
    }

    // Rows: the SMs that ran a block, ascending. Time: from the earliest start.
    std::map<unsigned, int> rowOfSm;
    std::uint64_t first = UINT64_MAX, last = 0;
    for (const BlockHardware& h : trace->hardware) {
        rowOfSm[h.sm] = 0;
        first = std::min(first, h.startNs);
        last = std::max(last, std::max(h.endNs, h.startNs));
    }
    int rows = 0;
    for (auto& [sm, row] : rowOfSm) row = rows++;
    const double span = std::max<double>(1.0, static_cast<double>(last - first));

    // The selected block: the step-through views' (its launch must be this one).
    std::optional<Dim3> selected;
    if (const BlockReplay* replay = session.replay(); replay && session.run(0).model &&
                                                      session.run(0).model->trace().plan.grid == trace->plan.grid)
        selected = replay->block();

    ImGui::Text("%s: %zu blocks on %zu SMs in %s", trace->kernel.c_str(), trace->hardware.size(), rowOfSm.size(),
                duration(span).c_str());
    if (!source.empty() && ImGui::IsItemHovered())
        ImGui::SetTooltip("from %s", source.c_str());

    // [Layout] SM labels on the left, the time axis above the rows (in sight
    // when a GPU's hundred SMs make the panel scroll).
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float line0 = ImGui::GetTextLineHeight();
    const ImVec2 origin{top.x, top.y + line0 * 1.6f};
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float line = ImGui::GetTextLineHeight();
    const float labelWidth = ImGui::CalcTextSize("SM 000").x + line * 0.5f;
    const float axisHeight = line * 1.6f;
    const float plotX0 = origin.x + labelWidth, plotX1 = origin.x + std::max(avail.x, labelWidth + 50.0f);
    const float plotWidth = plotX1 - plotX0;
    const float rowHeight = std::clamp((avail.y - axisHeight) / static_cast<float>(rows), line * 1.15f, line * 2.4f);
    const float gap = std::max(1.0f, rowHeight * 0.06f);
    const float plotY1 = origin.y + rowHeight * static_cast<float>(rows);
    const float axisY = origin.y;
    auto xOf = [&](std::uint64_t ns) {
        return plotX0 + static_cast<float>(static_cast<double>(ns - first) / span) * plotWidth;
    };

    const ImU32 textColour = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 rowShade = ImGui::GetColorU32(ImGuiCol_FrameBg);
    for (const auto& [sm, row] : rowOfSm) {
        const float y0 = origin.y + rowHeight * static_cast<float>(row);
        if (row % 2 == 0)
            draw->AddRectFilled({plotX0, y0}, {plotX1, y0 + rowHeight}, rowShade);
        const std::string label = "SM " + std::to_string(sm);
        draw->AddText({origin.x, y0 + (rowHeight - line) * 0.5f}, textColour, label.c_str());
        m_context.probe.record("hardware.sm" + std::to_string(sm), {plotX0, y0}, {plotX1, y0 + rowHeight},
                             std::to_string(row));
    }

    // Bars.
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const BlockHardware* hovered = nullptr;
    pushMonoFont(theme);
    for (const BlockHardware& h : trace->hardware) {
        const int row = rowOfSm[h.sm];
        const float y0 = origin.y + rowHeight * static_cast<float>(row) + gap;
        const float y1 = origin.y + rowHeight * static_cast<float>(row + 1) - gap;
        const float x0 = xOf(h.startNs);
        const float x1 = std::max(xOf(std::max(h.endNs, h.startNs)), x0 + 1.0f);
        const bool isSelected = selected && *selected == h.block;
        const ImU32 fill = isSelected ? palette.halo : palette.inputTile;
        draw->AddRectFilled({x0, y0}, {x1, y1}, fill);
        if (isSelected)
            draw->AddRect({x0, y0}, {x1, y1}, palette.selection, 0.0f, std::max(2.0f, theme.lineWidth * 2.0f));
        else if (x1 - x0 >= 4.0f)
            draw->AddRect({x0, y0}, {x1, y1}, palette.frame, 0.0f, 1.0f);
        const std::string label = blockText(*trace, h.block);
        const ImVec2 size = ImGui::CalcTextSize(label.c_str());
        if (size.x + 4.0f <= x1 - x0 && size.y <= y1 - y0)
            draw->AddText({(x0 + x1 - size.x) * 0.5f, (y0 + y1 - size.y) * 0.5f}, labelOn(fill), label.c_str());
        const unsigned linear = trace->linearBlock(h.block);
        m_context.probe.record("hardware.block" + std::to_string(linear), {x0, y0}, {x1, y1},
                             "sm " + std::to_string(h.sm) + (isSelected ? " selected" : ""));
        if (ImGui::IsWindowHovered() && mouse.x >= x0 && mouse.x < x1 && mouse.y >= y0 && mouse.y < y1)
            hovered = &h;
    }
    ImGui::PopFont();

    // Time axis: five ticks from the first start to the last end.
    draw->AddLine({plotX0, axisY}, {plotX1, axisY}, textColour, theme.lineWidth);
    for (int i = 0; i <= 4; ++i) {
        const float x = plotX0 + plotWidth * static_cast<float>(i) / 4.0f;
        draw->AddLine({x, axisY - line * 0.3f}, {x, axisY}, textColour, theme.lineWidth);
        const std::string label = duration(span * i / 4.0);
        const float w = ImGui::CalcTextSize(label.c_str()).x;
        const float at = std::clamp(x - w * 0.5f, plotX0, plotX1 - w);
        draw->AddText({at, top.y}, textColour, label.c_str());
    }
    ImGui::Dummy({plotX1 - origin.x, plotY1 - top.y + line * 0.3f});

    if (hovered) {
        ImGui::BeginTooltip();
        ImGui::Text("block %s", blockText(*trace, hovered->block).c_str());
        ImGui::Text("SM %u", hovered->sm);
        ImGui::Text("start %s", duration(static_cast<double>(hovered->startNs - first)).c_str());
        ImGui::Text("duration %s",
                    duration(static_cast<double>(hovered->endNs >= hovered->startNs ? hovered->endNs - hovered->startNs
                                                                                    : 0))
                        .c_str());
        std::string slots;
        for (unsigned w : hovered->warpIds) slots += (slots.empty() ? "" : " ") + std::to_string(w);
        ImGui::Text("warp slots %s", slots.empty() ? "(none recorded)" : slots.c_str());
        ImGui::EndTooltip();
    }
    ImGui::End();
}

}  // namespace tilescope::ui
