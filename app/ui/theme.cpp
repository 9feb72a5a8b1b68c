#include "ui/theme.hpp"

#if defined(IMGUI_ENABLE_FREETYPE)
#include <imgui_freetype.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <vector>

namespace tilescope::ui {

namespace {

constexpr ImU32 rgb(unsigned hex) {
    return IM_COL32((hex >> 16) & 0xff, (hex >> 8) & 0xff, hex & 0xff, 0xff);
}

ImVec4 rgbVec(unsigned hex) {
    return ImGui::ColorConvertU32ToFloat4(rgb(hex));
}

// Okabe and Ito's eight colours (2008), chosen to stay distinct for every
// common colour-vision deficiency; dark variants where a thin line or a small
// glyph must stand out on white.
Palette lecturePalette() {
    Palette p;
    p.inputTile = rgb(0x0072B2);       // blue
    p.outputTile = rgb(0x009E73);      // bluish green
    p.halo = rgb(0xE69F00);            // orange
    p.ghost = rgb(0xCC79A7);           // reddish purple
    p.loadedByThread = rgb(0xD55E00);  // vermillion
    p.loadedByBlock = rgb(0x56B4E9);   // sky blue
    p.switchedOff = rgb(0x7F7F7F);     // grey
    p.barrier = rgb(0xF0E442);         // yellow
    p.selection = rgb(0x000000);
    p.problem = rgb(0xD10000);       // red: the one hue neither map nor overlay uses
    p.problemArrow = rgb(0xA8009E);  // magenta, dark enough for a thin line on white
    p.problemCasing = rgb(0xFFFFFF);
    p.pointer = rgb(0x000000);
    p.pointerCasing = rgb(0xFFFFFF);
    p.answerRight = rgb(0x00664A);  // dark bluish green
    p.answerWrong = rgb(0xD10000);
    p.answerMissed = rgb(0xA8009E);
    p.request = rgb(0xFFFFFF);  // white: no colour map or overlay uses it
    p.sector = rgb(0x000000);
    p.sectorCasing = rgb(0xFFFFFF);
    p.conflict = rgb(0xD10000);
    p.series[0] = rgb(0x0072B2);  // blue
    p.series[1] = rgb(0xD55E00);  // vermillion
    p.series[2] = rgb(0x009E73);  // bluish green
    p.series[3] = rgb(0xA8009E);  // magenta (the reddish purple, darkened for a line on white)
    p.series[4] = rgb(0xB07A00);  // orange, darkened for a line on white
    p.bookFormula = rgb(0x404040);
    p.cellGrid = IM_COL32(0, 0, 0, 110);
    p.frame = rgb(0x000000);
    p.error = rgbVec(0xA33A00);  // vermillion, darkened to read as text on white
    p.warning = rgbVec(0x7A5500);
    p.good = rgbVec(0x00664A);
    p.muted = rgbVec(0x404040);
    return p;
}

// The same hues on a dark background, lightened where the original would
// disappear (the blue).
Palette everydayPalette() {
    Palette p;
    p.inputTile = rgb(0x56B4E9);
    p.outputTile = rgb(0x009E73);
    p.halo = rgb(0xE69F00);
    p.ghost = rgb(0xCC79A7);
    p.loadedByThread = rgb(0xD55E00);
    p.loadedByBlock = rgb(0x9AD0F0);
    p.switchedOff = rgb(0x8C8C8C);
    p.barrier = rgb(0xF0E442);
    p.selection = rgb(0xFFFFFF);
    p.problem = rgb(0xFF2A2A);
    p.problemArrow = rgb(0xFF4DFF);
    p.problemCasing = rgb(0x000000);
    p.pointer = rgb(0xFFFFFF);
    p.pointerCasing = rgb(0x000000);
    p.answerRight = rgb(0x6FD6A8);
    p.answerWrong = rgb(0xFF2A2A);
    p.answerMissed = rgb(0xFF4DFF);
    p.request = rgb(0xFFFFFF);
    p.sector = rgb(0xF0E442);  // yellow, over black
    p.sectorCasing = rgb(0x000000);
    p.conflict = rgb(0xFF2A2A);
    p.series[0] = rgb(0x56B4E9);  // sky blue
    p.series[1] = rgb(0xFF7A33);  // vermillion, lightened for a dark background
    p.series[2] = rgb(0x2FD0A0);  // bluish green, lightened
    p.series[3] = rgb(0xE090C0);  // reddish purple, lightened
    p.series[4] = rgb(0xF0E442);  // yellow
    p.bookFormula = rgb(0xB0B0B0);
    p.cellGrid = IM_COL32(0, 0, 0, 90);
    p.frame = rgb(0xB0B0B0);
    p.error = rgbVec(0xFF8A5C);
    p.warning = rgbVec(0xF0D060);
    p.good = rgbVec(0x6FD6A8);
    p.muted = rgbVec(0xA8A8A8);
    return p;
}

std::filesystem::path findFont(const char* file) {
    std::vector<std::filesystem::path> folders;
    if (const char* env = std::getenv("TILESCOPE_FONT_DIR"); env && *env)
        folders.emplace_back(env);
    for (const char* f : {"/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/TTF", "/usr/share/fonts/dejavu",
                          "/usr/share/fonts/dejavu-sans-fonts", "/usr/share/fonts/dejavu-sans-mono-fonts",
                          "/usr/local/share/fonts", "/usr/local/share/fonts/dejavu", "/opt/homebrew/share/fonts"})
        folders.emplace_back(f);
    std::error_code error;
    for (const auto& folder : folders) {
        const auto path = folder / file;
        if (std::filesystem::is_regular_file(path, error))
            return path;
    }
    return {};
}

// The three fonts, loaded once: ImGui (1.92 and later) renders glyphs on
// demand at the size and density they are drawn at, so a new size (lecture
// mode, a window on another monitor) needs no new atlas. Every glyph of the
// files is available (×, ≤, →, ■, ⚠, ✓ included).
void loadFonts(Theme& theme) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
#if defined(IMGUI_ENABLE_FREETYPE)
    io.Fonts->SetFontLoader(ImGuiFreeType::GetFontLoader());
    io.Fonts->FontLoaderFlags = 0;  // the font's own hinting: sharpest at small sizes
#endif  // else (the browser build) ImGui's own stb_truetype rasteriser

