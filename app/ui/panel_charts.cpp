#include "ui/panel_charts.hpp"

#include <imgui.h>
#include <implot.h>
#include <implot_internal.h>  // the shared legend's rectangle, for the layout probe

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <utility>

#include "model/background_task.hpp"
#include "ui/layout_probe.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

namespace {

// A shape per strategy, so that the charts read without colour (a
// black-and-white handout, a washed-out projector).
constexpr ImPlotMarker kMarkers[] = {ImPlotMarker_Circle, ImPlotMarker_Square, ImPlotMarker_Diamond, ImPlotMarker_Up,
                                     ImPlotMarker_Down};

enum class Quantity { FlopPerByte, LoadsPerOutput, GpuMs };

const char* quantityKey(Quantity q) {
    switch (q) {
        case Quantity::FlopPerByte: return "flop";
        case Quantity::LoadsPerOutput: return "loads";
        case Quantity::GpuMs: return "gpu";
    }
    return "";
}

const char* quantityAxis(Quantity q) {
    switch (q) {
        case Quantity::FlopPerByte: return "FLOP/B";
        case Quantity::LoadsPerOutput: return "loads per output";
        case Quantity::GpuMs: return "GPU time (ms)";
    }
    return "";
}

std::string shortName(const std::string& kernel) {
    return kernel.rfind("conv2d_", 0) == 0 ? kernel.substr(7) : kernel;
}

// ImPlot draws no dashed lines: the book's formula is drawn here, in dashes
// that run on across the points (a steady rhythm reads as one line).
void dashedLine(const ChartXY& xy, ImU32 colour, float width, float dash) {
    if (xy.x.size() < 2)
        return;
    ImDrawList* draw = ImPlot::GetPlotDrawList();
    ImPlot::PushPlotClipRect();
    float phase = 0.0f;  // where in the dash-gap period the segment starts
    for (std::size_t i = 1; i < xy.x.size(); ++i) {
        const ImVec2 a = ImPlot::PlotToPixels(xy.x[i - 1], xy.y[i - 1]);
        const ImVec2 b = ImPlot::PlotToPixels(xy.x[i], xy.y[i]);
        const float length = std::hypot(b.x - a.x, b.y - a.y);
        if (length <= 0.0f)
            continue;
        float t = -phase;
        while (t < length) {
            const float from = std::max(t, 0.0f), to = std::min(t + dash, length);
            if (to > from)
                draw->AddLine({a.x + (b.x - a.x) * from / length, a.y + (b.y - a.y) * from / length},
                              {a.x + (b.x - a.x) * to / length, a.y + (b.y - a.y) * to / length}, colour, width);
            t += 2.0f * dash;
        }
        phase = length - (t - 2.0f * dash);  // how far into the period the next segment starts
        phase = std::fmod(std::max(phase, 0.0f), 2.0f * dash);
    }
    ImPlot::PopPlotClipRect();
}

// The smallest and largest value a chart shows (measured or the book's).
std::pair<double, double> yRange(const ChartData& data, Quantity q, int radius) {
    double low = 0.0, high = 0.0;
    bool any = false;
    auto take = [&](const ChartXY& xy) {
        for (double y : xy.y) {
            if (!(y > 0.0)) continue;
            low = any ? std::min(low, y) : y;
            high = any ? std::max(high, y) : y;
            any = true;
        }
    };
    for (const ChartLine& line : data.lines) {
        if (line.radius != radius || line.strategy < 0) continue;
        if (q == Quantity::FlopPerByte) {
            take(line.flopPerByte);
            take(line.bookFlopPerByte);
        } else if (q == Quantity::LoadsPerOutput) {
            take(line.loadsPerOutput);
            take(line.bookLoadsPerOutput);
        } else {
            take(line.gpuMs);
        }
    }
    if (q == Quantity::GpuMs)  // the floor, under every time
        for (const ChartFloor& f : data.floors)
            if (f.radius == radius && f.millis > 0.0) {
                low = any ? std::min(low, f.millis) : f.millis;
                high = any ? std::max(high, f.millis) : f.millis;
                any = true;
            }
    return any ? std::pair{low, high} : std::pair{1.0, 10.0};
}

}  // namespace

ChartsPanel::~ChartsPanel() {
    if (m_task.valid())
        m_task.wait();
}

