// How the app looks: fonts, ImGui style, line widths, and the palette of
// named colours every panel draws with. Two modes: the everyday one, and
// lecture-hall mode (large crisp type, thick lines, dark-on-light high
// contrast, the Okabe-Ito palette that stays distinct for colour-blind
// viewers and on a washed-out projector).
//
// Fonts are DejaVu TrueType files rendered by FreeType at the exact pixel size
// of the mode: ImGui (1.92 and later) renders each glyph at the size it is
// drawn at, times the framebuffer's scale, so text is never a scaled bitmap.
#pragma once

#include <imgui.h>

#include <string>

namespace tilescope::ui {

// Named colours: panels say what a thing is, the theme says its colour.
struct Palette {
    // The step-through views' overlays (issue 4): tiles, halos, ghosts, loads.
    ImU32 inputTile;
    ImU32 outputTile;
    ImU32 halo;
    ImU32 ghost;
    ImU32 loadedByThread;
    ImU32 loadedByBlock;
    ImU32 switchedOff;
    ImU32 barrier;
    ImU32 selection;
    // What went wrong (the Problems panel's marks): the element of a race and
    // the outputs that differ from the reference are outlined in `problem`;
    // an arrow in `problemArrow` runs from the thread of the first access to
    // the thread of the second, and rings both threads. Neither hue is in the
    // colour maps or among the overlays above; both are drawn thick, over a
    // casing of `problemCasing`, so that lightness and shape carry them where
    // hue does not (a projector, colour-blind eyes).
    ImU32 problem;
    ImU32 problemArrow;
    ImU32 problemCasing;
    // A lesson's marks: the cells and threads a step points at (black
    // corner brackets over a white casing, so that shape and lightness carry
    // them), and a revealed answer's cells: right (outlined), clicked but
    // wrong (crossed), missed (dashed).
    ImU32 pointer;
    ImU32 pointerCasing;
    ImU32 answerRight;
    ImU32 answerWrong;
    ImU32 answerMissed;
    // The Charts panel's strategies, one hue each (Okabe-Ito), in the order
    // of the panel's kernels; each also has a marker shape of its own.
    // The memory the hardware moves: the elements of the selected warp's
    // request (filled), the 32-byte sectors it moves (outlined in `sector`
    // over a casing of `sectorCasing`), and the shared-memory elements whose
    // lanes conflict for a bank (outlined in `conflict`, thick, over the casing).
    ImU32 request;
    ImU32 sector;
    ImU32 sectorCasing;
    ImU32 conflict;
    ImU32 series[5];
    ImU32 bookFormula;  // the legend's swatch for the book's closed forms (the dashed lines)
    // Drawing of images and cells.
    ImU32 cellGrid;  // lines between cells
    ImU32 frame;     // the border around an array
    // Messages.
    ImVec4 error;
    ImVec4 warning;
    ImVec4 good;
    ImVec4 muted;
};

struct Theme {
    bool lecture = false;
    float fontPixels = 16.0f;  // the UI font's size, in ImGui's units (screen coordinates)
    float headingPixels = 18.0f;  // the heading font's size
    float rasterScale = 1.0f;  // framebuffer pixels per unit (2 on a "Retina" display)
    float lineWidth = 1.0f;    // outlines drawn with ImDrawList
    Palette palette{};
    ImFont* ui = nullptr;
    ImFont* mono = nullptr;     // numbers in cells, source code
    ImFont* heading = nullptr;  // panel headings, a little larger
    bool crispFonts = false;    // false: DejaVu was not found, ImGui's bitmap font stands in
    std::string fontProblem;    // why, when crispFonts is false
};

// The palette of a mode (lecture: true for lecture-hall mode).
Palette paletteFor(bool lecture);

// The colour of shared-memory bank `bank` (0 to 31): eight hues, each at four
// lightnesses (bank / 8 picks the lightness, bank % 8 the hue), so that
// neighbouring banks differ in hue and banks eight apart in lightness; the
// views print the bank's number in the cell where it fits.
ImU32 bankColour(int bank);

// The font size a mode wants for a window of this height (in units): lecture
// mode grows with the screen (a 1080-line projector gets 32 px), the everyday
// mode follows the monitor's scale.
float fontPixelsFor(bool lecture, float windowHeight, float contentScale);

// Loads the fonts (once) and sets the style and the font size for the mode.
// Glyphs are rendered at fontPixels x framebufferScale real pixels, so that
// they stay sharp on high-density displays. Call between frames, never
// between NewFrame and Render.
void applyTheme(Theme& theme, bool lecture, float fontPixels, float framebufferScale);

// The heading and the monospaced font at the theme's sizes (ImGui 1.92 and
// later take the size with the font); ImGui::PopFont() ends either.
void pushHeadingFont(const Theme& theme);
void pushMonoFont(const Theme& theme);

}  // namespace tilescope::ui
