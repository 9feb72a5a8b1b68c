#include "ui/exporter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "export/frame_writer.hpp"
#include "gfx/framebuffer.hpp"
#include "model/trace_session.hpp"
#include "ui/grid_svg.hpp"
#include "ui/layout_probe.hpp"

namespace tilescope::ui {

namespace {

constexpr int kMinSize = 16, kMaxSize = 8192;
constexpr double kMinFps = 0.1, kMaxFps = 60.0;
// Each step is drawn this many times before it is read: a panel that lays
// itself out from the last frame's sizes (ImGui's way) has then settled.
constexpr int kFramesPerStep = 2;

exports::Format writerFormat(ExportFormat f) {
    switch (f) {
        case ExportFormat::Mp4:
            return exports::Format::Mp4;
        case ExportFormat::PngSequence:
            return exports::Format::PngSequence;
        default:
            return exports::Format::Gif;
    }
}

// The layout probe's name for each view's rectangle.
const char* probeName(ExportView view) {
    switch (view) {
        case ExportView::Grid:
            return "grid.window";
        case ExportView::Threads:
            return "threads.window";
        case ExportView::Shared:
            return "shared.window";
        case ExportView::Output:
            return "output.window";
        case ExportView::Window:
            return nullptr;
    }
    return nullptr;
}

}  // namespace

const char* exportUnitName(Granularity by) {
    switch (by) {
        case Granularity::Step:
            return "steps";
        case Granularity::WarpStep:
            return "warp steps";
        case Granularity::Event:
            return "events";
        case Granularity::WarpRequest:
            return "warp requests";
    }
    return "steps";
}

const char* exportFormatName(ExportFormat format) {
    switch (format) {
        case ExportFormat::Gif:
            return "gif";
        case ExportFormat::Mp4:
            return "mp4";
        case ExportFormat::PngSequence:
            return "png-dir";
        case ExportFormat::Svg:
            return "svg";
    }
    return "?";
}

const char* exportViewName(ExportView view) {
    switch (view) {
        case ExportView::Grid:
            return "grid";
        case ExportView::Threads:
            return "threads";
        case ExportView::Shared:
            return "shared";
        case ExportView::Output:
            return "output";
        case ExportView::Window:
            return "window";
    }
    return "?";
}

std::optional<ExportView> exportViewFromName(const std::string& name) {
    for (ExportView v :
         {ExportView::Grid, ExportView::Threads, ExportView::Shared, ExportView::Output, ExportView::Window})
        if (name == exportViewName(v))
            return v;
    return std::nullopt;
}

Status checkExportRequest(const ExportRequest& r) {
    if (r.path.empty())
        return badInput("no path to export to");
    if (r.from && *r.from < 0)
        return badInput("--from " + std::to_string(*r.from) + " is negative: steps count from 0");
    if (r.to && *r.to < 0)
        return badInput("--to " + std::to_string(*r.to) + " is negative: steps count from 0");
    if (r.from && r.to && *r.from > *r.to)
        return badInput("--from " + std::to_string(*r.from) + " is after --to " + std::to_string(*r.to) +
                        ": give the first step, then the last");
    if (r.every < 1)
        return badInput("--every " + std::to_string(r.every) + " must be 1 or more (every N-th step)");
    if (!(r.fps >= kMinFps && r.fps <= kMaxFps))
        return badInput("--fps must be from 0.1 to 60 frames a second");
    if (r.size &&
        ((*r.size)[0] < kMinSize || (*r.size)[1] < kMinSize || (*r.size)[0] > kMaxSize || (*r.size)[1] > kMaxSize))
        return badInput("--size " + std::to_string((*r.size)[0]) + "x" + std::to_string((*r.size)[1]) +
                        " must be from 16x16 to 8192x8192");
    if (r.format == ExportFormat::Svg && r.view != ExportView::Grid)
        return badInput(
            "--svg draws the grid of N (--view grid); the other views export as --gif, --mp4 or "
            "--png-dir");
    if (r.format == ExportFormat::Gif && !exports::gifAvailable())
        return badInput(exports::kNoGif);
    if (r.format == ExportFormat::Mp4 && !exports::mp4Available())
        return badInput(exports::kNoMp4);
    const std::filesystem::path target = r.path.has_filename() ? r.path : r.path.parent_path();
    if (const std::string reason = exports::unwritableReason(target); !reason.empty())
        return badInput(target.string() + ": " + reason);
    std::error_code e;
    if (r.format != ExportFormat::PngSequence && std::filesystem::is_directory(target, e))
        return badInput(target.string() + ": is a folder: give a file name");
    return success();
}

Result<std::vector<long long>> exportSteps(const ExportRequest& r, long long last) {
    const long long from = r.from.value_or(0), to = r.to.value_or(last);
    if (from > last || to > last)
        return badInput(std::to_string(std::max(from, to)) + " is outside the trace: the selected block has " +
                        exportUnitName(r.by) + " 0 to " + std::to_string(last));
    if (from > to)
        return badInput("--from " + std::to_string(from) + " is after --to " + std::to_string(to));
    const long long frames = (to - from) / r.every + 1 + ((to - from) % r.every != 0 ? 1 : 0);
    if (frames > kMaxExportFrames)
        return badInput("the range has " + std::to_string(frames) + " frames; export at most " +
                        std::to_string(kMaxExportFrames) + ": use --from/--to/--every");
    std::vector<long long> list;
    list.reserve(static_cast<std::size_t>(frames));
    for (long long s = from; s <= to; s += r.every)
        list.push_back(s);
    if (list.back() != to)
        list.push_back(to);
    return list;
}

Exporter::Exporter(ExportRequest request) : m_request(std::move(request)) {}

Exporter::~Exporter() = default;

Result<std::unique_ptr<Exporter>> Exporter::start(const ExportRequest& request, TraceSession& session,
                                                  const Theme& theme, const GridOverlays& overlays) {
    if (Status s = checkExportRequest(request); !s)
        return s.error();
    std::unique_ptr<Exporter> exporter(new Exporter(request));
    if (request.format == ExportFormat::Svg) {
        auto wrote = writeGridSvg(request.path, session, theme, overlays);
        if (!wrote)
            return wrote.error();
        exporter->m_wrote = *wrote;
        return exporter;
    }
    const BlockReplay* replay = session.replay(0);
    if (!replay) {
        const std::string why = session.status();
        return badInput("no trace to export" +
                        (why.empty() ? std::string(": the step-through views have none") : ": " + why));
    }
    for (int i = 0; i < session.runCount(); ++i)
        exporter->m_positions.push_back(session.cursorPositions(i, request.by));
    auto steps = exportSteps(request, static_cast<long long>(exporter->m_positions[0].size()) - 1);
    if (!steps)
        return steps.error();
    exporter->m_steps = std::move(*steps);
    session.setPlaying(false);
    return exporter;
}

void Exporter::beforePanels(TraceSession& session) {
    if (done())
        return;
    // In compare mode each kernel stands as many units in as the first.
    const auto step = static_cast<std::size_t>(m_steps[m_next]);
    for (int i = 0; i < session.runCount() && i < static_cast<int>(m_positions.size()); ++i) {
        const std::vector<Cursor>& at = m_positions[static_cast<std::size_t>(i)];
        session.setCursor(i, at[std::min(step, at.size() - 1)]);
    }
}

Status Exporter::afterRender(const LayoutProbe& probe, float scale, float bottom, int framebufferWidth,
                             int framebufferHeight) {
    if (done())
        return success();
    if (++m_drawn < kFramesPerStep)
        return success();
    m_drawn = 0;
    int x0 = 0, y0 = 0, x1 = framebufferWidth, y1 = framebufferHeight;
    if (const char* name = probeName(m_request.view)) {
        ImVec2 min, max;
        if (!probe.find(name, min, max))
            return badInput(std::string("the ") + exportViewName(m_request.view) +
                            " view is not on screen: show it (View menu, or --panels)");
        x0 = std::clamp(static_cast<int>(std::lround(min.x * scale)), 0, framebufferWidth);
        y0 = std::clamp(static_cast<int>(std::lround(min.y * scale)), 0, framebufferHeight);
        x1 = std::clamp(static_cast<int>(std::lround(max.x * scale)), 0, framebufferWidth);
        y1 = std::clamp(static_cast<int>(std::lround(std::min(max.y, bottom) * scale)), 0, framebufferHeight);
    }
    if (x1 - x0 < 1 || y1 - y0 < 1)
        return badInput(std::string("the ") + exportViewName(m_request.view) + " view has no room on screen");
    const gfx::Picture picture = gfx::readPixels(x0, y0, x1 - x0, y1 - y0, framebufferHeight);
    exports::Frame frame{picture.width, picture.height, picture.rgba};
    for (std::size_t i = 3; i < frame.rgba.size(); i += 4)
        frame.rgba[i] = 255;
    if (!m_writer) {
        // The first frame fixes the size (the view's, unless --size asks for another).
        m_width = m_request.size ? (*m_request.size)[0] : frame.width;
        m_height = m_request.size ? (*m_request.size)[1] : frame.height;
        exports::WriterOptions options;
        options.width = m_width;
        options.height = m_height;
        options.fps = m_request.fps;
        auto writer = exports::openFrameWriter(writerFormat(m_request.format), m_request.path, options);
        if (!writer)
            return writer.error();
        m_writer = std::move(*writer);
    }
    // The view keeps its size while the export runs; should it change, the frame is fitted to the first's size.
    if (Status s = m_writer->add(exports::resizeFrame(frame, m_width, m_height)); !s)
        return s;
    ++m_next;
    return success();
}

Result<std::string> Exporter::finish() {
    if (m_request.format == ExportFormat::Svg)
        return m_wrote;
    if (!m_writer)
        return badInput("nothing was drawn to export");
    if (Status s = m_writer->finish(); !s)
        return s.error();
    m_writer.reset();
    return "wrote " + m_request.path.string() + ": " + std::to_string(m_steps.size()) + " frame" +
           (m_steps.size() == 1 ? "" : "s") + " of " + exportUnitName(m_request.by) + " " +
           std::to_string(m_steps.front()) + " to " + std::to_string(m_steps.back()) + ", " + std::to_string(m_width) +
           "x" + std::to_string(m_height);
}

std::string Exporter::progress() const {
    return "exporting frame " + std::to_string(std::min(m_next + 1, m_steps.size())) + " of " +
           std::to_string(m_steps.size());
}

}  // namespace tilescope::ui
