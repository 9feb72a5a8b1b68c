#include "ui/trace_draw.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "model/memory_view.hpp"
#include "model/trace_session.hpp"
#include "ui/diagram_canvas.hpp"
#include "ui/image_view.hpp"
#include "ui/layout_probe.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

ImU32 ValueMapping::colour(float value) const {
    const gfx::Rgb8 c = gfx::colourOfValue(map, value, low, high);
    return IM_COL32(c.r, c.g, c.b, 255);
}

ValueMapping mappingOf(std::span<const float> values) {
    // Over the values that are numbers (a race can leave NaN behind).
    float lo = INFINITY, hi = -INFINITY;
    for (float v : values)
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (lo > hi)
        return {};
    if (lo < 0.0f) {
        const float m = std::max(std::abs(lo), std::abs(hi));
        return {gfx::ColorMap::Diverging, -m, m};
    }
    if (hi - lo < 1e-12f)
        return {gfx::ColorMap::Sequential, lo - 0.5f, hi + 0.5f};
    return {gfx::ColorMap::Sequential, lo, hi};
}

ImU32 textOver(ImU32 fill) {
    const gfx::Rgb8 c{static_cast<std::uint8_t>(fill & 0xff), static_cast<std::uint8_t>((fill >> 8) & 0xff),
                      static_cast<std::uint8_t>((fill >> 16) & 0xff)};
    return gfx::luminance(c) > 0.35f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

ImU32 withAlpha(ImU32 colour, int alpha) {
    return (colour & ~IM_COL32_A_MASK) | (static_cast<ImU32>(alpha) << IM_COL32_A_SHIFT);
}

ImU32 stateColour(const Palette& p, ThreadState state) {
    switch (state) {
        case ThreadState::NotStarted:
            return IM_COL32(200, 200, 200, 255);
        case ThreadState::Loading:
            return p.inputTile;
        case ThreadState::Computing:
            return p.outputTile;
        case ThreadState::WaitingAtBarrier:
        case ThreadState::AtBarrier:
            return p.barrier;
        case ThreadState::SwitchedOff:
            return p.switchedOff;
        case ThreadState::Idle:
            return IM_COL32(60, 60, 60, 255);
        case ThreadState::Done:
            return p.loadedByBlock;
        case ThreadState::IdleLane:
            return IM_COL32(0, 0, 0, 0);
    }
    return IM_COL32(0, 0, 0, 0);
}

void cellLabel(ImDrawList* draw, const Theme& theme, ImVec2 a, ImVec2 b, const char* text, ImU32 colour) {
    ImFont* font = theme.mono ? theme.mono : ImGui::GetFont();
    DrawListCanvas canvas(draw, font);
    cellLabel(canvas, theme.fontPixels, a, b, text, colour);
}

namespace {
// Stepping by warp request: which of the warp's requests the views show, and what it moves.
void drawRequestLine(TraceSession& session, LayoutProbe& probe) {
    const BlockRequests* all = session.requests();
    if (!all)
        return;
    const unsigned warp = session.selectedThread() / kWarpSize;
    const std::vector<std::uint32_t>& list = all->ofWarp(warp);
    const std::optional<std::uint32_t> current = session.currentRequest();
    std::string text;
    std::string record;
    if (!current) {
        text = "warp " + std::to_string(warp) + ": " + std::to_string(list.size()) + " requests; > shows the first";
    } else {
        const auto at = std::find(list.begin(), list.end(), *current) - list.begin();
        const WarpRequest& r = all->request(*current);
        const Trace& trace = all->replay().trace();
        std::string what = r.space == RequestSpace::Global   ? sectorSummary(r)
                           : r.space == RequestSpace::Shared ? wavefrontSummary(r)
                                                             : constantSummary(r);
        text = "warp " + std::to_string(warp) + ", request " + std::to_string(at + 1) + " of " +
               std::to_string(list.size()) + ": " + requestName(trace, r) + ", line " + std::to_string(r.line) + ": " +
               what;
        // For tests: "<index in the warp's list> <its length> <request> <step> <line>".
        record = std::to_string(at) + " " + std::to_string(list.size()) + " " + std::to_string(*current) + " " +
                 std::to_string(r.step) + " " + std::to_string(r.line);
    }
    ImGui::TextWrapped("%s", text.c_str());
    probe.record("trace.request", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                 record.empty() ? "none " + std::to_string(list.size()) : record);
}

// What a step-through panel says when it has no trace to show.
void noTraceText(const TraceSession& session) {
    const std::string status = session.status();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", status.empty() ? "no trace yet" : status.c_str());
    ImGui::PopStyleColor();
}
}  // namespace

bool drawSteppingBar(TraceSession& session, const Theme& theme, LayoutProbe& probe) {
    const BlockReplay* replay = session.replay();
    if (!replay) {
        if (session.busy()) {
            noTraceText(session);
        } else if (const std::string status = session.status(); !status.empty()) {
            problemMessage(theme, probe, "trace.problem", status);
        } else {
            noTraceText(session);
        }
        return false;
    }
    // The buttons in one row, or as many rows as the panel's width needs.
    const ImGuiStyle& style = ImGui::GetStyle();
    bool first = true;
    auto button = [&](const char* label) {
        const float w = ImGui::CalcTextSize(label).x + style.FramePadding.x * 2.0f;
        // Measured against the room left on the row after this one is placed.
        if (!first) {
            ImGui::SameLine();
            if (ImGui::GetContentRegionAvail().x < w)
                ImGui::NewLine();
        }
        first = false;
        return ImGui::Button(label);
    };
    if (button("|<"))
        session.home();
    if (button("<<"))
        session.previousPhase();
    if (button("<"))
        session.stepBack();
    if (button(session.playing() ? "Pause" : "Play"))
        session.setPlaying(!session.playing());
    if (button(">"))
        session.stepForward();
    if (button(">>"))
        session.nextPhase();
    if (button(">|"))
        session.end();
    if (button("thread's next"))
        session.nextOfThread();
    const char* names[] = {"step", "warp", "event", "request"};
    int g = static_cast<int>(session.granularity());
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 6.0f)
        ImGui::NewLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    if (ImGui::Combo("##granularity", &g, names, 4))
        session.granularity() = static_cast<Granularity>(g);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "what > and < move by: a step of every thread, one warp's part of a step, one event, or one memory "
            "request of the selected thread's warp");
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 7.0f)
        ImGui::NewLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
    ImGui::SliderFloat("##speed", &session.speed(), 1.0f, 200.0f, "%.0f /s", ImGuiSliderFlags_Logarithmic);

    const Cursor c = session.cursor();
    int position = static_cast<int>(c);
    const std::uint32_t step = c >= replay->size() ? replay->stepCount() : replay->stepAt(c);
    const std::uint32_t phase = c >= replay->size() ? replay->phaseCount() : replay->step(step).phase;
    // Where the trace was recorded: the instrumented kernel on the GPU, or the CPU executor.
    const bool onGpu = replay->trace().backend == "cuda";
    char label[160];
    std::snprintf(label, sizeof label, "step %u/%u  phase %u  event %u/%u%s", step, replay->stepCount(), phase, c,
                  replay->size(), onGpu ? "  (traced on the GPU)" : "");
    // In a narrow panel (lecture mode's large type) the words go above the
    // slider, wrapped, rather than be cut off inside it.
    const bool fits = ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2.0f <=
                      ImGui::GetContentRegionAvail().x;
    if (!fits)
        ImGui::TextWrapped("%s", label);
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::SliderInt("##cursor", &position, 0, static_cast<int>(replay->size()), fits ? label : ""))
        session.setCursor(0, static_cast<Cursor>(position));
    // The cursor and the block, for tests: "<cursor> <block index>".
    probe.record("trace.cursor", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                 std::to_string(c) + " " + std::to_string(replay->blockIndex()));
    probe.record("trace.backend", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), replay->trace().backend);
    // The step and the phase, for tests: "<step> <steps> <phase> <phases>".
    probe.record("trace.step", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                 std::to_string(step) + " " + std::to_string(replay->stepCount()) + " " + std::to_string(phase) + " " +
                     std::to_string(replay->phaseCount()));
    if (session.granularity() == Granularity::WarpRequest)
        drawRequestLine(session, probe);
    if (const std::string note = session.note(); !note.empty()) {
        colouredText(theme.palette.warning, note);
        probe.record("trace.note", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), note);
    }
    return true;
}

