// Where a frame's time goes, panel by panel (`tilescope ui-bench
// --panel-costs`). Two parts for each panel: the CPU time of its draw()
// (building ImGui's draw lists), and the time the renderer takes to draw its
// windows' draw lists alone, with a glFinish after each window, so that a
// software renderer's rasterising (llvmpipe: most of a frame) is counted at
// the panel that asked for it rather than at the end of the frame.
#pragma once

#include <imgui.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace tilescope::ui {

class PanelCosts {
public:
    // Times one panel's draw() for as long as it lives; a null `costs` times nothing.
    class Scope {
    public:
        Scope(PanelCosts* costs, const char* key);
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        PanelCosts* m_costs;
        const char* m_key;
        double m_start = 0.0;
    };

    // Draws `all` one window at a time through `render`, timing each
    // (everything else on the screen, the menu bar and the legend among them,
    // counts as "other"), and ends the frame's record.
    void renderByWindow(const ImDrawData& all, const std::function<void(ImDrawData*)>& render);

    // The median of the frames recorded, one row a panel, as a Markdown table.
    void print(std::FILE* out) const;

private:
    struct Row {
        std::string key;
        std::vector<double> drawMs, renderMs;
        std::vector<int> vertices, commands;
        double frameDrawMs = 0.0, frameRenderMs = 0.0;
        int frameVertices = 0, frameCommands = 0;
    };
    Row& row(const std::string& key);

    std::vector<Row> m_rows;  // in the order the panels were first drawn
    int m_frames = 0;
};

}  // namespace tilescope::ui
