#include "ui/panel_device.hpp"

#include <imgui.h>

#include <string>

#include "api/limits.hpp"
#include "api/runner.hpp"
#include "ui/layout_probe.hpp"
#include "ui/panel_legend.hpp"
#include "ui/run_status.hpp"
#include "ui/theme.hpp"

namespace tilescope::ui {

void DevicePanel::draw(bool* open) {
    if (!ImGui::Begin("Device###device", open, ImGuiWindowFlags_NoFocusOnAppearing)) {
        ImGui::End();
        return;
    }
    const Theme& theme = m_context.theme;
    const GpuStatus& gpu = m_run.gpu;
    const DeviceLimits limits = currentLimits();
    pushHeadingFont(theme);
    ImGui::TextWrapped("%s", limits.name.c_str());
    ImGui::PopFont();
    if (!gpu.available) {
        ImGui::PushStyleColor(ImGuiCol_Text, theme.palette.muted);
        ImGui::TextWrapped("No GPU: %s", gpu.reason.c_str());
        ImGui::PopStyleColor();
    }

    const SetupCheck& check = m_run.check;
    if (!check.kernel) {
        ImGui::End();
        return;
    }
    const LaunchPlan* plan = check.plan ? &*check.plan : nullptr;
    const int maskWidth = check.mask ? check.mask->width : 0;
    // Each limit: its value and this launch's use on one line, then which
    // setting it bounds, in words (no tooltips: a lecture hall cannot hover).
    int index = 0;
    for (const LimitUse& row : describeLimits(*check.kernel, plan, limits, maskWidth)) {
        ImGui::Spacing();
        pushHeadingFont(theme);
        ImGui::TextUnformatted(row.limit.c_str());
        ImGui::PopFont();
        ImGui::SameLine();
        const std::string numbers = row.value + "   this launch: " + row.used + (row.over ? " (over)" : "");
        if (row.over)
            ImGui::TextColored(theme.palette.error, "%s", numbers.c_str());
        else
            ImGui::TextUnformatted(numbers.c_str());
        ImGui::TextWrapped("%s", row.constrains.c_str());
        m_context.probe.record(("device.limit." + std::to_string(index++)).c_str(), ImGui::GetItemRectMin(),
                             ImGui::GetItemRectMax(), row.limit + ": " + row.constrains);
    }
    if (plan && plan->whatIf) {
        ImGui::Spacing();
        ImGui::TextColored(theme.palette.warning, "What-if: %s", plan->whatIfReason.c_str());
    }
    ImGui::End();
}

}  // namespace tilescope::ui