    const auto sans = findFont("DejaVuSans.ttf");
    const auto mono = findFont("DejaVuSansMono.ttf");
    const auto bold = findFont("DejaVuSans-Bold.ttf");
    ImFontConfig config;
#if defined(IMGUI_ENABLE_FREETYPE)
    config.OversampleH = config.OversampleV = 1;  // FreeType renders at the exact size
#endif
    if (!sans.empty() && !mono.empty()) {
        theme.ui = io.Fonts->AddFontFromFileTTF(sans.c_str(), 16.0f, &config);
        theme.mono = io.Fonts->AddFontFromFileTTF(mono.c_str(), 16.0f, &config);
        theme.heading = io.Fonts->AddFontFromFileTTF((bold.empty() ? sans : bold).c_str(), 16.0f, &config);
    }
    theme.crispFonts = theme.ui && theme.mono && theme.heading;
    if (!theme.crispFonts) {
        io.Fonts->Clear();
        theme.ui = theme.mono = theme.heading = io.Fonts->AddFontDefault();
        theme.fontProblem =
            "DejaVu fonts not found (install fonts-dejavu-core, or set TILESCOPE_FONT_DIR): "
            "using ImGui's bitmap font";
    } else {
        theme.fontProblem.clear();
    }
}

void everydayStyle(ImGuiStyle& style) {
    ImGui::StyleColorsDark(&style);
    // The ImGui of imgui-bundle greys the dark style's windows and frames;
    // these are the colours the panels and the palette were chosen against
    // (Dear ImGui's classic dark style): near-black windows, blue fields.
    ImVec4* c = style.Colors;
    c[ImGuiCol_TextDisabled] = ImVec4(0.50f, 0.50f, 0.50f, 1.00f);
    c[ImGuiCol_WindowBg] = ImVec4(0.06f, 0.06f, 0.06f, 0.94f);
    c[ImGuiCol_FrameBg] = ImVec4(0.16f, 0.29f, 0.48f, 0.54f);
    c[ImGuiCol_FrameBgHovered] = ImVec4(0.26f, 0.59f, 0.98f, 0.40f);
    c[ImGuiCol_FrameBgActive] = ImVec4(0.26f, 0.59f, 0.98f, 0.67f);
    c[ImGuiCol_CheckboxSelectedBg] = c[ImGuiCol_FrameBg];
    c[ImGuiCol_TableHeaderBg] = ImVec4(0.19f, 0.19f, 0.20f, 1.00f);
    c[ImGuiCol_TableBorderStrong] = ImVec4(0.31f, 0.31f, 0.35f, 1.00f);
    c[ImGuiCol_TableBorderLight] = ImVec4(0.23f, 0.23f, 0.25f, 1.00f);
    style.WindowRounding = 4.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    style.WindowBorderSize = 1.0f;
    style.FrameBorderSize = 0.0f;
}

// Black on white with strong borders: a projector loses contrast, so the
// mode starts with all of it. Grey is used only for what may fade.
void lectureStyle(ImGuiStyle& style) {
    ImGui::StyleColorsLight(&style);
    ImVec4* c = style.Colors;
    const ImVec4 black(0, 0, 0, 1), white(1, 1, 1, 1);
    c[ImGuiCol_Text] = black;
    c[ImGuiCol_TextDisabled] = ImVec4(0.35f, 0.35f, 0.35f, 1);
    c[ImGuiCol_WindowBg] = white;
    c[ImGuiCol_ChildBg] = white;
    c[ImGuiCol_PopupBg] = white;
    c[ImGuiCol_Border] = black;
    c[ImGuiCol_FrameBg] = ImVec4(0.92f, 0.92f, 0.92f, 1);
    c[ImGuiCol_FrameBgHovered] = ImVec4(0.80f, 0.88f, 0.97f, 1);
    c[ImGuiCol_FrameBgActive] = ImVec4(0.70f, 0.82f, 0.95f, 1);
    c[ImGuiCol_CheckboxSelectedBg] = c[ImGuiCol_FrameBg];  // a ticked box looks like any field (as before ImGui 1.92)
    c[ImGuiCol_TitleBg] = ImVec4(0.85f, 0.85f, 0.85f, 1);
    c[ImGuiCol_TitleBgActive] = ImVec4(0.62f, 0.77f, 0.93f, 1);  // light blue: black titles stay readable
    c[ImGuiCol_TitleBgCollapsed] = ImVec4(0.85f, 0.85f, 0.85f, 1);
    c[ImGuiCol_MenuBarBg] = ImVec4(0.90f, 0.90f, 0.90f, 1);
    c[ImGuiCol_CheckMark] = black;
    c[ImGuiCol_SliderGrab] = ImVec4(0.0f, 0.30f, 0.55f, 1);
    c[ImGuiCol_SliderGrabActive] = black;
    c[ImGuiCol_Button] = ImVec4(0.86f, 0.86f, 0.86f, 1);
    c[ImGuiCol_ButtonHovered] = ImVec4(0.75f, 0.85f, 0.96f, 1);
    c[ImGuiCol_ButtonActive] = ImVec4(0.62f, 0.77f, 0.93f, 1);
    c[ImGuiCol_Header] = ImVec4(0.80f, 0.88f, 0.97f, 1);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.72f, 0.84f, 0.96f, 1);
    c[ImGuiCol_HeaderActive] = ImVec4(0.62f, 0.77f, 0.93f, 1);
    c[ImGuiCol_Separator] = ImVec4(0.25f, 0.25f, 0.25f, 1);
    c[ImGuiCol_PlotHistogram] = ImVec4(0.0f, 0.45f, 0.70f, 1);
    style.WindowRounding = 0.0f;
    style.FrameRounding = 2.0f;
    style.WindowBorderSize = 2.0f;
    style.FrameBorderSize = 1.5f;
    style.PopupBorderSize = 2.0f;
    style.ChildBorderSize = 1.5f;
    style.TabBorderSize = 1.5f;
}

}  // namespace

