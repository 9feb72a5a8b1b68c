// The panels of the app, one row each: the name the settings file, the
// command line (--panels, --focus) and the lesson files use, the window's
// title, the View menu's label, whether it is open at first, whether the
// settings file remembers it, whether it can fill the window, and its place
// in the default layout. Everything that lists the panels reads this table
// (the View and Focus menus, the settings file, the lessons, --panels and
// --focus, the drawing of the panels): a new panel is its own file, its id
// and row here, and the line in make_panel.cpp that makes it.
//
// Plain data, with no ImGui in it: the settings and the lessons read the
// names and the defaults without a window. How each panel is made and drawn
// is the UI's part (make_panel.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace tilescope::ui {

// In the table's order, which is the order the panels are drawn in (the
// help overlay aside: it is drawn last, over the legend too).
enum class PanelId {
    Setup,
    Result,
    Device,
    Help,
    Grid,
    Threads,
    Shared,
    Output,
    Source,
    Counts,
    Hardware,
    Problems,
    Editor,
    Charts,
    Class,
};
inline constexpr std::size_t kPanelCount = 15;

// The place a panel takes in the default layout (App::layoutPlace works out
// where that is for the panels shown): the set-up on the left; the result
// over the device panel on the right; with the step-through views, three
// columns between them; the charts over everything right of the set-up.
enum class PanelPlace {
    Left,
    RightTop,
    RightBottom,
    Grid,
    Source,
    Threads,
    Shared,
    Output,
    Counts,
    Hardware,
    Problems,
    Editor,
    Charts,
    Class,    // the left column, wider than the set-up's (the set-up below it when both are shown)
    Overlay,  // the help overlay places itself, centred
};

// The View menu's sections, in order, each after a separator.
enum class MenuSection {
    Main,         // set-up, result, device, editor, class
    StepThrough,  // the trace-driven views
    Figures,      // the charts
    Help,         // after the layout's items: the keyboard shortcuts
};

struct PanelInfo {
    PanelId id;
    std::string_view key;      // "grid"
    const char* title;         // the ImGui window: "Grid of N###grid" (the part after ### names it in imgui.ini)
    const char* menuLabel;     // "Grid of N", in the View menu
    const char* menuShortcut;  // shown beside the label (null: none)
    MenuSection section;
    bool shownAtFirst;  // before any settings file
    bool persists;      // its visibility is saved in the settings file (the help overlay starts closed)
    bool stepThrough;   // a view of the trace: the trace is made while one of these is shown
    // Its place in the Focus menu (-1: it cannot fill the window), and its label there.
    int focusOrder;
    const char* focusLabel;
    PanelPlace place;
    bool opaque;  // drawn opaque with square corners, over the others (the renderer leaves out what it hides)
};

inline constexpr std::array<PanelInfo, kPanelCount> kPanelTable = {{
    // id, key, title, menu label, shortcut, section, shown at first, persists, step-through,
    // focus order, focus label, place, opaque
    {PanelId::Setup, "setup", "Set-up###setup", "Set-up", nullptr, MenuSection::Main, true, true, false, 9, "Set-up",
     PanelPlace::Left, false},
    {PanelId::Result, "result", "Result###result", "Result", nullptr, MenuSection::Main, true, true, false, 8, "Result",
     PanelPlace::RightTop, false},
    {PanelId::Device, "device", "Device###device", "Device", nullptr, MenuSection::Main, true, true, false, 11,
     "Device", PanelPlace::RightBottom, false},
    {PanelId::Help, "help", "Keyboard shortcuts###help", "Keyboard shortcuts", "F1", MenuSection::Help, false, false,
     false, -1, nullptr, PanelPlace::Overlay, false},
    {PanelId::Grid, "grid", "Grid of N###grid", "Grid of N", nullptr, MenuSection::StepThrough, true, true, true, 0,
     "Grid of N", PanelPlace::Grid, false},
    {PanelId::Threads, "threads", "Threads###threads", "Threads", nullptr, MenuSection::StepThrough, true, true, true,
     1, "Threads", PanelPlace::Threads, false},
    {PanelId::Shared, "shared", "Shared and constant memory###shared", "Shared and constant memory", nullptr,
     MenuSection::StepThrough, true, true, true, 2, "Shared and constant memory", PanelPlace::Shared, false},
    {PanelId::Output, "output", "Output P###output", "Output P", nullptr, MenuSection::StepThrough, false, true, true,
     3, "Output P", PanelPlace::Output, false},
    {PanelId::Source, "source", "Source###source", "Source", nullptr, MenuSection::StepThrough, true, true, true, 4,
     "Source", PanelPlace::Source, false},
    {PanelId::Counts, "counts", "Counts###counts", "Counts", nullptr, MenuSection::StepThrough, true, true, true, 5,
     "Counts", PanelPlace::Counts, false},
    {PanelId::Hardware, "hardware", "Hardware###hardware", "Hardware (SMs over time)", nullptr,
     MenuSection::StepThrough, false, true, true, 7, "Hardware", PanelPlace::Hardware, false},
    {PanelId::Problems, "problems", "Problems###problems", "Problems (races, out of bounds, wrong outputs)", nullptr,
     MenuSection::StepThrough, true, true, true, 6, "Problems", PanelPlace::Problems, false},
    {PanelId::Editor, "editor", "Editor###editor", "Editor (your kernel file)", nullptr, MenuSection::Main, false, true,
     false, 10, "Editor", PanelPlace::Editor, false},
    {PanelId::Charts, "charts", "Charts###charts", "Charts (the strategies compared)", nullptr, MenuSection::Figures,
     false, true, false, 12, "Charts", PanelPlace::Charts, true},
    {PanelId::Class, "class", "Class###class", "Class (a graded class: what it got wrong)", nullptr, MenuSection::Main,
     false, true, false, 13, "Class", PanelPlace::Class, false},
}};

