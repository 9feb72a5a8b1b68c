#include "ui/panel_result.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/kernel_catalogue.hpp"
#include "own/own_kernel.hpp"
#include "ui/image_view.hpp"
#include "ui/layout_probe.hpp"
#include "ui/panel_legend.hpp"
#include "ui/run_status.hpp"
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

namespace {

struct Mapping {
    gfx::ColorMap map;
    float low, high;
};

// Data of one sign: the sequential map from its smallest to its largest
// value. Data with negative values (Sobel, sharpen): the diverging map,
// symmetric about zero so that white always means 0.
Mapping chooseMapping(const Image& image) {
    // Over the values that are numbers (a race can leave NaN in the output).
    float lo = INFINITY, hi = -INFINITY;
    for (float v : image.data)
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (lo > hi)
        return {gfx::ColorMap::Sequential, 0.0f, 1.0f};
    if (lo < 0.0f) {
        const float m = std::max(std::abs(lo), std::abs(hi));
        return {gfx::ColorMap::Diverging, -m, m};
    }
    if (hi - lo < 1e-12f)
        return {gfx::ColorMap::Sequential, lo - 0.5f, hi + 0.5f};  // one value: the middle colour
    return {gfx::ColorMap::Sequential, lo, hi};
}

// The outputs that differ from the reference, outlined on the output image;
// whether any mark was drawn.
bool outlineWrong(const ImageViewPlacement& place, const std::vector<std::uint32_t>& pixels, const Theme& theme) {
    if (pixels.empty() || place.width <= 0 || !markWrongOutputs(pixels.size(), place.cell))
        return false;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (std::uint32_t pixel : pixels) {
        ImVec2 a, b;
        place.cellRect(static_cast<int>(pixel % static_cast<std::uint32_t>(place.width)),
                       static_cast<int>(pixel / static_cast<std::uint32_t>(place.width)), a, b);
        wrongOutputMark(draw, theme, a, b);
    }
    return true;
}

// Two-channel and four-channel data are not drawn as such: the kernels see
// one or three channels (the readers drop alpha), so this keeps the first.
Status upload(gfx::ColorMappedImage& target, const Image& image) {
    if (image.channels == 1 || image.channels == 3) {
        Status s = target.setData(image.width, image.height, image.channels, image.data.data());
        if (!s)
            return s;
    } else {
        const Image first = image.plane(0);
        Status s = target.setData(first.width, first.height, 1, first.data.data());
        if (!s)
            return s;
    }
    const Mapping m = chooseMapping(image);
    target.setMapping(m.map, m.low, m.high);
    return success();
}

std::string arrayName(const KernelInfo* k, int id, const char* fallback) {
    if (!k)
        return fallback;
    return std::string(k->arrayNames[static_cast<std::size_t>(id)]);
}

}  // namespace

void ResultPanel::take(const std::shared_ptr<const RunOutcome>& outcome) {
    m_shown = outcome;
    if (!outcome->result)
        return;  // the pictures of the last good run stay
    m_good = outcome;
    m_drawProblem.clear();
    if (Status s = upload(m_inputImage, *outcome->input); !s)
        m_drawProblem = s.error().message;
    m_output = std::shared_ptr<const Image>(outcome, &outcome->result->output);
    if (Status s = upload(m_outputImage, *m_output); !s)
        m_drawProblem = s.error().message;
}

void ResultPanel::draw(bool* open) {
    if (const auto& latest = m_run.outcome; latest && latest != m_shown)
        take(latest);
    if (!ImGui::Begin("Result###result", open)) {
        ImGui::End();
        return;
    }
    const Theme& theme = m_context.theme;
    const SetupCheck& check = m_run.check;
    if (!check.runnable()) {
        problemMessage(theme, m_context.probe, "result.problem", "Cannot run: " + check.firstProblem());
        if (m_good)
            lastGoodNote("Below");
    }
    if (!m_drawProblem.empty())
        problemMessage(theme, m_context.probe, "result.problem.draw", m_drawProblem);
    drawImages();
    const float statusTop = ImGui::GetCursorPosY();
    drawStatus();
    m_statusHeight = ImGui::GetCursorPosY() - statusTop;
    ImGui::End();
}

