#include "ui/panel_shared.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/app.hpp"
#include "ui/image_view.hpp"
#include "ui/panel_legend.hpp"
#include "ui/trace_draw.hpp"
#include "ui/trace_session.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

void SharedPanel::draw(bool* open) {
    TraceSession& session = m_app.traceSession();
    const TracedRun& first = session.run(0);
    if (!beginStepThroughPanel("Shared and constant memory###shared", open, session.replay() && first.outcome, session))
        return;
    // In compare mode each kernel's tile and mask, one above the other.
    Seen seen;
    stackRuns(session, m_app.theme(), [&](int i, float share) { drawRun(i, share, seen); });
    const Palette& palette = m_app.theme().palette;
    if (seen.ghostZero && !m_app.panels().grid)
        m_app.legend().addSwatch(palette.ghost, "ghost, stored 0");
    if (seen.unwritten)
        m_app.legend().addSwatch(IM_COL32(40, 40, 40, 255), "shared, not written yet");
    if (seen.problemElement)
        m_app.legend().addSwatch(palette.problem, kProblemElementLabel);
    if (seen.problemArrow)
        m_app.legend().addSwatch(palette.problemArrow, kProblemThreadsLabel);
    m_app.probe().recordWindow("shared.window");
    ImGui::End();
}

void SharedPanel::drawRun(int i, float height, Seen& seen) {
    TraceSession& session = m_app.traceSession();
    const float top = ImGui::GetCursorScreenPos().y;
    const BlockReplay* replay = session.replay(i);
    const TracedRun& run = session.run(i);
    if (!replay || !run.outcome) {
        ImGui::TextDisabled("no trace yet");
        return;
    }
    const Theme& theme = m_app.theme();
    const Palette& palette = theme.palette;
    const Cursor cursor = session.cursor(i);
    const Trace& trace = replay->trace();
    const BlockGeometry& g = replay->geometry();
    const ValueMapping mapping = run.outcome->input ? mappingOf(run.outcome->input->data) : ValueMapping{};
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 avail{ImGui::GetContentRegionAvail().x, height - (ImGui::GetCursorScreenPos().y - top)};

    // The shared tile.
    const int size = replay->sharedSize();
    if (size <= 0) {
        ImGui::TextWrapped("%s uses no shared memory: every tap is a load from global memory (or the cache).",
                           trace.kernel.c_str());
    } else {
        const int columns = std::max(1, g.inputTile.width());
        const int rows = (size + columns - 1) / columns;
        ImGui::TextWrapped("%s: %d x %d floats, %d of them written so far", trace.arrays[kArrayShared].name.c_str(), columns,
                    rows, [&] {
                        int written = 0;
                        for (int i = 0; i < size; ++i)
                            written += replay->sharedAt(i, cursor).has_value();
                        return written;
                    }());
        const float cell =
            std::clamp(std::min(avail.x / static_cast<float>(columns), avail.y * 0.6f / static_cast<float>(rows)), 3.0f,
                       theme.fontPixels * 3.2f);
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        ImGui::Dummy({cell * static_cast<float>(columns), cell * static_cast<float>(rows)});
        const float band = std::max(2.0f, cell * 0.18f);
        for (int i = 0; i < size; ++i) {
            const ImVec2 a{origin.x + cell * static_cast<float>(i % columns),
                           origin.y + cell * static_cast<float>(i / columns)};
            const ImVec2 b{a.x + cell, a.y + cell};
            const auto held = replay->sharedAt(i, cursor);
            if (!held) {
                seen.unwritten = true;
                draw->AddRectFilled(a, b, IM_COL32(40, 40, 40, 255));
                draw->AddRect(a, b, palette.cellGrid);
                continue;
            }
            const bool ghost = held->source < 0;
            seen.ghostZero |= ghost;
            const ImU32 fill = ghost ? palette.ghost : mapping.colour(held->value);
            draw->AddRectFilled(a, b, fill);
            if (!ghost && held->kind == CellKind::Halo)
                draw->AddRect({a.x + band * 0.5f, a.y + band * 0.5f}, {b.x - band * 0.5f, b.y - band * 0.5f},
                              palette.halo, 0.0f, band);
            draw->AddRect(a, b, palette.cellGrid);
            if (cell >= theme.fontPixels * 1.8f)
                cellLabel(draw, theme, a, b, shortValue(held->value).c_str(), textOver(fill));
        }
        m_app.probe().record(i == 0 ? "shared.cell0" : "shared.cell0." + std::to_string(i), origin,
                             {origin.x + cell, origin.y + cell}, std::to_string(columns));

        // The selected problem, when it is in this block (run 0: the problems are the set-up kernel's).
        const ProblemReport* problem = i == 0 ? session.selectedProblem() : nullptr;
        const ProblemThreads threads = problem ? problemThreads(*problem, *replay) : ProblemThreads{};
        if (problem && threads.any()) {
            auto cellMin = [&](int e) {
                return ImVec2{origin.x + cell * static_cast<float>(e % columns),
                              origin.y + cell * static_cast<float>(e / columns)};
            };
            auto centre = [&](int e) {
                const ImVec2 a = cellMin(e);
                return ImVec2{a.x + cell * 0.5f, a.y + cell * 0.5f};
            };
            const float thick = std::max(2.0f, std::min(cell * 0.2f, theme.lineWidth * 3.0f));
            const int element =
                problem->array == kArrayShared && problem->index >= 0 && problem->index < size ? problem->index : -1;
            if (element >= 0) {
                const ImVec2 a = cellMin(element);
                problemOutline(draw, theme, a, {a.x + cell, a.y + cell}, palette.problem, thick);
                m_app.probe().record("shared.problem.element", a, {a.x + cell, a.y + cell},
                                     elementName(trace, kArrayShared, element));
                seen.problemElement = true;
            }
            // From the first access's thread to the second's, each at its own element.
            const int from = threads.first ? homeSharedElement(*replay, *threads.first) : -1;
            const int to = threads.second ? homeSharedElement(*replay, *threads.second) : -1;
            const int a = from >= 0 ? from : element, b = to >= 0 ? to : element;
            if (a >= 0 && b >= 0 && a < size && b < size && a != b) {
                problemArrow(draw, theme, centre(a), centre(b), thick);
                m_app.probe().record("shared.problem.arrow", centre(a), centre(b));
                seen.problemArrow = true;
            }
            if (element >= 0 || seen.problemArrow) {
                std::string caption = element >= 0 ? elementName(trace, kArrayShared, element) : std::string();
                if (threads.first && threads.second && *threads.first != *threads.second)
                    caption += (caption.empty() ? "" : ": ") + std::string("thread ") +
                               threadName(*replay, *threads.first) + " \xE2\x86\x92 " +
                               threadName(*replay, *threads.second);
                colouredText(ImGui::ColorConvertU32ToFloat4(palette.problem), caption);
            }
        }
    }

    // The mask, with the tap in use.
    ImGui::Spacing();
    const Mask& mask = run.outcome->job.mask;
    int tap = -1;
    {
        // The thread's latest load of the mask in this phase of its work
        // (the multiply-add that follows uses it).
        const auto done = replay->threadEventsBefore(session.selectedThread(i), cursor);
        for (auto it = done.rbegin(); it != done.rend(); ++it) {
            if (it->op == Op::Barrier)
                break;
            if (it->array == kArrayMask && it->op == Op::Load) {
                tap = it->index;
                break;
            }
        }
    }
    ImGui::TextWrapped("mask %s (%s memory)%s", trace.arrays[kArrayMask].name.c_str(),
                trace.arrays[kArrayMask].space == Space::Constant ? "constant" : "global",
                tap >= 0 ? ": the tap in use outlined" : "");
    if (mask.width > 0) {
        const ValueMapping maskMap = mappingOf(mask.values);
        const float left = height - (ImGui::GetCursorScreenPos().y - top);
        const float cell = std::clamp(std::min(ImGui::GetContentRegionAvail().x / static_cast<float>(mask.width),
                                               left / static_cast<float>(mask.height)),
                                      4.0f, theme.fontPixels * 2.6f);
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        ImGui::Dummy({cell * static_cast<float>(mask.width), cell * static_cast<float>(mask.height)});
        for (int i = 0; i < static_cast<int>(mask.values.size()); ++i) {
            const ImVec2 a{origin.x + cell * static_cast<float>(i % mask.width),
                           origin.y + cell * static_cast<float>(i / mask.width)};
            const ImVec2 b{a.x + cell, a.y + cell};
            const ImU32 fill = maskMap.colour(mask.values[static_cast<std::size_t>(i)]);
            draw->AddRectFilled(a, b, fill);
            draw->AddRect(a, b, palette.cellGrid);
            if (cell >= theme.fontPixels * 1.8f)
                cellLabel(draw, theme, a, b, shortValue(mask.values[static_cast<std::size_t>(i)]).c_str(),
                          textOver(fill));
            if (i == tap)
                draw->AddRect({a.x + 1, a.y + 1}, {b.x - 1, b.y - 1}, palette.selection, 0.0f,
                              std::max(3.0f, theme.lineWidth * 3.0f));
        }
    }
}

}  // namespace tilescope::ui
