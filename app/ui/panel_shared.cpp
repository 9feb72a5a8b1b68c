#include "ui/panel_shared.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/memory_view.hpp"
#include "model/trace_session.hpp"
#include "ui/cell_picture.hpp"
#include "ui/grid_diagram.hpp"
#include "ui/image_view.hpp"
#include "ui/layout_probe.hpp"
#include "ui/panel_legend.hpp"
#include "ui/theme.hpp"
#include "ui/trace_draw.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

void SharedPanel::draw(bool* open) {
    TraceSession& session = m_session;
    const TracedRun& first = session.run(0);
    if (!beginStepThroughPanel("Shared and constant memory###shared", open, session.replay() && first.outcome, session))
        return;
    // Stepping by warp request shows the banks; stepping otherwise, the values.
    if (const Granularity g = session.granularity(); g != m_granularity) {
        if (g == Granularity::WarpRequest)
            m_bankColours = true;
        else if (m_granularity == Granularity::WarpRequest)
            m_bankColours = false;
        m_granularity = g;
    }
    bool anyShared = false;
    for (int i = 0; i < session.runCount(); ++i)
        anyShared |= session.replay(i) && session.replay(i)->sharedSize() > 0;
    if (anyShared) {
        ImGui::Checkbox("colour by bank", &m_bankColours);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "each element in the colour of its bank: 32 banks of 4-byte words, word w in bank w mod 32");
    }
    // In compare mode each kernel's tile and mask, one above the other.
    Seen seen;
    stackRuns(session, m_context.theme, [&](int i, float share) { drawRun(i, share, seen); });
    const Palette& palette = m_context.theme.palette;
    if (seen.ghostZero && !m_panels[PanelId::Grid])
        m_context.legend.addSwatch(palette.ghost, "ghost, stored 0");
    if (seen.unwritten)
        m_context.legend.addSwatch(IM_COL32(40, 40, 40, 255), "shared, not written yet");
    if (seen.problemElement)
        m_context.legend.addSwatch(palette.problem, kProblemElementLabel);
    if (seen.problemArrow)
        m_context.legend.addSwatch(palette.problemArrow, kProblemThreadsLabel);
    if (seen.banks) {
        std::vector<ImU32> banks;
        for (int b = 0; b < kBanks; ++b)
            banks.push_back(bankColour(b));
        m_context.legend.addColourSet(std::move(banks), "shared-memory banks 0 to 31 (number in the cell)");
    }
    if (seen.request)
        m_context.legend.addOutline(palette.sector, "elements of the warp's shared request");
    if (seen.conflict)
        m_context.legend.addOutline(palette.conflict, "bank conflict: lanes that wait for another wavefront");
    if (seen.maskRequest)
        m_context.legend.addSwatch(palette.request, kRequestLabel);
    m_context.probe.recordWindow("shared.window");
    ImGui::End();
}