// What the run's input and mask were, for the tests that hold a run to a
// case's files (layout probe "result.data"): "input 45x37 fnv1a
// 0123456789abcdef; mask 5x5 0.04 ...; warps reverse, seed 17".
static std::string runDataText(const RunOutcome& run) {
    std::string s = "input ";
    if (run.input) {
        const Image& in = *run.input;
        std::uint64_t hash = 1469598103934665603ull;
        for (float v : in.data) {
            std::uint32_t bits = 0;
            std::memcpy(&bits, &v, sizeof bits);
            for (int b = 0; b < 4; ++b) {
                hash ^= (bits >> (8 * b)) & 0xffu;
                hash *= 1099511628211ull;
            }
        }
        char h[24];
        std::snprintf(h, sizeof h, "%016llx", static_cast<unsigned long long>(hash));
        s += std::to_string(in.width) + "x" + std::to_string(in.height) + " fnv1a " + h;
    } else {
        s += "none";
    }
    const Mask& m = run.job.mask;
    s += "; mask " + std::to_string(m.width) + "x" + std::to_string(m.height);
    char v[32];
    for (float w : m.values) {
        std::snprintf(v, sizeof v, " %.9g", static_cast<double>(w));
        s += v;
    }
    return s + "; warps " + scheduleName(run.job.schedule) + ", seed " + std::to_string(run.job.seed);
}

void ResultPanel::lastGoodNote(const char* where) {
    const RunOutcome& g = *m_good;
    std::string what = g.job.kernel + " on " + std::string(inputSourceInfo(g.job.input.source).label);
    if (g.job.input.source == InputSource::File)
        what = g.job.kernel + " on " + g.job.input.path;
    const std::string text = std::string(where) + ": the last good result (" + what + ").";
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
    m_context.probe.record("result.last-good", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), text);
}

