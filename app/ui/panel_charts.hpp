// The Charts panel: the book's comparison of the 2D strategies (Figure 7.14
// of the 4th edition, Figure 7.22 and §7.4 of the 3rd) drawn with ImPlot from
// measured counts. A sweep (api/sweep.hpp) traces one interior block of each
// strategy at each block edge and mask size, on a thread of the panel's own,
// never in a frame; the panel then plots, one column per mask size, FLOP per
// byte and global loads per output against the block edge (markers: measured;
// dashed: the book's formula), and the GPU time of each point when a GPU
// timed it.
//
// It draws from the theme and the layout probe alone, not from the whole App.
#pragma once

#include <functional>
#include <future>
#include <optional>
#include <utility>

#include "model/chart_series.hpp"
#include "ui/panel.hpp"

namespace tilescope::ui {

struct Theme;
class LayoutProbe;

class ChartsPanel : public Panel {
public:
    // `onReady` is called on the sweep's thread when its result is in (the
    // app wakes its loop with it).
    explicit ChartsPanel(PanelContext context, std::function<void()> onReady = {})
        : m_theme(context.theme), m_probe(context.probe), m_onReady(std::move(onReady)) {}
    ~ChartsPanel() override;  // waits for a sweep in progress
    ChartsPanel(const ChartsPanel&) = delete;
    ChartsPanel& operator=(const ChartsPanel&) = delete;

    void draw(bool* open) override;
    // The sweep is done (or failed), so the charts are what they will stay.
    bool settled() const override { return m_data.has_value(); }

private:
    void drawCharts(const ChartData& data);

    const Theme& m_theme;
    LayoutProbe& m_probe;
    std::function<void()> m_onReady;
    std::future<ChartData> m_task;
    std::optional<ChartData> m_data;
    // The mask sizes shown, one column each (radius 1 to 4): the book's
    // Figure 7.14 has 5x5 and 9x9.
    bool m_showRadius[4] = {false, true, false, true};
};

}  // namespace tilescope::ui