const SharedPanel::TileLooks& SharedPanel::tileLooks(int i, const std::shared_ptr<const TraceModel>& model,
                                                      const BlockReplay& replay, Cursor cursor,
                                                      const ValueMapping& mapping) {
    TileLooks& tile = m_tiles[static_cast<std::size_t>(i)];
    const Palette& palette = m_context.theme.palette;
    const bool sameModel = !tile.model.expired() && !tile.model.owner_before(model) && !model.owner_before(tile.model);
    if (sameModel && tile.replay == &replay && tile.cursor == cursor && tile.banks == m_bankColours && tile.map == mapping.map &&
        tile.low == mapping.low && tile.high == mapping.high && tile.ghost == palette.ghost && tile.halo == palette.halo)
        return tile;
    tile.model = model;
    tile.replay = &replay;
    tile.cursor = cursor;
    tile.banks = m_bankColours;
    tile.map = mapping.map;
    tile.low = mapping.low;
    tile.high = mapping.high;
    tile.ghost = palette.ghost;
    tile.halo = palette.halo;
    const int size = replay.sharedSize();
    tile.looks.assign(static_cast<std::size_t>(size), CellLook{});
    tile.labels.assign(static_cast<std::size_t>(size), std::string());
    tile.written = 0;
    tile.unwritten = tile.ghostZero = false;
    for (int e = 0; e < size; ++e) {
        CellLook& look = tile.looks[static_cast<std::size_t>(e)];
        std::string& label = tile.labels[static_cast<std::size_t>(e)];
        const auto held = replay.sharedAt(e, cursor);
        tile.written += held.has_value();
        if (m_bankColours) {
            // The bank is the address's, whatever the element holds.
            look.fill = bankColour(bankOf(e));
            label = std::to_string(bankOf(e));
            continue;
        }
        if (!held) {
            tile.unwritten = true;
            look.fill = IM_COL32(40, 40, 40, 255);
            continue;
        }
        const bool ghost = held->source < 0;
        tile.ghostZero |= ghost;
        look.fill = ghost ? palette.ghost : mapping.colour(held->value);
        if (!ghost && held->kind == CellKind::Halo)
            look.band = palette.halo;
        label = shortValue(held->value);
    }
    return tile;
}

