#include "ui/panel_help.hpp"

#include <imgui.h>
#include <imgui_internal.h>  // BringWindowToDisplayFront: above the legend too

#include "ui/layout_probe.hpp"
#include "ui/theme.hpp"

namespace tilescope::ui {

void HelpPanel::draw(bool* open) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(
        {viewport->WorkPos.x + viewport->WorkSize.x * 0.5f, viewport->WorkPos.y + viewport->WorkSize.y * 0.5f},
        ImGuiCond_Always, {0.5f, 0.5f});
    const ImGuiWindowFlags flags = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove;
    if (ImGui::Begin("Keyboard shortcuts###help", open, flags)) {
        ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
        if (ImGui::BeginTable("shortcuts", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) {
            ImGui::TableSetupColumn("Keys", ImGuiTableColumnFlags_WidthFixed);
            ImGui::TableSetupColumn("Does", ImGuiTableColumnFlags_WidthStretch);
            for (const Shortcut& s : m_shortcuts) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                pushMonoFont(m_context.theme);
                ImGui::TextUnformatted(s.keys);
                ImGui::PopFont();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(s.action);
            }
            ImGui::EndTable();
        }
        ImGui::Spacing();
        ImGui::TextDisabled("Drop an image or .npy file on the window to use it as the input.");
        ImGui::TextDisabled("Hover over a cell of an image to read its value.");
        m_context.probe.record(
            "help", ImGui::GetWindowPos(),
            {ImGui::GetWindowPos().x + ImGui::GetWindowWidth(), ImGui::GetWindowPos().y + ImGui::GetWindowHeight()});
    }
    ImGui::End();
}

}  // namespace tilescope::ui
