// The shared memory view: the block's shared tile at the cursor (values as
// they are stored, ghost zeros marked, unwritten elements dark), and the mask
// in constant memory with the tap the selected thread uses now outlined. In
// compare mode, each kernel's, one above the other. The problem selected in
// the Problems panel, when it is in this block: its element outlined, and an
// arrow from the first access's thread to the second's, each thread drawn at
// the element it stores (its own cell of the tile).
//
// The memory the hardware moves: with "colour by bank" ticked (it is ticked
// when stepping by warp request), each element of the tile takes the colour
// of its bank (its word's index mod 32), its number printed where it fits;
// the elements of the selected warp's current shared request are outlined,
// those whose bank holds another word of the request thick (they wait for
// another wavefront), and the request's wavefronts said in words. The mask's
// elements that the warp's current load of the mask reads are outlined, with
// "broadcast (1 address)" or "serialised k ways" for constant memory.
#pragma once

#include <imgui.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "trace/trace_index.hpp"
#include "ui/cell_picture.hpp"
#include "ui/panel.hpp"
#include "model/panel_table.hpp"
#include "ui/trace_draw.hpp"

namespace tilescope::ui {

class TraceSession;

class SharedPanel : public Panel {
public:
    SharedPanel(PanelContext context, TraceSession& session, const PanelVisibility& panels)
        : m_context(context), m_session(session), m_panels(panels) {}
    void draw(bool* open) override;

private:
    // What the legend must explain.
    struct Seen {
        bool ghostZero = false, unwritten = false, problemElement = false, problemArrow = false;
        bool banks = false, request = false, conflict = false, maskRequest = false;
    };
    // Run i's tile and mask in `height` pixels; notes what the legend needs.
    void drawRun(int i, float height, Seen& seen);

    // How run i's tile looks at a cursor, and the numbers written in its
    // cells: worked out again only when the step, the block, the colouring or
    // the theme changes, not at every frame.
    struct TileLooks {
        // The trace it was made from: held weakly, so that a new trace made
        // where an old one was freed is not taken for it.
        std::weak_ptr<const TraceModel> model;
        const BlockReplay* replay = nullptr;
        Cursor cursor = 0;
        bool banks = false;
        gfx::ColorMap map = gfx::ColorMap::Sequential;
        float low = 0.0f, high = 0.0f;
        ImU32 ghost = 0, halo = 0;
        std::vector<CellLook> looks;
        std::vector<std::string> labels;  // empty where nothing is written in the cell
        int written = 0;                  // elements stored so far
        bool unwritten = false, ghostZero = false;
    };
    const TileLooks& tileLooks(int i, const std::shared_ptr<const TraceModel>& model, const BlockReplay& replay,
                               Cursor cursor, const ValueMapping& mapping);

    PanelContext m_context;
    TraceSession& m_session;
    const PanelVisibility& m_panels;  // the legend explains the ghost zeros here when the grid view is closed
    bool m_bankColours = false;
    Granularity m_granularity = Granularity::Step;  // the granularity last seen: switching to request ticks the box
    std::array<TileLooks, 2> m_tiles;               // each run's
    std::array<CellPicture, 2> m_pictures;
};

}  // namespace tilescope::ui
