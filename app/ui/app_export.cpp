// The App's part in exports (exporter.hpp): an export started (File >
// Export..., or the export driver), the frame read back each frame while it
// runs, and the menu's item, progress and dialog.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "export/frame_writer.hpp"
#include "gfx/gl.hpp"
#include "gfx/window.hpp"
#include "model/trace_session.hpp"
#include "ui/app.hpp"
#include "ui/export_dialog.hpp"
#include "ui/panel_legend.hpp"

namespace tilescope::ui {

Status App::startExport(const ExportRequest& request) {
    if (m_exporter)
        return badInput("an export is running already");
    // The view must be on screen to be read back.
    PanelVisibility& p = m_settings.panels;
    switch (request.view) {
        case ExportView::Grid:
            p[PanelId::Grid] = true;
            break;
        case ExportView::Threads:
            p[PanelId::Threads] = true;
            break;
        case ExportView::Shared:
            p[PanelId::Shared] = true;
            break;
        case ExportView::Output:
            p[PanelId::Output] = true;
            break;
        case ExportView::Window:
            break;
    }
    auto exporter = Exporter::start(request, *m_traceSession, m_theme, m_gridOverlays);
    if (!exporter)
        return exporter.error();
    m_exporter = std::move(*exporter);
    m_exportMessage.clear();
    m_exportFailed = false;
    m_probe.setEnabled(true);  // the view's rectangle comes from the layout probe
    if (m_exporter->done())    // an SVG: written already
        endExport(success());
    return success();
}

void App::cancelExport() {
    if (m_exporter)
        endExport(badInput("the export was cancelled; nothing was written"));
}

// In the browser the export was written into the page's memory: hand it to
// the browser as downloads (a PNG sequence as one download per frame).
void App::offerDownloads(const std::filesystem::path& path) {
    if (!gfx::Window::hasFilePicker())
        return;
    std::error_code e;
    if (std::filesystem::is_directory(path, e)) {
        std::vector<std::filesystem::path> files;
        for (const auto& entry : std::filesystem::directory_iterator(path, e))
            files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        for (const auto& file : files)
            gfx::Window::offerDownload(file.string());
        m_exportMessage += " (downloaded, one file a frame)";
    } else if (gfx::Window::offerDownload(path.string())) {
        m_exportMessage += " (downloaded)";
    }
}

void App::endExport(Status status) {
    if (status) {
        auto wrote = m_exporter->finish();
        if (wrote) {
            m_exportMessage = *wrote;
            offerDownloads(m_exporter->request().path);
        } else {
            status = wrote.error();
        }
    }
    if (!status)
        m_exportMessage = status.error().message;
    m_exportFailed = !status;
    m_exporter.reset();  // an unfinished writer removes its partial file
    m_probe.setEnabled(m_options.probe);
    if (m_options.mode == AppMode::Interactive && m_exportDialog)
        m_exportDialog->open();  // says what was written, or why not
}

void App::captureExportFrame() {
    const float scale = static_cast<float>(m_window->framebufferWidth()) / ImGui::GetIO().DisplaySize.x;
    const float legendTop = ImGui::GetIO().DisplaySize.y - m_legend->height();
    Status s = m_exporter->afterRender(m_probe, scale, legendTop, m_window->framebufferWidth(),
                                       m_window->framebufferHeight());
    if (!s || m_exporter->done())
        endExport(s);
}

void App::drawExportMenu() {
    if (!m_exporter) {
        if (ImGui::MenuItem("Export...", nullptr, false, stepThroughShown() || m_openedTrace.trace)) {
            if (!m_exportDialog)
                m_exportDialog = std::make_unique<ExportDialog>();
            m_exportMessage.clear();
            m_exportDialog->open();
        }
        return;
    }
    if (ImGui::MenuItem("Cancel the export", "Esc"))
        cancelExport();
}

void App::drawExportDialog() {
    if (m_exporter) {
        // Progress in the menu bar's row, outside every panel (so outside the frames).
        if (ImGui::IsKeyPressed(ImGuiKey_Escape, false))
            cancelExport();
        // Not in the frames of the whole window, nor off-screen, where no one sees it.
        const bool shown = m_options.mode == AppMode::Interactive && m_exporter &&
                           m_exporter->request().view != ExportView::Window;
        if (shown && ImGui::BeginMainMenuBar()) {
            ImGui::TextDisabled("%s (Esc cancels)", m_exporter->progress().c_str());
            ImGui::EndMainMenuBar();
        }
        return;
    }
    if (!m_exportDialog || !m_exportDialog->isOpen())
        return;
    ExportDialogState state;
    if (const BlockReplay* replay = m_traceSession->replay(0)) {
        state.steps = replay->stepCount();
        const Cursor c = m_traceSession->cursor(0);
        state.step = c >= replay->size() ? replay->stepCount() : replay->stepAt(c);
    }
    state.gif = exports::gifAvailable();
    state.mp4 = exports::mp4Available();
    state.mp4Codec = exports::mp4Codec();
    state.message = m_exportMessage;
    state.failed = m_exportFailed;
    if (auto request = m_exportDialog->draw(state, m_theme, m_probe)) {
        if (Status s = startExport(*request); !s) {
            m_exportMessage = s.error().message;
            m_exportFailed = true;
            m_exportDialog->open();
        }
    }
}

}  // namespace tilescope::ui
