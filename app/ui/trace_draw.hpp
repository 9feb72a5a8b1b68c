// Small drawing helpers shared by the step-through views (grid, threads,
// shared memory, output): how a value becomes a colour, which text colour
// reads over a fill, the colour of a thread's state, a cell's label, and the
// stepping bar every trace view can show.
#pragma once

#include <imgui.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "gfx/colormap.hpp"
#include "trace/problems.hpp"
#include "trace/trace_index.hpp"
#include "ui/theme.hpp"

namespace tilescope::ui {

class TraceSession;
class LayoutProbe;
class LegendPanel;

struct ValueMapping {
    gfx::ColorMap map = gfx::ColorMap::Sequential;
    float low = 0.0f, high = 1.0f;
    ImU32 colour(float value) const;
};
// The same choice as the result panel: diverging about 0 for signed data.
ValueMapping mappingOf(std::span<const float> values);

// Black or white, whichever reads over `fill`.
ImU32 textOver(ImU32 fill);
ImU32 withAlpha(ImU32 colour, int alpha);
ImU32 stateColour(const Palette& palette, ThreadState state);

// `text` centred in the cell [a, b] in the mono font, when it fits.
void cellLabel(ImDrawList* draw, const Theme& theme, ImVec2 a, ImVec2 b, const char* text, ImU32 colour);

// Play/pause, step back and forward, phases, Home/End, speed, granularity,
// and where the cursor stands; under them, why only one block is traced when
// the whole launch was over the trace budget. Returns false when there is no
// trace to step (and says why: tracing, or what went wrong).
bool drawSteppingBar(TraceSession& session, const Theme& theme, LayoutProbe& probe);

// Compare mode's stacking: for each traced run, one above the other, its
// kernel's name in the heading font (in compare mode) and then draw(i, height), with
// an equal share of the window's height (the whole of it outside compare
// mode) under an ImGui id of its own.
void stackRuns(TraceSession& session, const Theme& theme, const std::function<void(int, float)>& draw);

// Opens a step-through panel's window. Returns false when there is nothing
// to draw (the window is then already ended, and says why when it is open:
// "no trace yet", tracing, or what went wrong); when it returns true, the
// caller draws and ends the window.
bool beginStepThroughPanel(const char* title, bool* open, bool ready, const TraceSession& session,
                           ImGuiWindowFlags flags = 0);

// [SECTION] The selected problem, as the views mark it (the Problems panel selects it)

// Where a thread stands in the views: the shared element it stores first
// (its own cell of the tile); -1 when it stores none.
int homeSharedElement(const BlockReplay& replay, unsigned thread);
// The cell of N a thread stands for: that of its shared element, else of its
// first load of N, else its output element.
std::optional<ArrayInfo::Coords> homeInputCell(const BlockReplay& replay, unsigned thread);

// A thread of the block by its threadIdx: "(4,2)", or "37" in 1D.
std::string threadName(const BlockReplay& replay, unsigned thread);

// The threads of problem `p` in `replay`'s block: the thread of its first
// access and of its second, where those are accesses of this block.
struct ProblemThreads {
    std::optional<unsigned> first, second;
    bool any() const { return first || second; }
};
ProblemThreads problemThreads(const ProblemReport& p, const BlockReplay& replay);

// What the legend calls the problem marks (the same words in every view).
inline constexpr const char* kProblemElementLabel = "element of the selected problem";
inline constexpr const char* kProblemThreadsLabel =
    "threads of the selected problem (framed; arrow: first access \xE2\x86\x92 second)";
inline constexpr const char* kWrongOutputLabel = "output that differs from the reference";

// The problem marks: an outline of [a, b] and an arrow from `from` to `to`,
// thick, over a casing that keeps them visible on any fill.
void problemOutline(ImDrawList* draw, const Theme& theme, ImVec2 a, ImVec2 b, ImU32 colour, float thickness);
void problemArrow(ImDrawList* draw, const Theme& theme, ImVec2 from, ImVec2 to, float thickness);
// An output that differs from the reference: the cell [a, b] outlined inside
// its edge in the problem colour (filled, when the cell is too small to show a frame).
void wrongOutputMark(ImDrawList* draw, const Theme& theme, ImVec2 a, ImVec2 b);
// Whether the wrong outputs are marked one by one: not on cells too small to
// see a mark, nor in numbers that would slow every frame (the text says how many).
inline bool markWrongOutputs(std::size_t count, float cell) {
    return cell >= 0.5f && count <= 65536;
}

}  // namespace tilescope::ui