// Row i is the panel whose id is i.
inline constexpr bool kPanelTableInOrder = [] {
    for (std::size_t i = 0; i < kPanelTable.size(); ++i)
        if (static_cast<std::size_t>(kPanelTable[i].id) != i)
            return false;
    return true;
}();
static_assert(kPanelTableInOrder, "kPanelTable lists the panels in the order of PanelId");

inline const PanelInfo& panelInfo(PanelId id) {
    return kPanelTable[static_cast<std::size_t>(id)];
}

// The row of a key ("grid"); null: no panel of that name.
inline const PanelInfo* findPanel(std::string_view key) {
    for (const PanelInfo& p : kPanelTable)
        if (p.key == key)
            return &p;
    return nullptr;
}

// Whether the panel can fill the window (--focus, the Focus menu, a lesson's focus).
inline bool canFocus(const PanelInfo& p) {
    return p.focusOrder >= 0;
}

// Whether an open panel is drawn while the panel `focus` fills the window
// (empty: none): the focused one, and the overlays, which draw over it. The
// others are not drawn, so what they would wait for (the charts' sweep)
// must not hold a picture back.
inline bool drawnUnderFocus(const PanelInfo& p, std::string_view focus) {
    return focus.empty() || p.key == focus || p.place == PanelPlace::Overlay;
}

// "setup, result, ..." for messages and the command line's help.
inline std::string panelNameList() {
    std::string text;
    for (const PanelInfo& p : kPanelTable)
        text += (text.empty() ? "" : ", ") + std::string(p.key);
    return text;
}
// The same of the panels that can fill the window (canFocus), for --focus.
inline std::string focusPanelNameList() {
    std::string text;
    for (const PanelInfo& p : kPanelTable)
        if (canFocus(p))
            text += (text.empty() ? "" : ", ") + std::string(p.key);
    return text;
}

// Lecture-hall mode's panels at first, fewer and larger: the grid of N with
// its stepping bar, the result's images and the source at the current line
// (App::layoutPlace gives them their lecture places; F2 brings back the
// everyday panels, the View menu any one).
inline constexpr PanelId kLecturePanels[] = {PanelId::Grid, PanelId::Result, PanelId::Source};

// Which panels are open, one flag per row of the table.
class PanelVisibility {
public:
    // Each panel as it is at first (PanelInfo::shownAtFirst).
    PanelVisibility() {
        for (const PanelInfo& p : kPanelTable)
            m_shown[static_cast<std::size_t>(p.id)] = p.shownAtFirst;
    }
    // Every panel closed.
    static PanelVisibility none() {
        PanelVisibility v;
        v.m_shown.fill(false);
        return v;
    }
    // Lecture-hall mode's panels at first (kLecturePanels).
    static PanelVisibility lecture();

    bool& operator[](PanelId id) { return m_shown[static_cast<std::size_t>(id)]; }
    bool operator[](PanelId id) const { return m_shown[static_cast<std::size_t>(id)]; }
    // The flag of a key ("grid"); null: no panel of that name.
    bool* find(std::string_view key) {
        const PanelInfo* p = findPanel(key);
        return p ? &(*this)[p->id] : nullptr;
    }
    // The Editor opened, desktop and page alike: it takes the Source panel's
    // place (it shows the same line) and the Device panel's share, since
    // lines of code want the height.
    void openEditor() {
        (*this)[PanelId::Editor] = true;
        (*this)[PanelId::Source] = false;
        (*this)[PanelId::Device] = false;
    }
    // Whether one of the step-through views is shown.
    bool stepThrough() const {
        for (const PanelInfo& p : kPanelTable)
            if (p.stepThrough && (*this)[p.id])
                return true;
        return false;
    }
    bool operator==(const PanelVisibility&) const = default;

private:
    std::array<bool, kPanelCount> m_shown{};
};

inline PanelVisibility PanelVisibility::lecture() {
    PanelVisibility v = none();
    for (PanelId id : kLecturePanels)
        v[id] = true;
    return v;
}

}  // namespace tilescope::ui
