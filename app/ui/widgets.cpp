#include "ui/widgets.hpp"

#include "ui/layout_probe.hpp"
#include "ui/theme.hpp"

namespace tilescope::ui {

void heading(const Theme& theme, const char* text) {
    ImGui::Spacing();
    pushHeadingFont(theme);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
    ImGui::Separator();
}

void colouredText(const ImVec4& colour, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

void problemMessage(const Theme& theme, LayoutProbe& probe, const char* probeName, const std::string& message) {
    const float bar = theme.lineWidth * 2.0f;
    const ImVec2 start = ImGui::GetCursorScreenPos();
    ImGui::Indent(bar * 2.0f);
    colouredText(theme.palette.error, "\xE2\x9A\xA0 " + message);  // U+26A0 warning sign
    ImGui::Unindent(bar * 2.0f);
    const ImVec2 end(ImGui::GetItemRectMax().x, ImGui::GetItemRectMax().y);
    ImGui::GetWindowDrawList()->AddRectFilled(start, {start.x + bar, end.y},
                                              ImGui::ColorConvertFloat4ToU32(theme.palette.error));
    probe.record(probeName, start, end, message);
}

void helpMarker(const char* text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
        ImGui::TextUnformatted(text);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void beginOwnTextureFiltering(ImDrawList* draw) {
    if (const ImDrawCallback fromTexture = ImGui::GetPlatformIO().DrawCallback_SetSamplerFromTex)
        draw->AddCallback(fromTexture, nullptr);
}

void endOwnTextureFiltering(ImDrawList* draw) {
    if (const ImDrawCallback reset = ImGui::GetPlatformIO().DrawCallback_ResetRenderState)
        draw->AddCallback(reset, nullptr);
}

}  // namespace tilescope::ui
