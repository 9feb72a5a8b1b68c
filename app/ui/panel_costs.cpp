#include "ui/panel_costs.hpp"

#include <algorithm>
#include <cstring>

#include "base/clock.hpp"
#include "gfx/gl.hpp"

namespace tilescope::ui {

namespace {

// The panel a draw list belongs to: the key after "###" in its window's
// name ("Threads###threads", and its child windows "Threads###threads/...").
std::string panelOf(const ImDrawList& list) {
    const char* name = list._OwnerName;
    const char* tag = name ? std::strstr(name, "###") : nullptr;
    if (!tag)
        return "other";
    std::string key(tag + 3);
    return key.substr(0, key.find('/'));
}

double median(std::vector<double> v) {
    if (v.empty())
        return 0.0;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

}  // namespace

PanelCosts::Scope::Scope(PanelCosts* costs, const char* key) : m_costs(costs), m_key(key) {
    if (m_costs)
        m_start = base::milliseconds();
}

PanelCosts::Scope::~Scope() {
    if (m_costs)
        m_costs->row(m_key).frameDrawMs += base::milliseconds() - m_start;
}

PanelCosts::Row& PanelCosts::row(const std::string& key) {
    for (Row& r : m_rows)
        if (r.key == key)
            return r;
    Row& r = m_rows.emplace_back();
    r.key = key;
    // A panel first seen now had nothing in the frames before.
    r.drawMs.assign(static_cast<std::size_t>(m_frames), 0.0);
    r.renderMs.assign(static_cast<std::size_t>(m_frames), 0.0);
    r.vertices.assign(static_cast<std::size_t>(m_frames), 0);
    r.commands.assign(static_cast<std::size_t>(m_frames), 0);
    return r;
}

void PanelCosts::renderByWindow(const ImDrawData& all, const std::function<void(ImDrawData*)>& render) {
    glFinish();  // the clear, before any panel's lists
    ImDrawData one = all;
    for (ImDrawList* list : all.CmdLists) {
        one.CmdLists.clear();
        one.CmdLists.push_back(list);
        one.TotalVtxCount = list->VtxBuffer.Size;
        one.TotalIdxCount = list->IdxBuffer.Size;
        const double start = base::milliseconds();
        render(&one);
        glFinish();
        Row& r = row(panelOf(*list));
        r.frameRenderMs += base::milliseconds() - start;
        r.frameVertices += list->VtxBuffer.Size;
        r.frameCommands += list->CmdBuffer.Size;
    }
    for (Row& r : m_rows) {
        r.drawMs.push_back(r.frameDrawMs);
        r.renderMs.push_back(r.frameRenderMs);
        r.vertices.push_back(r.frameVertices);
        r.commands.push_back(r.frameCommands);
        r.frameDrawMs = r.frameRenderMs = 0.0;
        r.frameVertices = r.frameCommands = 0;
    }
    ++m_frames;
}

void PanelCosts::print(std::FILE* out) const {
    std::fprintf(out, "ui-bench: each panel's cost, the median of %d frames (rendered one window at a time)\n",
                 m_frames);
    std::fprintf(out, "| panel | draw (CPU) ms | render ms | vertices | draw calls |\n| --- | ---: | ---: | ---: | ---: |\n");
    double draw = 0.0, rendered = 0.0;
    for (const Row& r : m_rows) {
        const double d = median(r.drawMs), g = median(r.renderMs);
        const std::vector<double> v(r.vertices.begin(), r.vertices.end()), c(r.commands.begin(), r.commands.end());
        std::fprintf(out, "| %s | %.2f | %.2f | %.0f | %.0f |\n", r.key.c_str(), d, g, median(v), median(c));
        draw += d;
        rendered += g;
    }
    std::fprintf(out, "| sum | %.2f | %.2f | | |\n", draw, rendered);
}

}  // namespace tilescope::ui