void ResultPanel::drawImages() {
    const Theme& theme = m_context.theme;
    if (!m_good || (m_inputImage.empty() && m_outputImage.empty()))
        return;
    const KernelInfo* kernel = m_good->job.own ? m_good->job.own->info : findKernel(m_good->job.kernel);
    const std::string n = arrayName(kernel, kArrayInput, "N"), p = arrayName(kernel, kArrayOutput, "P");
    const Image* input = m_good->input.get();
    const bool oneD = input && input->rank == 1;

    // Room for the captions above and the status lines below.
    const float line = ImGui::GetTextLineHeightWithSpacing();
    ImVec2 space = ImGui::GetContentRegionAvail();
    // The status lines' height as the last frame drew them (wrapped to this
    // width); before one was drawn, a guess: two lines more when barriers
    // are dropped or outputs are wrong, the status says so.
    const bool more = m_shown && (m_shown->job.drop.any() || m_shown->wrongCount > 0);
    space.y -= m_statusHeight > 0.0f ? m_statusHeight + line * 0.5f : line * (more ? 5.5f : 3.5f);
    const float gap = theme.fontPixels * 1.5f;
    const float maxCell = theme.fontPixels * 5.0f;  // a 7-element array stays a row of readable cells

    auto caption = [&](const std::string& name, const char* role, const gfx::ColorMappedImage& image) {
        pushHeadingFont(theme);
        ImGui::Text("%s %s", role, name.c_str());
        ImGui::PopFont();
        ImGui::SameLine();
        if (image.height() == 1)
            ImGui::TextDisabled("%d elements", image.width());
        else
            ImGui::TextDisabled("%d x %d%s", image.width(), image.height(), image.channels() == 3 ? " RGB" : "");
    };
    auto legendFor = [&](const std::string& label, const gfx::ColorMappedImage& image) {
        if (image.channels() == 3)
            m_context.legend.addColourBar(label + " (each of R, G, B)", gfx::ColorMap::Sequential, image.low(),
                                          image.high());
        else
            m_context.legend.addColourBar(label, image.map(), image.low(), image.high());
    };

    bool& markedWrong = m_wrongMarked;
    markedWrong = false;
    const int w = std::max(m_inputImage.width(), m_outputImage.width());
    const int h = std::max(m_inputImage.height(), m_outputImage.height());
    if (oneD) {
        // Stacked, the same cell size: P[i] sits right under N[i].
        const float cell = fitCell(w, 1, {space.x, (space.y - 5.5f * line) / 2}, maxCell);
        caption(n, "Input", m_inputImage);
        const auto in = drawImageView("input", m_inputImage, m_colorMapper, input, n.c_str(), cell, theme);
        m_context.probe.record("result.input", in.min, in.max());
        m_context.probe.record("result.data", in.min, in.max(), runDataText(*m_good));
        drawIndexRuler(in, theme);
        ImGui::Spacing();
        if (!m_outputImage.empty()) {
            caption(p, "Output", m_outputImage);
            const auto out =
                drawImageView("output", m_outputImage, m_colorMapper, m_output.get(), p.c_str(), cell, theme);
            m_context.probe.record("result.output", out.min, out.max());
            markedWrong = outlineWrong(out, m_good->wrongPixels, theme);
            drawIndexRuler(out, theme);
        }
    } else {
        const float cell = fitCell(w, h, {(space.x - gap) / 2, space.y - line}, maxCell);
        const float columnWidth = std::max(cell * w, theme.fontPixels * 10.0f);
        ImGui::BeginGroup();
        caption(n, "Input", m_inputImage);
        const auto in = drawImageView("input", m_inputImage, m_colorMapper, input, n.c_str(), cell, theme);
        m_context.probe.record("result.input", in.min, in.max());
        m_context.probe.record("result.data", in.min, in.max(), runDataText(*m_good));
        ImGui::EndGroup();
        if (!m_outputImage.empty()) {
            ImGui::SameLine(0.0f, 0.0f);
            ImGui::SetCursorScreenPos({in.min.x + columnWidth + gap, ImGui::GetItemRectMin().y});
            ImGui::BeginGroup();
            caption(p, "Output", m_outputImage);
            const auto out =
                drawImageView("output", m_outputImage, m_colorMapper, m_output.get(), p.c_str(), cell, theme);
            m_context.probe.record("result.output", out.min, out.max());
            markedWrong = outlineWrong(out, m_good->wrongPixels, theme);
            ImGui::EndGroup();
        }
    }
    legendFor("Input " + n, m_inputImage);
    if (!m_outputImage.empty())
        legendFor("Output " + p, m_outputImage);
    if (markedWrong)
        m_context.legend.addSwatch(theme.palette.problem, kWrongOutputLabel);
}

