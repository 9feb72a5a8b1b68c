// The App's side of the default layout: where each panel's place
// (PanelInfo::place) is for the panels shown, the window put there until the
// user moves it, and a focused panel filling the room.
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName: has the user moved a panel from its place?

#include <algorithm>
#include <cmath>
#include <iterator>

#include "model/lesson_player.hpp"
#include "ui/app.hpp"
#include "ui/panel_legend.hpp"
#include "ui/panel_lesson.hpp"

namespace tilescope::ui {

App::Rect App::focusRect() const {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    // Below the menu bar, above the legend (its height from the last frame,
    // or an estimate on the first).
    // In whole units, as ImGui keeps a window's place (lecture type at
    // 1280x720 makes the menu bar 30.25 high): a panel put there is then
    // found where it was put, and follows the layout.
    const float top =
        std::round(viewport->Pos.y + ImGui::GetFrameHeight() + (m_lessons->active() ? m_lessonPanel->height() : 0.0f));
    const float legend = m_legend->height() > 0.0f
                             ? m_legend->height()
                             : ImGui::GetTextLineHeightWithSpacing() * 1.5f + ImGui::GetStyle().WindowPadding.y * 2.0f;
    const float height = std::max(100.0f, std::round(viewport->Pos.y + viewport->Size.y - legend - top));
    return {viewport->Pos.x, top, viewport->Size.x, height};
}

bool App::lectureLayoutShown() const {
    if (!m_settings.lecture)
        return false;
    // Only the lecture's panels (the help overlay places itself), or the
    // Editor in the Source panel's place (PanelVisibility::openEditor): the
    // teacher shows code at lecture size. Another panel opened brings the
    // everyday arrangement back, in lecture type.
    const PanelVisibility& shown = m_settings.panels;
    if (shown[PanelId::Editor] && shown[PanelId::Source])
        return false;
    for (const PanelInfo& p : kPanelTable)
        if (shown[p.id] && p.place != PanelPlace::Overlay && p.id != PanelId::Editor &&
            std::find(std::begin(kLecturePanels), std::end(kLecturePanels), p.id) == std::end(kLecturePanels))
            return false;
    return true;
}

App::Rect App::lecturePlace(PanelPlace place) const {
    // The grid of N (its stepping bar on top) on the left, the whole height;
    // on the right the result, as tall as its two images need to be at
    // least kLectureImagePixels on a side (their captions above, the status
    // lines below), and the source under it. A panel closed gives its room
    // to the others.
    //
    // With the Editor (in the Source panel's place), the code takes the
    // whole right column's height, a screenful of lines at lecture size, and
    // the result goes under the grid, at the height its images need.
    const Rect room = focusRect();
    const PanelVisibility& shown = m_settings.panels;
    const bool editor = shown[PanelId::Editor];
    const bool right = shown[PanelId::Result] || shown[PanelId::Source] || editor;
    const float gridW = !shown[PanelId::Grid] ? 0.0f : right ? std::round(room.w * 0.45f) : room.w;
    const float x = room.x + gridW, w = room.w - gridW;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float line = ImGui::GetTextLineHeightWithSpacing();
    // ResultPanel::drawImages: the images get the panel's inside less a
    // caption line and three and a half status lines.
    const float image = kLectureImagePixels / std::max(m_theme.rasterScale, 1.0f);
    const float resultNeeds =
        std::ceil(image + line * 4.5f + ImGui::GetFrameHeight() + style.WindowPadding.y * 2.0f + style.ItemSpacing.y);
    const float resultH = !shown[PanelId::Result] ? 0.0f
                          : !shown[PanelId::Source]
                              ? room.h
                              : std::min(std::max(resultNeeds, std::round(room.h * 0.45f)), room.h);
    if (editor) {
        // The left column: the grid over the result (the whole column for
        // either alone); the editor right of them.
        const float leftW = shown[PanelId::Grid] || shown[PanelId::Result] ? std::round(room.w * 0.45f) : 0.0f;
        const float belowH = !shown[PanelId::Result] ? 0.0f
                             : !shown[PanelId::Grid] ? room.h
                                                     : std::min(resultNeeds, std::round(room.h * 0.5f));
        switch (place) {
            case PanelPlace::Grid:
                return {room.x, room.y, std::max(leftW, 1.0f), std::max(room.h - belowH, 1.0f)};
            case PanelPlace::RightTop:
                return {room.x, room.y + room.h - belowH, std::max(leftW, 1.0f), std::max(belowH, 1.0f)};
            case PanelPlace::Editor:
                return {room.x + leftW, room.y, room.w - leftW, room.h};
            default:
                return {};
        }
    }
    switch (place) {
        case PanelPlace::Grid:
            return {room.x, room.y, std::max(gridW, 1.0f), room.h};
        case PanelPlace::RightTop:
            return {x, room.y, w, std::max(resultH, 1.0f)};
        case PanelPlace::Source:
            return {x, room.y + resultH, w, std::max(room.h - resultH, 1.0f)};
        default:
            break;
    }
    return {};
}

App::Rect App::layoutPlace(PanelPlace place) const {
    if (lectureLayoutShown())
        return lecturePlace(place);
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    // The room the panels share: what a focused panel fills.
    const Rect room = focusRect();
    const float top = room.y, height = room.h, width = room.w;
    const float left = std::clamp(width * 0.32f, std::min(m_theme.fontPixels * 22.0f, width * 0.5f), width * 0.45f);
    const float resultHeight = std::round(height * 0.70f);
    // The set-up panel's width beside the step-through views.
    const float narrowSetup =
        std::clamp(width * 0.2f, std::min(m_theme.fontPixels * 18.0f, width * 0.3f), width * 0.3f);
    // The Class panel takes the left column, wider (its histogram and rows of
    // students), over the set-up when that is shown too; the views a row
    // opens (the editor, the step-through) stand right of it.
    const bool classShown = m_settings.panels[PanelId::Class];
    const float classWidth =
        std::round(std::clamp(width * 0.36f, std::min(m_theme.fontPixels * 30.0f, width * 0.55f), width * 0.55f));
    const float classH = m_settings.panels[PanelId::Setup] ? std::round(height * 0.62f) : height;
    if (place == PanelPlace::Class)
        return {viewport->Pos.x, top, classWidth, classH};
    if (place == PanelPlace::Charts) {
        // A figure for the board: all the width right of the set-up panel,
        // over the other panels (close it, or dock it, to see them again).
        const float setupW = classShown                          ? classWidth
                             : !m_settings.panels[PanelId::Setup] ? 0.0f
                             : stepThroughShown()                 ? narrowSetup
                                                                  : left;
        return {viewport->Pos.x + setupW, top, width - setupW, height};
    }
    // The set-up under the Class panel, in its column.
    if (place == PanelPlace::Left && classShown)
        return {viewport->Pos.x, top + classH, classWidth, std::max(height - classH, 1.0f)};
    if (stepThroughShown()) {
        // Setup narrower; then three columns: grid over problems, counts
        // and hardware; threads over shared (and output); result, source and
        // device.
        const float setupWidth = classShown ? classWidth : m_settings.panels[PanelId::Setup] ? narrowSetup : 0.0f;
        // A column whose panels are all closed gives its width to the others,
        // and a panel alone in its column takes the column's height.
        const PanelVisibility& shown = m_settings.panels;
        const bool middle = shown[PanelId::Threads] || shown[PanelId::Shared] || shown[PanelId::Output];
        const bool right =
            shown[PanelId::Result] || shown[PanelId::Source] || shown[PanelId::Device] || shown[PanelId::Editor];
        const float rest = width - setupWidth;
        // The editor, in the right column, wants its width for lines of code.
        const float wide = shown[PanelId::Editor] ? 0.08f : 0.0f;
        const float a = std::round(rest * (middle ? (right ? 0.40f - wide : 0.60f) : (right ? 0.60f - wide : 1.0f)));
        const float b = middle ? std::round(rest * (right ? 0.25f - wide / 2 : 0.40f)) : 0.0f;
        const float c = rest - a - b;
        const float x0 = viewport->Pos.x + setupWidth, x1 = x0 + a, x2 = x1 + b;
        // The grid column: the grid on top, then the problems, then counts and
        // hardware sharing what is left.
        const bool below = shown[PanelId::Counts] || shown[PanelId::Hardware];
        const float gridHeight = !shown[PanelId::Grid] ? 0.0f
                                 : shown[PanelId::Problems] || below
                                     ? std::round(height * (shown[PanelId::Problems] && below ? 0.55f : 0.60f))
                                     : height;
        const float problemsHeight =
            shown[PanelId::Problems] ? (below ? std::round((height - gridHeight) * 0.6f) : height - gridHeight) : 0.0f;
        const float threadsHeight = !shown[PanelId::Threads]
                                        ? 0.0f
                                        : (shown[PanelId::Shared] || shown[PanelId::Output]
                                               ? std::round(height * (shown[PanelId::Output] ? 0.34f : 0.40f))
                                               : height);
        const float sharedHeight = !shown[PanelId::Shared] ? 0.0f
                                   : shown[PanelId::Output]
                                       ? std::round(height * (shown[PanelId::Threads] ? 0.36f : 0.60f))
                                       : height - threadsHeight;
        const float deviceH = m_settings.panels[PanelId::Device] ? std::round(height * 0.14f) : 0.0f;
        const float resultH = !shown[PanelId::Result]                            ? 0.0f
                              : shown[PanelId::Source] || shown[PanelId::Editor] ? std::round(height * 0.30f)
                                                                                 : height - deviceH;
        // Between the result and the device panel: the editor over the source panel (40%).
        const float between = height - resultH - deviceH;
        const float sourceH = shown[PanelId::Editor] && shown[PanelId::Source] ? std::round(between * 0.40f) : between;
        switch (place) {
            case PanelPlace::Left:
                return {viewport->Pos.x, top, setupWidth, height};
            case PanelPlace::Grid:
                return {x0, top, a, gridHeight};
            case PanelPlace::Problems:
                return {x0, top + gridHeight, a, std::max(problemsHeight, 1.0f)};
            case PanelPlace::Counts: {
                // Shares the grid column's bottom with the hardware panel.
                const float h = height - gridHeight - problemsHeight;
                return {x0, top + gridHeight + problemsHeight, a,
                        m_settings.panels[PanelId::Hardware] ? std::round(h * 0.5f) : h};
            }
            case PanelPlace::Hardware: {
                const float h = height - gridHeight - problemsHeight;
                const float countsH = m_settings.panels[PanelId::Counts] ? std::round(h * 0.5f) : 0.0f;
                // The only step-through panel: all the width right of the set-up
                // (left of the result and device panels when they are shown).
                const PanelVisibility& p = m_settings.panels;
                if (!(p[PanelId::Grid] || p[PanelId::Threads] || p[PanelId::Shared] || p[PanelId::Output] ||
                      p[PanelId::Source] || p[PanelId::Counts] || p[PanelId::Problems]))
                    return {x0, top, p[PanelId::Result] || p[PanelId::Device] ? a + b : rest, height};
                return {x0, top + gridHeight + problemsHeight + countsH, a, h - countsH};
            }
            case PanelPlace::Threads:
                return {x1, top, b, threadsHeight};
            case PanelPlace::Shared:
                return {x1, top + threadsHeight, b, sharedHeight};
            case PanelPlace::Output:
                return {x1, top + threadsHeight + sharedHeight, b, height - threadsHeight - sharedHeight};
            case PanelPlace::RightTop:
                return {x2, top, c, std::max(resultH, 1.0f)};
            case PanelPlace::Source:
                return {x2, top + resultH + between - sourceH, c, std::max(sourceH, 1.0f)};
            case PanelPlace::Editor:
                return {x2, top + resultH, c, std::max(between - (shown[PanelId::Source] ? sourceH : 0.0f), 1.0f)};
            case PanelPlace::RightBottom:
                return {x2, top + height - deviceH, c, std::max(deviceH, 1.0f)};
            case PanelPlace::Charts:
            case PanelPlace::Class:
            case PanelPlace::Overlay:
                break;
        }
        return {};
    }
    // Without the set-up panel, the result and device panels take the width
    // (half of it beside the editor).
    const float leftWidth = classShown ? classWidth : m_settings.panels[PanelId::Setup] ? left : 0.0f;
    const float resultH = m_settings.panels[PanelId::Device] ? resultHeight : height;
    const float editorW = m_settings.panels[PanelId::Editor] ? std::round((width - leftWidth) * 0.5f) : 0.0f;
    const float x = viewport->Pos.x + leftWidth + editorW, w = width - leftWidth - editorW;
    switch (place) {
        case PanelPlace::Left:
            return {viewport->Pos.x, top, left, height};
        case PanelPlace::Editor:
            return {viewport->Pos.x + leftWidth, top, std::max(editorW, 1.0f), height};
        case PanelPlace::RightTop:
            return {x, top, w, resultH};
        case PanelPlace::RightBottom:
            return {x, top + resultHeight, w, height - resultHeight};
        default:
            break;
    }
    return {};
}

void App::placeNextWindow(const PanelInfo& panel) {
    const Rect target = layoutPlace(panel.place);
    std::optional<Rect>& assigned = m_assigned[static_cast<std::size_t>(panel.id)];
    const ImGuiWindow* window = ImGui::FindWindowByName(panel.title);
    bool& replace = m_replace[static_cast<std::size_t>(panel.id)];
    bool place = m_layoutReset || !window || replace;
    if (window && assigned) {
        // Still where the layout put it: it follows the layout.
        const Rect now{window->Pos.x, window->Pos.y, window->SizeFull.x, window->SizeFull.y};
        place |= now == *assigned && !(target == *assigned);
    }
    if (!place)
        return;
    // FirstUseEver for a window imgui.ini does not know yet (and for a reset,
    // Always): a place the user chose in an earlier run is kept.
    const ImGuiCond condition = window || m_layoutReset ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    replace = false;
    ImGui::SetNextWindowPos({target.x, target.y}, condition);
    ImGui::SetNextWindowSize({target.w, target.h}, condition);
    assigned = target;
}

bool App::placePanel(const PanelInfo& panel) {
    if (!m_focus.empty()) {
        if (!drawnUnderFocus(panel, m_focus))
            return false;
        const Rect r = focusRect();
        ImGui::SetNextWindowPos({r.x, r.y}, ImGuiCond_Always);
        ImGui::SetNextWindowSize({r.w, r.h}, ImGuiCond_Always);
        m_replace[static_cast<std::size_t>(panel.id)] = true;  // back to its place when the focus ends
        return true;
    }
    placeNextWindow(panel);
    return true;
}

}  // namespace tilescope::ui