ImU32 bankColour(int bank) {
    bank = ((bank % 32) + 32) % 32;
    // OKLab: equal steps look equally different. Hues 45 degrees apart,
    // lightness from a dark 0.48 to a light 0.87, a chroma every hue keeps in sRGB.
    const float pi = 3.14159265f;
    const float hue = (static_cast<float>(bank % 8) * 45.0f + 20.0f) * pi / 180.0f;
    const float lightness[4] = {0.48f, 0.61f, 0.74f, 0.87f};
    const float L = lightness[bank / 8], C = bank / 8 == 3 ? 0.085f : 0.11f;
    const float a = C * std::cos(hue), b = C * std::sin(hue);
    const float l_ = L + 0.3963377774f * a + 0.2158037573f * b;
    const float m_ = L - 0.1055613458f * a - 0.0638541728f * b;
    const float s_ = L - 0.0894841775f * a - 1.2914855480f * b;
    const float l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_;
    const float linear[3] = {4.0767416621f * l - 3.3077115913f * m + 0.2309699292f * s,
                             -1.2684380046f * l + 2.6097574011f * m - 0.3413193965f * s,
                             -0.0041960863f * l - 0.7034186147f * m + 1.7076147010f * s};
    unsigned char out[3];
    for (int i = 0; i < 3; ++i) {
        const float v = std::clamp(linear[i], 0.0f, 1.0f);
        const float srgb = v <= 0.0031308f ? 12.92f * v : 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f;
        out[i] = static_cast<unsigned char>(std::lround(std::clamp(srgb, 0.0f, 1.0f) * 255.0f));
    }
    return IM_COL32(out[0], out[1], out[2], 255);
}

