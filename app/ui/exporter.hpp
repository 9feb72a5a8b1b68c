// Exports for slides, drawn by the app itself: `tilescope export` (the App's
// Export mode) and File > Export... both hand an ExportRequest to the App,
// which runs an Exporter alongside its frames.
//
// An animation (GIF, MP4, PNG sequence) is a range of the trace's lockstep
// steps, one frame per chosen step: before the panels draw, the exporter
// puts the cursor where the frame's step ends (as --step does); after the
// frame is drawn, it reads the view's rectangle (the panel's window, as the
// layout probe recorded it) back from the framebuffer and hands it to the
// writer (export/). The SVG is the grid diagram at the current step, drawn
// once through the same code as the Grid of N panel (grid_svg.cpp).
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "ui/grid_diagram.hpp"

namespace tilescope::exports {
class FrameWriter;
}

namespace tilescope::ui {

class TraceSession;
class LayoutProbe;
struct Theme;

enum class ExportFormat { Gif, Mp4, PngSequence, Svg };
enum class ExportView { Grid, Threads, Shared, Output, Window };

// The most frames one export may have: a longer one is refused with a hint.
inline constexpr long long kMaxExportFrames = 2000;

struct ExportRequest {
    ExportFormat format = ExportFormat::Gif;
    std::filesystem::path path;
    ExportView view = ExportView::Grid;
    // The frames' unit: lockstep steps (as --step counts them), one warp's
    // part of a step, or single events (the stepping bar's granularities).
    Granularity by = Granularity::Step;
    std::optional<long long> from, to;  // in that unit, from 0; default: the whole trace
    long long every = 1;
    double fps = 8.0;
    std::optional<std::array<int, 2>> size;  // the frames' size; default: the view's, as drawn
};

const char* exportFormatName(ExportFormat format);  // "gif", "mp4", "png-dir", "svg"
const char* exportViewName(ExportView view);        // "grid", "threads", ...
const char* exportUnitName(Granularity by);         // "steps", "warp steps", "events", "warp requests"
std::optional<ExportView> exportViewFromName(const std::string& name);

// What can be checked before any trace: the range's order, every, fps,
// size, the view for an SVG, MP4 in this build, the path.
Status checkExportRequest(const ExportRequest& request);

// The frames for a trace whose last position is `last` (in the request's
// unit): from, from + every, ... up to `to`, and `to` itself last. Refuses
// positions outside the trace and more than kMaxExportFrames frames.
Result<std::vector<long long>> exportSteps(const ExportRequest& request, long long last);

class Exporter {
public:
    ~Exporter();
    // Checks the request against the trace now shown and opens the writer
    // (an SVG is written here and then, at once, done).
    static Result<std::unique_ptr<Exporter>> start(const ExportRequest& request, TraceSession& session,
                                                   const Theme& theme, const GridOverlays& overlays);

    // Before the panels draw: the cursor at the frame's step.
    void beforePanels(TraceSession& session);
    // After the frame is drawn into the bound framebuffer: the view's
    // rectangle, read back and written. `scale`: framebuffer pixels per unit;
    // `bottom`: where the legend strip begins, in units (a panel ends above it).
    Status afterRender(const LayoutProbe& probe, float scale, float bottom, int framebufferWidth,
                       int framebufferHeight);
    bool done() const { return m_next >= m_steps.size(); }
    // Completes the file; what it wrote, for the user ("wrote out.gif: 40 frames, 640x480").
    Result<std::string> finish();
    const ExportRequest& request() const { return m_request; }
    std::string progress() const;  // "frame 12 of 40"

private:
    explicit Exporter(ExportRequest request);

    ExportRequest m_request;
    std::vector<long long> m_steps;                // the frames, in the request's unit
    std::vector<std::vector<Cursor>> m_positions;  // per traced run: the cursor of each unit
    std::size_t m_next = 0;                        // the frame being drawn
    int m_drawn = 0;  // frames drawn at this step (each step is drawn twice: layout settles)
    std::unique_ptr<exports::FrameWriter> m_writer;
    int m_width = 0, m_height = 0;  // the frames' size, once known
    std::string m_wrote;            // an SVG's report, written at start
};

}  // namespace tilescope::ui