void SharedPanel::drawRun(int i, float height, Seen& seen) {
    TraceSession& session = m_session;
    const float top = ImGui::GetCursorScreenPos().y;
    const BlockReplay* replay = session.replay(i);
    const TracedRun& run = session.run(i);
    if (!replay || !run.outcome) {
        ImGui::TextDisabled("no trace yet");
        return;
    }
    const Theme& theme = m_context.theme;
    const Palette& palette = theme.palette;
    const Cursor cursor = session.cursor(i);
    const Trace& trace = replay->trace();
    const BlockGeometry& g = replay->geometry();
    const ValueMapping mapping = run.outcome->input ? mappingOf(run.outcome->input->data) : ValueMapping{};
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImVec2 avail{ImGui::GetContentRegionAvail().x, height - (ImGui::GetCursorScreenPos().y - top)};

    // The shared tile; in a panel wider than tall, the mask beside it (the tile takes the height).
    const int size = replay->sharedSize();
    const bool beside = size > 0 && avail.x > avail.y * 1.3f;
    const float tileWidth = beside ? avail.x * 0.66f : avail.x;
    if (beside) {
        ImGui::BeginGroup();
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + tileWidth);
    }
    if (size <= 0) {
        ImGui::TextWrapped("%s uses no shared memory: every tap is a load from global memory (or the cache).",
                           trace.kernel.c_str());
    } else {
        // A row as wide as the input tile; where the geometry knows no tile
        // (one sized for a larger radius than the run's), the shared array's
        // own row, as the trace records it.
        const ArrayInfo& shared = trace.arrays[kArrayShared];
        const int columns = std::max(1, g.inputTile.width() > 1 ? g.inputTile.width() : shared.pitch);
        const int rows = (size + columns - 1) / columns;
        const TileLooks& tile = tileLooks(i, run.model, *replay, cursor, mapping);
        seen.banks |= m_bankColours;
        seen.unwritten |= tile.unwritten;
        seen.ghostZero |= tile.ghostZero;
        if (shared.planeRows > 0 && columns == shared.pitch)
            ImGui::TextWrapped("%s: %d planes of %d x %d floats, one under the other, %d of them written so far",
                               shared.name.c_str(), rows / shared.planeRows, columns, shared.planeRows, tile.written);
        else
            ImGui::TextWrapped("%s: %d x %d floats, %d of them written so far", shared.name.c_str(), columns, rows,
                               tile.written);
        // Beside the mask: the height less a few lines of words; above it: most of the height.
        const float tall = beside ? avail.y - ImGui::GetTextLineHeightWithSpacing() * 3.0f : avail.y * 0.7f;
        const float cell =
            std::clamp(std::min(tileWidth / static_cast<float>(columns), tall / static_cast<float>(rows)), 3.0f,
                       theme.fontPixels * 3.2f);
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        ImGui::Dummy({cell * static_cast<float>(columns), cell * static_cast<float>(rows)});
        // The cells (fills, halo bands, lines) as one picture; the numbers over it where they fit.
        const float band = std::max(2.0f, cell * 0.18f);
        m_pictures[static_cast<std::size_t>(i)].draw(draw, origin, cell, columns, tile.looks, palette.cellGrid, band);
        const bool numbers = m_bankColours ? cell >= std::max(18.0f, theme.fontPixels * 0.7f)
                                           : cell >= theme.fontPixels * 1.8f;
        for (int e = 0; numbers && e < size; ++e) {
            const std::string& label = tile.labels[static_cast<std::size_t>(e)];
            if (label.empty())
                continue;
            const ImVec2 a{origin.x + cell * static_cast<float>(e % columns),
                           origin.y + cell * static_cast<float>(e / columns)};
            cellLabel(draw, theme, a, {a.x + cell, a.y + cell}, label.c_str(),
                      textOver(tile.looks[static_cast<std::size_t>(e)].fill));
        }
        m_context.probe.record(i == 0 ? "shared.cell0" : "shared.cell0." + std::to_string(i), origin,
                             {origin.x + cell, origin.y + cell}, std::to_string(columns));

        // The selected warp's current shared request: its elements outlined,
        // the conflicting ones thick, and its wavefronts in words.
        const BlockRequests* requests = session.requests(i);
        if (const auto r = requests ? session.currentRequest(i, isSharedRequest) : std::nullopt) {
            const WarpRequest& q = requests->request(*r);
            const std::vector<bool> conflicting = conflictingEvents(q, replay->events());
            std::vector<int> plain, waiting;
            for (std::size_t k = 0; k < q.events.size(); ++k) {
                const int e = replay->events()[q.events[k]].index;
                if (e < 0 || e >= size)
                    continue;
                (conflicting[k] ? waiting : plain).push_back(e);
            }
            // Along the cell's edge, over a thin casing: the bank's colour stays in the middle.
            const float casing = std::clamp(cell * 0.03f, 1.0f, theme.lineWidth);
            auto outline = [&](int e, ImU32 colour, float thick) {
                const ImVec2 a{origin.x + cell * static_cast<float>(e % columns),
                               origin.y + cell * static_cast<float>(e / columns)};
                const float inset = thick * 0.5f + casing;
                const ImVec2 lo{a.x + inset, a.y + inset}, hi{a.x + cell - inset, a.y + cell - inset};
                draw->AddRect(lo, hi, palette.sectorCasing, 0.0f, thick + 2.0f * casing);
                draw->AddRect(lo, hi, colour, 0.0f, thick);
            };
            const float thin = std::clamp(cell * 0.05f, 1.5f, theme.lineWidth * 1.5f);
            const float thick = std::clamp(cell * 0.11f, 2.5f, theme.lineWidth * 3.0f);
            for (int e : plain)
                outline(e, palette.sector, thin);
            std::sort(waiting.begin(), waiting.end());
            waiting.erase(std::unique(waiting.begin(), waiting.end()), waiting.end());
            for (int e : waiting) {
                outline(e, palette.conflict, thick);
                const ImVec2 a{origin.x + cell * static_cast<float>(e % columns),
                               origin.y + cell * static_cast<float>(e / columns)};
                m_context.probe.record("shared.conflict", a, {a.x + cell, a.y + cell}, std::to_string(e));
            }
            seen.request |= !plain.empty();
            seen.conflict |= !waiting.empty();
            const std::string words = "warp " + std::to_string(q.warp) + ", " + requestName(trace, q) + " (line " +
                                      std::to_string(q.line) + "): " + wavefrontSummary(q);
            colouredText(ImGui::ColorConvertU32ToFloat4(waiting.empty() ? palette.frame : palette.conflict), words);
            m_context.probe.record(i == 0 ? "shared.request" : "shared.request." + std::to_string(i),
                                 ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), words);
        }

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
                m_context.probe.record("shared.problem.element", a, {a.x + cell, a.y + cell},
                                     problemElementName(trace, *problem));
                seen.problemElement = true;
            }
            // From the first access's thread to the second's, each at its own element.
            const int from = threads.first ? homeSharedElement(*replay, *threads.first) : -1;
            const int to = threads.second ? homeSharedElement(*replay, *threads.second) : -1;
            const int a = from >= 0 ? from : element, b = to >= 0 ? to : element;
            if (a >= 0 && b >= 0 && a < size && b < size && a != b) {
                problemArrow(draw, theme, centre(a), centre(b), thick);
                m_context.probe.record("shared.problem.arrow", centre(a), centre(b));
                seen.problemArrow = true;
            }
            if (element >= 0 || seen.problemArrow) {
                std::string caption = element >= 0 ? problemElementName(trace, *problem) : std::string();
                if (threads.first && threads.second && *threads.first != *threads.second)
                    caption += (caption.empty() ? "" : ": ") + std::string("thread ") +
                               threadName(*replay, *threads.first) + " \xE2\x86\x92 " +
                               threadName(*replay, *threads.second);
                colouredText(ImGui::ColorConvertU32ToFloat4(palette.problem), caption);
            }
        }
    }

    // The mask, with the tap in use.
    if (beside) {
        ImGui::PopTextWrapPos();
        ImGui::EndGroup();
        ImGui::SameLine(0.0f, theme.fontPixels * 1.5f);
        ImGui::BeginGroup();
    } else {
        ImGui::Spacing();
    }
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
    // The warp's current load of the mask: the elements it reads, and how the cache serves them.
    std::vector<int> addressed;
    {
        const BlockRequests* requests = session.requests(i);
        if (const auto r = requests ? session.currentRequest(i, isMaskRequest) : std::nullopt) {
            const WarpRequest& q = requests->request(*r);
            for (std::uint32_t e : q.events)
                addressed.push_back(replay->events()[e].index);
            std::sort(addressed.begin(), addressed.end());
            addressed.erase(std::unique(addressed.begin(), addressed.end()), addressed.end());
            const std::string how = q.space == RequestSpace::Constant
                                        ? constantSummary(q)
                                        : std::to_string(addressed.size()) + " address" +
                                              (addressed.size() == 1 ? "" : "es") + ", " + sectorSummary(q);
            const std::string words = "warp " + std::to_string(q.warp) + "'s load of " + trace.arrays[kArrayMask].name +
                                      " (line " + std::to_string(q.line) + "): " + how;
            ImGui::TextWrapped("%s", words.c_str());
            m_context.probe.record(i == 0 ? "shared.mask.request" : "shared.mask.request." + std::to_string(i),
                                 ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), words);
        }
    }
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
            // The warp's request reads it: filled as the grid fills a request's elements.
            const bool read = std::binary_search(addressed.begin(), addressed.end(), i);
            if (read) {
                const float inset = std::max(2.0f, cell * 0.12f);
                draw->AddRectFilled({a.x + inset, a.y + inset}, {b.x - inset, b.y - inset}, palette.request);
                seen.maskRequest = true;
            }
            if (cell >= theme.fontPixels * 1.8f)
                cellLabel(draw, theme, a, b, shortValue(mask.values[static_cast<std::size_t>(i)]).c_str(),
                          textOver(read ? palette.request : fill));
            if (i == tap)
                draw->AddRect({a.x + 1, a.y + 1}, {b.x - 1, b.y - 1}, palette.selection, 0.0f,
                              std::max(3.0f, theme.lineWidth * 3.0f));
        }
    }
    if (beside)
        ImGui::EndGroup();
}

}  // namespace tilescope::ui