Palette paletteFor(bool lecture) {
    return lecture ? lecturePalette() : everydayPalette();
}

float fontPixelsFor(bool lecture, float windowHeight, float contentScale) {
    if (lecture)
        return std::clamp(std::round(windowHeight / 34.0f), 22.0f, 64.0f);
    return std::round(16.0f * std::max(contentScale, 1.0f));
}

void applyTheme(Theme& theme, bool lecture, float fontPixels, float framebufferScale) {
    if (!theme.ui)
        loadFonts(theme);
    // Whole pixels, as the fonts were built before ImGui rendered glyphs on demand.
    fontPixels = std::round(fontPixels);
    theme.fontPixels = fontPixels;
    theme.headingPixels = std::round(fontPixels * 1.15f);
    theme.rasterScale = std::max(framebufferScale, 1.0f);
    theme.lecture = lecture;
    theme.palette = paletteFor(lecture);
    // Lines thicken with the type: thin lines are the first thing a projector loses.
    theme.lineWidth = lecture ? std::max(2.5f, fontPixels / 10.0f) : std::max(1.0f, fontPixels / 16.0f);

    ImGuiStyle style;  // from scratch: ScaleAllSizes multiplies whatever is there
    if (lecture)
        lectureStyle(style);
    else
        everydayStyle(style);
    style.ScaleAllSizes(fontPixels / 16.0f);
    style.FontSizeBase = fontPixels;
    ImGui::GetStyle() = style;
}

void pushHeadingFont(const Theme& theme) {
    ImGui::PushFont(theme.heading, theme.headingPixels);
}

void pushMonoFont(const Theme& theme) {
    ImGui::PushFont(theme.mono, theme.fontPixels);
}

}  // namespace tilescope::ui
