// Small drawing helpers shared by the step-through views (grid, threads,
// shared memory, output): how a value becomes a colour, which text colour
// reads over a fill, the colour of a thread's state, a cell's label, and the
// stepping bar every trace view can show.
#pragma once

#include <imgui.h>

#include <functional>
#include <span>

#include "gfx/colormap.hpp"
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
// kernel's name in `heading` (in compare mode) and then draw(i, height), with
// an equal share of the window's height (the whole of it outside compare
// mode) under an ImGui id of its own.
void stackRuns(TraceSession& session, ImFont* heading, const std::function<void(int, float)>& draw);

// Opens a step-through panel's window. Returns false when there is nothing
// to draw (the window is then already ended, and says why when it is open:
// "no trace yet", tracing, or what went wrong); when it returns true, the
// caller draws and ends the window.
bool beginStepThroughPanel(const char* title, bool* open, bool ready, const TraceSession& session);

}  // namespace tilescope::ui
