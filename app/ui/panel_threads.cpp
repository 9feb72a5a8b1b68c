#include "ui/panel_threads.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "model/lesson_player.hpp"
#include "model/trace_session.hpp"
#include "ui/cell_picture.hpp"
#include "ui/layout_probe.hpp"
#include "ui/lesson_draw.hpp"
#include "ui/panel_legend.hpp"
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"

namespace tilescope::ui {

void ThreadsPanel::draw(bool* open) {
    TraceSession& session = m_session;
    if (!beginStepThroughPanel("Threads###threads", open, session.replay() != nullptr, session))
        return;
    // In compare mode each kernel's block, one above the other, stepping together.
    bool seen[16] = {};
    m_problemShown = false;
    stackRuns(session, m_context.theme, [&](int i, float share) { drawRun(i, share, seen); });

    LegendPanel& legend = m_context.legend;
    const Palette& palette = m_context.theme.palette;
    const ThreadState shown[] = {ThreadState::Loading,   ThreadState::Computing,        ThreadState::SwitchedOff,
                                 ThreadState::Idle,      ThreadState::WaitingAtBarrier, ThreadState::Done,
                                 ThreadState::NotStarted};
    for (ThreadState s : shown) {
        const bool on = seen[static_cast<int>(s)] ||
                        (s == ThreadState::WaitingAtBarrier && seen[static_cast<int>(ThreadState::AtBarrier)]);
        if (on)
            legend.addSwatch(stateColour(palette, s), std::string("thread ") + threadStateName(s));
    }
    if (m_problemShown)
        legend.addSwatch(palette.problemArrow, kProblemThreadsLabel);
    if (const LessonMarks* marks = m_lessons.marks(); marks && !marks->threads.empty())
        legend.addSwatch(palette.pointer, "the lesson points here (brackets)");
    m_context.probe.recordWindow("threads.window");
    ImGui::End();
}

void ThreadsPanel::drawRun(int i, float height, bool (&seen)[16]) {
    TraceSession& session = m_session;
    const float top = ImGui::GetCursorScreenPos().y;
    const BlockReplay* replay = session.replay(i);
    if (!replay) {
        ImGui::TextDisabled("no trace yet");
        return;
    }
    const Theme& theme = m_context.theme;
    const Palette& palette = theme.palette;
    const Cursor cursor = session.cursor(i);
    const Trace& trace = replay->trace();
    const bool twoD = trace.dims() == 2;
    const unsigned columns = twoD ? trace.plan.block.x : kWarpSize;  // 1D: a row per warp
    const unsigned lanes = replay->laneCount();
    const unsigned rows = (lanes + columns - 1) / columns;
    const unsigned selected = session.selectedThread(i);
    const Dim3 sc = replay->threadCoords(selected);
    // One short line: the block's threads and the selected one's state.
    if (twoD)
        ImGui::TextWrapped("%u threads, %u warps; (%u,%u): %s", replay->threadCount(), replay->warpCount(), sc.x, sc.y,
                    threadStateName(replay->threadState(selected, cursor)));
    else
        ImGui::TextWrapped("%u threads, %u warps; %u: %s", replay->threadCount(), replay->warpCount(), sc.x,
                    threadStateName(replay->threadState(selected, cursor)));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("block (%u,%u); click a thread to select it", replay->block().x, replay->block().y);
    const ImVec2 space{ImGui::GetContentRegionAvail().x, height - (ImGui::GetCursorScreenPos().y - top)};
    const float cell = std::clamp(std::min(space.x / static_cast<float>(columns), space.y / static_cast<float>(rows)),
                                  3.0f, theme.fontPixels * 3.0f);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##threads", {cell * static_cast<float>(columns), cell * static_cast<float>(rows)});
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    auto at = [&](unsigned lane) {
        return ImVec2{origin.x + cell * static_cast<float>(lane % columns),
                      origin.y + cell * static_cast<float>(lane / columns)};
    };
    // The cells as one picture, made again only when a thread's state (or the zoom, or the theme) changes.
    std::vector<CellLook>& looks = m_looks;
    looks.assign(lanes, CellLook{});
    bool idleLanes = false, labels = false;
    const bool roomForLabels = cell >= theme.fontPixels * 1.4f;
    for (unsigned lane = 0; lane < lanes; ++lane) {
        const ThreadState state = replay->threadState(lane, cursor);
        seen[static_cast<int>(state)] = true;
        idleLanes |= state == ThreadState::IdleLane;
        labels |= roomForLabels && (state == ThreadState::Loading || state == ThreadState::Computing);
        if (state != ThreadState::IdleLane)
            looks[lane].fill = stateColour(palette, state);
    }
    m_pictures[static_cast<std::size_t>(i)].draw(draw, origin, cell, static_cast<int>(columns), looks,
                                                 palette.cellGrid, 0.0f);
    // Over a few cells: the idle lanes of the last warp hatched, and what each
    // thread does right now where there is room: L(oad), C(ompute).
    for (unsigned lane = 0; (idleLanes || labels) && lane < lanes; ++lane) {
        const ImVec2 a = at(lane), b{a.x + cell, a.y + cell};
        if (looks[lane].fill == 0) {
            draw->AddRect({a.x + 1, a.y + 1}, {b.x - 1, b.y - 1}, palette.cellGrid);
            draw->AddLine({a.x + 2, b.y - 2}, {b.x - 2, a.y + 2}, palette.cellGrid);
            continue;
        }
        if (!labels)
            continue;
        const ThreadState state = replay->threadState(lane, cursor);
        if (state == ThreadState::Loading || state == ThreadState::Computing)
            cellLabel(draw, theme, a, b, state == ThreadState::Loading ? "L" : "C", textOver(looks[lane].fill));
    }
    // Warps: a line wherever a neighbour belongs to another warp, and round the edge.
    const float thick = std::min(std::max(2.0f, theme.lineWidth * 2.5f), std::max(1.0f, cell * 0.2f));
    const ImU32 warpLine = palette.frame;
    if (kWarpSize % columns == 0 || columns % kWarpSize == 0) {
        // Each warp is a rectangle (whole rows, or a run within a row): one outline each.
        for (unsigned first = 0; first < lanes; first += kWarpSize) {
            const ImVec2 a = at(first), last = at(std::min(first + kWarpSize, lanes) - 1);
            draw->AddRect(a, {last.x + cell, last.y + cell}, warpLine, 0.0f, thick);
        }
    } else {
        // Otherwise a line wherever a neighbour belongs to another warp, and round the edge.
        for (unsigned lane = 0; lane < lanes; ++lane) {
            const unsigned warp = lane / kWarpSize;
            const ImVec2 a = at(lane), b{a.x + cell, a.y + cell};
            const unsigned col = lane % columns;
            if (col + 1 == columns || lane + 1 >= lanes || (lane + 1) / kWarpSize != warp)
                draw->AddLine({b.x, a.y}, {b.x, b.y}, warpLine, thick);
            if (col == 0 || (lane - 1) / kWarpSize != warp)
                draw->AddLine({a.x, a.y}, {a.x, b.y}, warpLine, thick);
            if (lane + columns >= lanes || (lane + columns) / kWarpSize != warp)
                draw->AddLine({a.x, b.y}, {b.x, b.y}, warpLine, thick);
            if (lane < columns || (lane - columns) / kWarpSize != warp)
                draw->AddLine({a.x, a.y}, {b.x, a.y}, warpLine, thick);
        }
    }
    {
        const ImVec2 a = at(selected);
        draw->AddRect({a.x - 1, a.y - 1}, {a.x + cell + 1, a.y + cell + 1}, palette.selection, 0.0f, thick * 1.2f);
    }
    // The threads a lesson step points at (by threadIdx).
    if (const LessonMarks* marks = i == 0 ? m_lessons.marks() : nullptr) {
        int k = 0;
        for (const Cell& c : marks->threads) {
            const unsigned lane = static_cast<unsigned>(c[0]) + trace.plan.block.x * static_cast<unsigned>(c[1]);
            if (lane >= replay->threadCount())
                continue;
            const ImVec2 a = at(lane), b{a.x + cell, a.y + cell};
            pointerBrackets(draw, theme, a, b);
            m_context.probe.record("threads.point." + std::to_string(k++), a, b,
                                 std::to_string(c[0]) + "," + std::to_string(c[1]));
        }
    }
    m_context.probe.record(i == 0 ? "threads.cell0" : "threads.cell0." + std::to_string(i), at(0),
                         {at(0).x + cell, at(0).y + cell}, std::to_string(columns));

    // The selected problem's threads, when they are of this block: ringed,
    // and an arrow from the first access's thread to the second's.
    const ProblemReport* problem = i == 0 ? session.selectedProblem() : nullptr;
    const ProblemThreads marked = problem ? problemThreads(*problem, *replay) : ProblemThreads{};
    if (marked.any()) {
        const float ring = std::max(2.0f, std::min(cell * 0.2f, theme.lineWidth * 3.0f));
        auto centre = [&](unsigned t) {
            const ImVec2 a = at(t);
            return ImVec2{a.x + cell * 0.5f, a.y + cell * 0.5f};
        };
        for (const auto& [t, name] :
             {std::pair{marked.first, "threads.problem.first"}, std::pair{marked.second, "threads.problem.second"}}) {
            if (!t)
                continue;
            const ImVec2 a = at(*t);
            problemOutline(draw, theme, a, {a.x + cell, a.y + cell}, palette.problemArrow, ring);
            m_context.probe.record(name, a, {a.x + cell, a.y + cell}, threadName(*replay, *t));
        }
        if (marked.first && marked.second && *marked.first != *marked.second)
            problemArrow(draw, theme, centre(*marked.first), centre(*marked.second), ring);
        m_problemShown = true;
    }

    if (hovered) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        const unsigned col = static_cast<unsigned>((m.x - origin.x) / cell);
        const unsigned row = static_cast<unsigned>((m.y - origin.y) / cell);
        const unsigned lane = row * columns + col;
        if (col < columns && lane < lanes) {
            ImGui::BeginTooltip();
            if (lane < replay->threadCount()) {
                const Dim3 c = replay->threadCoords(lane);
                if (twoD)
                    ImGui::Text("thread (%u,%u), warp %u, lane %u", c.x, c.y, lane / kWarpSize, lane % kWarpSize);
                else
                    ImGui::Text("thread %u, warp %u, lane %u", c.x, lane / kWarpSize, lane % kWarpSize);
                ImGui::Text("%s; over the launch: %s", threadStateName(replay->threadState(lane, cursor)),
                            threadRoleName(replay->thread(lane).role));
            } else {
                ImGui::Text("lane %u of warp %u: no thread (the block has %u)", lane % kWarpSize, lane / kWarpSize,
                            replay->threadCount());
            }
            ImGui::EndTooltip();
            if (clicked && lane < replay->threadCount())
                session.selectThread(i, lane);
        }
    }
}

}  // namespace tilescope::ui
