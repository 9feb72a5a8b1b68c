// The legend: a strip along the bottom of the window that is always there and
// always on top. Panels add what they draw each frame (a colour bar for each
// colour-mapped array, a swatch for each overlay colour), so the legend never
// explains something that is not on screen, nor misses something that is.
#pragma once

#include <imgui.h>

#include <string>
#include <utility>
#include <vector>

#include "gfx/colormap.hpp"

namespace tilescope::gfx {
class ColorMapper;
}

namespace tilescope::ui {

struct Theme;
class LayoutProbe;

class LegendPanel {
public:
    LegendPanel(const Theme& theme, LayoutProbe& probe, gfx::ColorMapper& colorMapper)
        : m_theme(theme), m_probe(probe), m_colorMapper(colorMapper) {}

    void beginFrame();
    // `label` names the array ("Input N"); low and high are the map's ends.
    void addColourBar(std::string label, gfx::ColorMap map, float low, float high);
    // An overlay colour and what it marks ("halo cell").
    void addSwatch(ImU32 colour, std::string label);
    // An outline drawn in the colour (a frame round cells) and what it marks.
    void addOutline(ImU32 colour, std::string label);
    // A set of colours that stand for one thing each ("shared-memory bank 0 to 31").
    void addColourSet(std::vector<ImU32> colours, std::string label);

    // The strip's height in the last frame (the layout keeps panels above it).
    float height() const { return m_height; }
    // The keys the strip ends with ("F1: keyboard shortcuts"; lecture-hall
    // mode adds its F2).
    void setKeyHint(std::string hint) { m_keyHint = std::move(hint); }
    void draw();

private:
    struct Bar {
        std::string label;
        gfx::ColorMap map;
        float low, high;
    };
    struct Swatch {
        ImU32 colour;
        std::string label;
        bool outline = false;
        std::vector<ImU32> set;  // a colour set: drawn as a strip of them
    };
    void drawBar(const Bar& bar, int index);

    const Theme& m_theme;
    LayoutProbe& m_probe;
    gfx::ColorMapper& m_colorMapper;  // the colour bars' textures
    std::vector<Bar> m_bars;
    std::vector<Swatch> m_swatches;
    float m_height = 0.0f;
    std::string m_keyHint = "F1: keyboard shortcuts";
};

}  // namespace tilescope::ui
