#include "ui/trace_draw.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "ui/image_view.hpp"
#include "ui/layout_probe.hpp"
#include "ui/trace_session.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

ImU32 ValueMapping::colour(float value) const {
    const gfx::Rgb8 c = gfx::colourOfValue(map, value, low, high);
    return IM_COL32(c.r, c.g, c.b, 255);
}

ValueMapping mappingOf(std::span<const float> values) {
    if (values.empty())
        return {};
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    if (*lo < 0.0f) {
        const float m = std::max(std::abs(*lo), std::abs(*hi));
        return {gfx::ColorMap::Diverging, -m, m};
    }
    if (*hi - *lo < 1e-12f)
        return {gfx::ColorMap::Sequential, *lo - 0.5f, *hi + 0.5f};
    return {gfx::ColorMap::Sequential, *lo, *hi};
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
    const float size = std::min(font->FontSize, (b.y - a.y) * 0.6f);
    const ImVec2 extent = font->CalcTextSizeA(size, 1e9f, 0.0f, text);
    if (extent.x > (b.x - a.x) * 0.92f)
        return;
    draw->AddText(font, size, {(a.x + b.x - extent.x) * 0.5f, (a.y + b.y - extent.y) * 0.5f}, colour, text);
}

namespace {
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
    if (ImGui::Button("|<"))
        session.home();
    ImGui::SameLine();
    if (ImGui::Button("<<"))
        session.previousPhase();
    ImGui::SameLine();
    if (ImGui::Button("<"))
        session.stepBack();
    ImGui::SameLine();
    if (ImGui::Button(session.playing() ? "Pause" : "Play"))
        session.setPlaying(!session.playing());
    ImGui::SameLine();
    if (ImGui::Button(">"))
        session.stepForward();
    ImGui::SameLine();
    if (ImGui::Button(">>"))
        session.nextPhase();
    ImGui::SameLine();
    if (ImGui::Button(">|"))
        session.end();
    ImGui::SameLine();
    if (ImGui::Button("thread's next"))
        session.nextOfThread();
    ImGui::SameLine();
    const char* names[] = {"step", "warp", "event"};
    int g = static_cast<int>(session.granularity());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.0f);
    if (ImGui::Combo("##granularity", &g, names, 3))
        session.granularity() = static_cast<Granularity>(g);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.0f);
    ImGui::SliderFloat("##speed", &session.speed(), 1.0f, 200.0f, "%.0f /s", ImGuiSliderFlags_Logarithmic);

    const Cursor c = session.cursor();
    int position = static_cast<int>(c);
    const std::uint32_t step = c >= replay->size() ? replay->stepCount() : replay->stepAt(c);
    const std::uint32_t phase = c >= replay->size() ? replay->phaseCount() : replay->step(step).phase;
    char label[128];
    std::snprintf(label, sizeof label, "step %u/%u  phase %u  event %u/%u", step, replay->stepCount(), phase, c,
                  replay->size());
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::SliderInt("##cursor", &position, 0, static_cast<int>(replay->size()), label))
        session.setCursor(0, static_cast<Cursor>(position));
    if (const std::string note = session.note(); !note.empty()) {
        colouredText(theme.palette.warning, note);
        probe.record("trace.note", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), note);
    }
    return true;
}

void stackRuns(TraceSession& session, ImFont* heading, const std::function<void(int, float)>& draw) {
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
            ImGui::PushFont(heading);
            ImGui::TextUnformatted(session.run(i).kernel.c_str());
            ImGui::PopFont();
        }
        draw(i, share - (ImGui::GetCursorScreenPos().y - top));
        ImGui::PopID();
    }
}

bool beginStepThroughPanel(const char* title, bool* open, bool ready, const TraceSession& session) {
    if (!ImGui::Begin(title, open)) {
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

}  // namespace tilescope::ui
