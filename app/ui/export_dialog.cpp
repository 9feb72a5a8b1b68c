#include "ui/export_dialog.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "ui/layout_probe.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

namespace {

constexpr const char* kFormats[] = {"Animated GIF", "MP4 video", "PNG sequence (a folder)", "SVG of the grid (vector)"};
constexpr const char* kViews[] = {"Grid of N", "Threads", "Shared memory", "Output P", "The whole window"};
constexpr const char* kExtensions[] = {".gif", ".mp4", "", ".svg"};

// The path's extension follows the format (a folder has none).
void matchExtension(char* path, std::size_t size, int format) {
    std::filesystem::path p(path);
    p.replace_extension(kExtensions[format]);
    const std::string text = p.string();
    if (text.size() < size)
        std::memcpy(path, text.c_str(), text.size() + 1);
}

}  // namespace

std::optional<ExportRequest> ExportDialog::draw(const ExportDialogState& state, const Theme& theme,
                                                LayoutProbe& probe) {
    if (!m_open)
        return std::nullopt;
    if (m_focus) {
        ImGui::SetNextWindowFocus();
        const ImVec2 centre = ImGui::GetMainViewport()->GetCenter();
        ImGui::SetNextWindowPos(centre, ImGuiCond_Appearing, {0.5f, 0.5f});
        m_focus = false;
    }
    if (!ImGui::Begin("Export###export", &m_open, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse)) {
        ImGui::End();
        return std::nullopt;
    }
    const float field = ImGui::GetFontSize() * 14.0f;
    ImGui::SetNextItemWidth(field);
    if (ImGui::Combo("format", &m_format, kFormats, IM_ARRAYSIZE(kFormats)))
        matchExtension(m_path, sizeof m_path, m_format);
    const auto format = static_cast<ExportFormat>(m_format);
    if (format == ExportFormat::Gif && !state.gif)
        colouredText(theme.palette.warning, "This build has no GIF export (no giflib in the browser): choose PNG "
                                            "frames or the SVG.");
    else if (format == ExportFormat::Mp4 && !state.mp4)
        colouredText(theme.palette.warning,
                     "This build has no MP4 export (FFmpeg's libraries were not found at build "
                     "time): choose GIF or PNG.");
    else if (format == ExportFormat::Mp4)
        ImGui::TextDisabled("encoded as %s", state.mp4Codec.c_str());

    const bool animation = format != ExportFormat::Svg;
    if (animation) {
        ImGui::SetNextItemWidth(field);
        ImGui::Combo("view", &m_view, kViews, IM_ARRAYSIZE(kViews));
        const int last = static_cast<int>(std::max(state.steps, 0LL));
        if (m_to < 0 || m_to > last)
            m_to = last;
        m_from = std::clamp(m_from, 0, last);
        ImGui::SetNextItemWidth(field * 0.5f);
        ImGui::InputInt("from step", &m_from);
        ImGui::SameLine();
        ImGui::SetNextItemWidth(field * 0.5f);
        ImGui::InputInt("to step", &m_to);
        ImGui::SetNextItemWidth(field * 0.5f);
        ImGui::InputInt("every", &m_every);
        m_every = std::max(m_every, 1);
        ImGui::SameLine();
        ImGui::SetNextItemWidth(field * 0.5f);
        ImGui::SliderFloat("frames/s", &m_fps, 0.5f, 30.0f, "%.1f");
        ImGui::Checkbox("scale to", &m_resize);
        if (m_resize) {
            ImGui::SameLine();
            ImGui::SetNextItemWidth(field * 0.4f);
            ImGui::InputInt("##width", &m_width, 0);
            ImGui::SameLine();
            ImGui::TextUnformatted("x");
            ImGui::SameLine();
            ImGui::SetNextItemWidth(field * 0.4f);
            ImGui::InputInt("##height", &m_height, 0);
        } else {
            ImGui::SameLine();
            ImGui::TextDisabled("(the view's size as drawn)");
        }
        if (state.steps >= 0) {
            const long long frames = m_to >= m_from ? (m_to - m_from + m_every - 1) / m_every + 1 : 0;
            ImGui::TextDisabled("%lld frame%s of the trace's steps 0 to %lld", frames, frames == 1 ? "" : "s",
                                state.steps);
        }
    } else {
        ImGui::TextDisabled("the Grid of N's selected block at step %lld, with its legend", state.step);
    }
    ImGui::SetNextItemWidth(field * 1.6f);
    ImGui::InputText(format == ExportFormat::PngSequence ? "folder" : "file", m_path, sizeof m_path);

    std::optional<ExportRequest> request;
    ImGui::BeginDisabled(state.steps < 0);
    if (ImGui::Button("Export")) {
        ExportRequest r;
        r.format = format;
        r.path = m_path;
        r.view = animation ? static_cast<ExportView>(m_view) : ExportView::Grid;
        r.from = m_from;
        r.to = m_to;
        r.every = m_every;
        r.fps = m_fps;
        if (m_resize)
            r.size = std::array<int, 2>{m_width, m_height};
        request = r;
        m_open = false;  // out of the frames
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Close"))
        m_open = false;
    if (state.steps < 0)
        ImGui::TextDisabled("no trace yet: open a step-through view");
    if (!state.message.empty()) {
        if (state.failed)
            problemMessage(theme, probe, "export.message", state.message);
        else
            colouredText(theme.palette.good, state.message);
    }
    probe.recordWindow("export.window");
    ImGui::End();
    return request;
}

}  // namespace tilescope::ui