void stackRuns(TraceSession& session, const Theme& theme, const std::function<void(int, float)>& draw) {
    const int runs = session.runCount();
    const float gap = ImGui::GetStyle().ItemSpacing.y * 2.0f;
    const float share =
        (ImGui::GetContentRegionAvail().y - gap * static_cast<float>(runs - 1)) / static_cast<float>(runs);
    for (int i = 0; i < runs; ++i) {
        if (i > 0)
            ImGui::Dummy({0.0f, gap * 0.5f});
        ImGui::PushID(i);
        const float top = ImGui::GetCursorScreenPos().y;
        if (session.comparing()) {
            pushHeadingFont(theme);
            ImGui::TextUnformatted(session.run(i).kernel.c_str());
            ImGui::PopFont();
        }
        draw(i, share - (ImGui::GetCursorScreenPos().y - top));
        ImGui::PopID();
    }
}

bool beginStepThroughPanel(const char* title, bool* open, bool ready, const TraceSession& session,
                           ImGuiWindowFlags flags) {
    if (!ImGui::Begin(title, open, flags)) {
        ImGui::End();
        return false;
    }
    if (!ready) {
        noTraceText(session);
        ImGui::End();
        return false;
    }
    return true;
}

// [SECTION] The selected problem

int homeSharedElement(const BlockReplay& replay, unsigned thread) {
    for (const Event& e : replay.threadEvents(thread))
        if (e.op == Op::Store && e.array == kArrayShared)
            return e.index;
    return -1;
}