void ResultPanel::drawStatus() {
    const Theme& theme = m_context.theme;
    ImGui::Spacing();
    const RunProgress progress = m_runner.progress();
    if (progress.busy) {
        char overlay[128];
        const float fraction = progress.blocksTotal
                                   ? static_cast<float>(progress.blocksDone) / static_cast<float>(progress.blocksTotal)
                                   : 0.0f;
        if (progress.blocksTotal)
            std::snprintf(overlay, sizeof overlay, "%s: %u of %u blocks, %.1f s", progress.stage, progress.blocksDone,
                          progress.blocksTotal, progress.seconds);
        else
            std::snprintf(overlay, sizeof overlay, "%s, %.1f s", progress.stage, progress.seconds);
        ImGui::ProgressBar(fraction, {-theme.fontPixels * 6.0f, 0.0f}, overlay);
        ImGui::SameLine();
        if (ImGui::Button("Cancel"))
            m_runner.cancel();
    }
    if (!m_shown) {
        if (!progress.busy)
            ImGui::TextDisabled("Nothing has run yet.");
        return;
    }
    const RunOutcome& o = *m_shown;
    if (!m_run.outcomeIsCurrent() && !progress.busy && m_run.check.runnable())
        ImGui::TextDisabled("(an earlier set-up)");
    if (o.inputError || o.cancelled || o.runError) {
        if (o.inputError)
            problemMessage(theme, m_context.probe, "result.problem.input",
                           "The input could not be read: " + o.inputError->message);
        else if (o.cancelled)
            colouredText(theme.palette.warning, "Cancelled. F5 runs it again.");
        else
            problemMessage(theme, m_context.probe, "result.problem.run", inAppWords(o.runError->message));
        if (m_good && m_good != m_shown && m_run.check.runnable())
            lastGoodNote("Above");
        return;
    }
    if (!o.result)
        return;
    const RunResult& r = *o.result;
    if (!r.gpuFailure.empty())
        problemMessage(theme, m_context.probe, "result.problem.gpu",
                       "The GPU failed: " + r.gpuFailure + ". The CPU executor ran the same launch instead.");
    const char* backend = r.backend == Backend::Cuda ? "CUDA" : "the CPU";
    char ran[320];
    if (r.gpuFailure.empty())
        std::snprintf(ran, sizeof ran, "%s ran on %s (%s) in %.3f ms.", o.job.kernel.c_str(), backend,
                      r.backendReason.c_str(), r.millis);
    else
        std::snprintf(ran, sizeof ran, "%s ran on %s in %.3f ms.", o.job.kernel.c_str(), backend, r.millis);
    ImGui::TextWrapped("%s", ran);
    m_context.probe.record("result.backend", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), ran);
    // Barriers left out: a race demonstration, said in words.
    if (o.job.drop.any()) {
        std::string lines;
        for (std::size_t i = 0; i < o.job.drop.lines.size(); ++i)
            lines += (i == 0                             ? ""
                      : i + 1 == o.job.drop.lines.size() ? " and "
                                                         : ", ") +
                     std::to_string(o.job.drop.lines[i]);
        std::string dropped = o.job.drop.all ? "Every __syncthreads() dropped"
                                             : std::string("__syncthreads() at line") +
                                                   (o.job.drop.lines.size() > 1 ? "s " : " ") + lines + " dropped";
        dropped += ": a race demonstration";
        if (r.backend == Backend::Cpu)
            dropped += std::string(" (warps run ") +
                       (o.job.schedule == Schedule::InOrder   ? "in order"
                        : o.job.schedule == Schedule::Reverse ? "in reverse order"
                                                              : "in a random order") +
                       ")";
        dropped += ".";
        colouredText(theme.palette.warning, dropped);
        m_context.probe.record("result.dropped", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), dropped);
    }
    // A NaN differs by no number at all: the count of wrong outputs decides.
    const bool agrees = o.wrongCount == 0 && o.maxDifference <= o.tolerance;
    char text[320];
    if (o.wrongCount > 0 && o.nanCount == o.wrongCount)
        std::snprintf(text, sizeof text,
                      "\xE2\x9C\x97 %zu of %zu outputs differ from the double-precision reference%s: they are "
                      "not a number.",
                      o.wrongCount, r.output.data.size(), m_wrongMarked ? " (outlined)" : "");
    else if (o.wrongCount > 0)
        std::snprintf(text, sizeof text,
                      "\xE2\x9C\x97 %zu of %zu outputs differ from the double-precision reference%s%s; the "
                      "largest difference is %.3g (float32 rounding allows %.3g).",
                      o.wrongCount, r.output.data.size(), m_wrongMarked ? " (outlined)" : "",
                      o.nanCount ? (", " + std::to_string(o.nanCount) + " of them not a number").c_str() : "",
                      o.largestNumberDifference, o.tolerance);
    else
        std::snprintf(text, sizeof text,
                      "%s Largest difference from the double-precision reference: %.3g (float32 rounding allows %.3g).",
                      agrees ? "\xE2\x9C\x93" : "\xE2\x9C\x97", o.maxDifference, o.tolerance);
    colouredText(agrees ? theme.palette.good : theme.palette.error, text);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    m_context.probe.record("result.status", a, b, text);
}

}  // namespace tilescope::ui
