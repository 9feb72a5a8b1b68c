#include "ui/panel_device.hpp"

#include <imgui.h>

#include <string>

#include "api/runner.hpp"
#include "ui/app.hpp"

namespace tilescope::ui {

namespace {

std::string bytes(std::size_t n) {
    if (n >= 1024 * 1024 && n % (1024 * 1024) == 0)
        return std::to_string(n / (1024 * 1024)) + " MiB";
    if (n >= 1024 && n % 1024 == 0)
        return std::to_string(n / 1024) + " KiB";
    return std::to_string(n) + " B";
}

void row(const char* what, const std::string& limit, const std::string& used, bool over, const Theme& theme) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(what);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(limit.c_str());
    ImGui::TableNextColumn();
    if (over)
        ImGui::TextColored(theme.palette.error, "%s (over)", used.c_str());
    else
        ImGui::TextUnformatted(used.c_str());
}

}  // namespace

void DevicePanel::draw(bool* open) {
    if (!ImGui::Begin("Device###device", open, ImGuiWindowFlags_NoFocusOnAppearing)) {
        ImGui::End();
        return;
    }
    const Theme& theme = m_app.theme();
    const GpuStatus& gpu = m_app.gpu();
    const DeviceLimits limits = currentLimits();
    ImGui::PushFont(theme.heading);
    ImGui::TextWrapped("%s", limits.name.c_str());
    ImGui::PopFont();
    if (!gpu.available)
        ImGui::TextColored(theme.palette.muted, "No GPU: %s", gpu.reason.c_str());

    const SetupCheck& check = m_app.check();
    const LaunchPlan* plan = check.plan ? &*check.plan : nullptr;
    const bool twoD = check.kernel && check.kernel->dims == 2;
    if (ImGui::BeginTable("limits", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
        ImGui::TableSetupColumn("");
        ImGui::TableSetupColumn("limit");
        ImGui::TableSetupColumn("this launch");
        ImGui::TableHeadersRow();
        const long long threads = plan ? static_cast<long long>(plan->block.x) * plan->block.y : 0;
        row("threads per block", std::to_string(limits.maxThreadsPerBlock), plan ? std::to_string(threads) : "-",
            threads > limits.maxThreadsPerBlock, theme);
        row("shared memory per block",
            bytes(limits.sharedPerBlock) + (limits.sharedPerBlockOptin > limits.sharedPerBlock
                                                ? " (" + bytes(limits.sharedPerBlockOptin) + " opt-in)"
                                                : ""),
            plan ? bytes(plan->sharedBytes) : "-", plan && plan->sharedBytes > limits.sharedPerBlockOptin, theme);
        const std::size_t maskBytes = check.mask ? check.mask->values.size() * sizeof(float) : 0;
        row("constant memory", bytes(limits.constantBytes), check.mask ? bytes(maskBytes) + " (mask)" : "-", false,
            theme);
        if (limits.smCount > 0)
            row("streaming multiprocessors", std::to_string(limits.smCount),
                plan ? std::to_string(static_cast<long long>(plan->grid.x) * plan->grid.y) + " blocks" : "-", false,
                theme);
        if (limits.l2Bytes > 0)
            row("L2 cache", bytes(limits.l2Bytes), "", false, theme);
        ImGui::EndTable();
    }
    if (plan) {
        if (twoD)
            ImGui::TextWrapped("Grid %u x %u blocks of %u x %u threads.", plan->grid.x, plan->grid.y, plan->block.x,
                               plan->block.y);
        else
            ImGui::TextWrapped("Grid of %u blocks of %u threads.", plan->grid.x, plan->block.x);
        if (plan->whatIf)
            ImGui::TextColored(theme.palette.warning, "What-if: %s", plan->whatIfReason.c_str());
    }
    ImGui::End();
}

}  // namespace tilescope::ui