std::optional<ArrayInfo::Coords> homeInputCell(const BlockReplay& replay, unsigned thread) {
    const Trace& trace = replay.trace();
    if (const int shared = homeSharedElement(replay, thread); shared >= 0 && shared < replay.sharedSize()) {
        ArrayInfo::Coords c{};
        replay.sharedCell(shared, c.x, c.y);
        return c;
    }
    for (const Event& e : replay.threadEvents(thread))
        if (e.op == Op::Load && e.array == kArrayInput && e.index >= 0 && e.index < trace.arrays[kArrayInput].size)
            return trace.arrays[kArrayInput].coords(e.index);
    if (const int output = replay.thread(thread).output; output >= 0)
        return trace.arrays[kArrayOutput].coords(output);
    return std::nullopt;
}

std::string threadName(const BlockReplay& replay, unsigned thread) {
    const Dim3 c = replay.threadCoords(thread);
    if (replay.trace().dims() == 1)
        return std::to_string(c.x);
    return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
}

ProblemThreads problemThreads(const ProblemReport& p, const BlockReplay& replay) {
    ProblemThreads t;
    auto of = [&](const ProblemAccess& a) -> std::optional<unsigned> {
        if (a.valid() && a.block == replay.blockIndex() && a.thread < replay.threadCount())
            return a.thread;
        return std::nullopt;
    };
    t.first = of(p.first);
    t.second = of(p.second);
    return t;
}

void problemOutline(ImDrawList* draw, const Theme& theme, ImVec2 a, ImVec2 b, ImU32 colour, float thickness) {
    DrawListCanvas canvas(draw, theme.mono);
    problemOutline(canvas, theme, a, b, colour, thickness);
}

void wrongOutputMark(ImDrawList* draw, const Theme& theme, ImVec2 a, ImVec2 b) {
    // On whole pixels: a frame two pixels wide stays crisp.
    a = {std::floor(a.x + 0.5f), std::floor(a.y + 0.5f)};
    b = {std::floor(b.x + 0.5f), std::floor(b.y + 0.5f)};
    const float cell = b.x - a.x;
    const float thick = std::clamp(cell * 0.2f, 2.0f, std::max(3.0f, theme.lineWidth * 3.0f));
    if (cell < 3.0f * thick) {
        draw->AddRectFilled(a, b, theme.palette.problem);
        return;
    }
    const float h = thick * 0.5f;
    draw->AddRect({a.x + h, a.y + h}, {b.x - h, b.y - h}, theme.palette.problem, 0.0f, thick);
}

namespace {
// ImGui fills anti-aliased polygons wound clockwise (on screen, y down).
void triangle(ImDrawList* draw, ImVec2 a, ImVec2 b, ImVec2 c, ImU32 colour) {
    const float cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    if (cross < 0.0f)
        std::swap(b, c);
    draw->AddTriangleFilled(a, b, c, colour);
}
}  // namespace

void problemArrow(ImDrawList* draw, const Theme& theme, ImVec2 from, ImVec2 to, float thickness) {
    const float dx = to.x - from.x, dy = to.y - from.y;
    const float length = std::sqrt(dx * dx + dy * dy);
    if (length < 1.0f)
        return;
    const ImVec2 u{dx / length, dy / length}, n{-u.y, u.x};
    const float head = std::min(std::max(thickness * 3.5f, 9.0f), length * 0.6f);
    const ImVec2 base{to.x - u.x * head, to.y - u.y * head};
    const ImVec2 left{base.x + n.x * head * 0.5f, base.y + n.y * head * 0.5f};
    const ImVec2 right{base.x - n.x * head * 0.5f, base.y - n.y * head * 0.5f};
    const float casing = std::max(1.0f, theme.lineWidth);
    const ImU32 under = theme.palette.problemCasing, over = theme.palette.problemArrow;
    // The casing: the shaft and the head, a little larger, underneath.
    draw->AddLine(from, base, under, thickness + 2.0f * casing);
    const ImVec2 tip{to.x + u.x * casing * 1.5f, to.y + u.y * casing * 1.5f};
    const ImVec2 left2{left.x + (n.x - u.x) * casing * 1.5f, left.y + (n.y - u.y) * casing * 1.5f};
    const ImVec2 right2{right.x + (-n.x - u.x) * casing * 1.5f, right.y + (-n.y - u.y) * casing * 1.5f};
    triangle(draw, tip, left2, right2, under);
    draw->AddCircleFilled(from, thickness * 0.5f + casing, under);
    draw->AddLine(from, base, over, thickness);
    triangle(draw, to, left, right, over);
    draw->AddCircleFilled(from, thickness * 0.5f, over);
}

}  // namespace tilescope::ui