void ChartsPanel::draw(bool* open) {
    // The sweep starts when the panel is first shown, off the UI thread (in
    // the browser, between this frame and the next: the panel says it is
    // measuring first).
    if (m_task.valid() && taskReady(m_task))
        m_data = m_task.get();
    if (!m_data && !m_task.valid())
        m_task = startTask([onReady = m_onReady] {
            ChartData data = computeChartData();
            if (onReady)
                onReady();
            return data;
        });

    if (!ImGui::Begin("Charts###charts", open)) {
        ImGui::End();
        return;
    }
    m_probe.recordWindow("charts.window");
    heading(m_theme, "The strategies compared: Figure 7.14 (4th ed.), Figure 7.22 (3rd ed.)");
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Masks:");
    for (int r = 1; r <= 4; ++r) {
        ImGui::SameLine();
        const std::string label = std::to_string(2 * r + 1) + " x " + std::to_string(2 * r + 1);
        ImGui::Checkbox(label.c_str(), &m_showRadius[r - 1]);
    }
    ImGui::SameLine(0.0f, m_theme.fontPixels * 1.5f);
    ImGui::TextColored(m_theme.palette.muted, "markers: measured, one traced interior block each");

    if (!m_data) {
        ImGui::TextColored(m_theme.palette.muted, "Tracing %zu blocks on the CPU executor...",
                           kChartKernels.size() * kChartBlocks.size() * kChartRadii.size());
    } else if (!m_data->error.empty()) {
        problemMessage(m_theme, m_probe, "charts.error", "The sweep failed: " + m_data->error);
    } else {
        if (!m_data->gpuTimed) {
            const std::string text = "no GPU: times not measured";
            const ImVec2 at = ImGui::GetCursorScreenPos();
            ImGui::TextColored(m_theme.palette.muted, "%s", text.c_str());
            m_probe.record("charts.no-gpu", at,
                           {at.x + ImGui::CalcTextSize(text.c_str()).x, at.y + ImGui::GetTextLineHeight()}, text);
            if (!m_data->noGpuReason.empty()) {
                ImGui::SameLine();
                helpMarker(m_data->noGpuReason.c_str());
            }
        }
        drawCharts(*m_data);
    }
    ImGui::End();
}

void ChartsPanel::drawCharts(const ChartData& data) {
    std::vector<int> radii;
    for (int r = 1; r <= 4; ++r)
        if (m_showRadius[r - 1])
            radii.push_back(r);
    if (radii.empty()) {
        ImGui::TextColored(m_theme.palette.muted, "Tick a mask size to see its charts.");
        return;
    }
    std::vector<Quantity> rows{Quantity::FlopPerByte, Quantity::LoadsPerOutput};
    if (data.gpuTimed)
        rows.push_back(Quantity::GpuMs);

    const Theme& theme = m_theme;
    const float scale = theme.fontPixels / 16.0f;
    ImPlot::StyleColorsAuto();  // from ImGui's colours: dark, or lecture mode's black on white
    ImPlotStyle& style = ImPlot::GetStyle();
    style.PlotPadding = {10.0f * scale, 10.0f * scale};
    style.LabelPadding = {5.0f * scale, 5.0f * scale};
    style.LegendPadding = {10.0f * scale, 10.0f * scale};
    style.LegendInnerPadding = {5.0f * scale, 5.0f * scale};
    style.LegendSpacing = {12.0f * scale, 2.0f * scale};
    style.MajorTickLen = {10.0f * scale, 10.0f * scale};
    style.MinorTickLen = {5.0f * scale, 5.0f * scale};
    style.MajorGridSize = {std::max(1.0f, scale * 0.75f), std::max(1.0f, scale * 0.75f)};
    style.PlotMinSize = {160.0f * scale, 120.0f * scale};
    const float lineWidth = theme.lecture ? theme.lineWidth : std::max(1.5f, theme.lineWidth * 1.5f);
    const float markerSize = std::max(4.0f, theme.fontPixels * 0.3f);
    const float dash = theme.fontPixels * 0.45f;

    const ImVec2 size = ImGui::GetContentRegionAvail();
    // Each chart fits its own numbers: a 9 x 9 mask's loads run to 2 x 81.
    const ImPlotSubplotFlags flags = ImPlotSubplotFlags_ShareItems | ImPlotSubplotFlags_NoResize;
    if (!ImPlot::BeginSubplots("##strategies", static_cast<int>(rows.size()), static_cast<int>(radii.size()), size,
                               flags))
        return;
    ImPlot::SetupLegend(ImPlotLocation_North, ImPlotLegendFlags_Horizontal);
    // Where the shared legend was drawn (in the last frame: it is placed when the subplots end).
    if (const ImPlotSubplot* subplot = ImPlot::GetCurrentContext()->CurrentSubplot)
        m_probe.record("charts.legend", subplot->Items.Legend.Rect.Min, subplot->Items.Legend.Rect.Max);

    const double ticks[] = {8, 16, 32};
    const char* tickLabels[] = {"8", "16", "32"};
    for (Quantity q : rows) {
        for (int r : radii) {
            const int width = 2 * r + 1;
            const std::string title = std::string(q == Quantity::FlopPerByte      ? "FLOP per byte"
                                                  : q == Quantity::LoadsPerOutput ? "Global loads per output"
                                                                                  : "GPU time") +
                                      ", mask " + std::to_string(width) + " x " + std::to_string(width) + "##" +
                                      quantityKey(q) + std::to_string(r);
            if (!ImPlot::BeginPlot(title.c_str(), {-1, 0}, ImPlotFlags_NoMouseText))
                continue;
            ImPlot::SetupAxes("block edge (threads)", r == radii.front() ? quantityAxis(q) : nullptr);
            // Block edges double: a log scale spaces them evenly, with room for the end markers.
            ImPlot::SetupAxisScale(ImAxis_X1, ImPlotScale_Log10);
            ImPlot::SetupAxisLimits(ImAxis_X1, 6.5, 40.0, ImPlotCond_Always);
            ImPlot::SetupAxisTicks(ImAxis_X1, ticks, 3, tickLabels);
            // Loads per output run from about 1 (tiled) to 2 x 81 (basic, 9 x 9): a log scale shows both.
            const auto [low, high] = yRange(data, q, r);
            if (q != Quantity::FlopPerByte) {
                ImPlot::SetupAxisScale(ImAxis_Y1, ImPlotScale_Log10);
                ImPlot::SetupAxisLimits(ImAxis_Y1, low / 2.0, high * 2.0, ImPlotCond_Always);
            } else {
                ImPlot::SetupAxisLimits(ImAxis_Y1, 0.0, high * 1.12, ImPlotCond_Always);
            }
            ImPlot::SetupAxisFormat(ImAxis_Y1, q == Quantity::GpuMs ? "%.3g" : "%g");

            for (const ChartLine& line : data.lines) {
                if (line.radius != r || line.strategy < 0)
                    continue;
                const ImU32 colour = theme.palette.series[line.strategy % 5];
                const ChartXY& measured = q == Quantity::FlopPerByte      ? line.flopPerByte
                                          : q == Quantity::LoadsPerOutput ? line.loadsPerOutput
                                                                          : line.gpuMs;
                const ChartXY* book = q == Quantity::FlopPerByte      ? &line.bookFlopPerByte
                                      : q == Quantity::LoadsPerOutput ? &line.bookLoadsPerOutput
                                                                      : nullptr;
                const bool hasBook = book && book->x.size() >= 2;
                ImPlotSpec spec;
                spec.LineColor = ImGui::ColorConvertU32ToFloat4(colour);
                spec.MarkerFillColor = spec.LineColor;
                spec.MarkerLineColor = spec.LineColor;
                spec.LineWeight = lineWidth;
                spec.Marker = kMarkers[line.strategy % 5];
                spec.MarkerSize = markerSize;
                const std::string label = shortName(line.kernel);
                const int n = static_cast<int>(measured.x.size());
                // Where the book has a formula its dashed line joins the points;
                // where it has none (the caches' share), a thin solid one; GPU
                // times, a line of the strategy's own.
                if (q == Quantity::GpuMs) {
                    ImPlot::PlotLine(label.c_str(), measured.x.data(), measured.y.data(), n, spec);
                } else if (hasBook) {
                    ImPlot::PlotScatter(label.c_str(), measured.x.data(), measured.y.data(), n, spec);
                } else {
                    ImPlotSpec thin = spec;
                    thin.LineWeight = std::max(1.0f, lineWidth * 0.5f);
                    ImPlot::PlotLine(label.c_str(), measured.x.data(), measured.y.data(), n, thin);
                }
                if (hasBook)
                    dashedLine(*book, colour, lineWidth, dash);
                if (m_probe.enabled()) {
                    for (int i = 0; i < n; ++i) {
                        const ImVec2 at = ImPlot::PlotToPixels(measured.x[i], measured.y[i]);
                        m_probe.record("charts.point." + std::string(quantityKey(q)) + ".r" + std::to_string(r) + "." +
                                           line.kernel + ".b" + std::to_string(static_cast<int>(measured.x[i])),
                                       {at.x - markerSize, at.y - markerSize}, {at.x + markerSize, at.y + markerSize});
                    }
                }
            }
            if (q == Quantity::GpuMs) {
                for (const ChartFloor& f : data.floors) {
                    if (f.radius != r)
                        continue;
                    // The floor across the whole chart, in the text's colour, with its bound in the legend.
                    const double xs[] = {6.5, 40.0}, ys[] = {f.millis, f.millis};
                    ImPlotSpec floorSpec;
                    floorSpec.LineColor = ImGui::GetStyleColorVec4(ImGuiCol_Text);
                    floorSpec.LineWeight = lineWidth * 1.5f;
                    const std::string floorLabel = f.fmaBound ? "floor: multiply-adds at the FMA peak"
                                                              : "floor: a copy of the image";
                    ImPlot::PlotLine(floorLabel.c_str(), xs, ys, 2, floorSpec);
                    const ImVec2 left = ImPlot::PlotToPixels(6.5, f.millis), right = ImPlot::PlotToPixels(40.0, f.millis);
                    m_probe.record("charts.floor.r" + std::to_string(r), {left.x, left.y - lineWidth},
                                   {right.x, right.y + lineWidth}, floorLabel);
                }
            }
            if (q != Quantity::GpuMs) {
                ImPlotSpec book;
                book.LineColor = ImGui::ColorConvertU32ToFloat4(theme.palette.bookFormula);
                book.FillColor = book.LineColor;
                ImPlot::PlotDummy("book's formula (dashed)", book);
            }
            const ImVec2 at = ImPlot::GetPlotPos(), extent = ImPlot::GetPlotSize();
            m_probe.record("charts.plot." + std::string(quantityKey(q)) + ".r" + std::to_string(r), at,
                           {at.x + extent.x, at.y + extent.y});
            ImPlot::EndPlot();
        }
    }
    ImPlot::EndSubplots();
}

}  // namespace tilescope::ui
