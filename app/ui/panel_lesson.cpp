#include "ui/panel_lesson.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "model/lesson_player.hpp"
#include "ui/layout_probe.hpp"
#include "ui/theme.hpp"
#include "ui/widgets.hpp"

namespace tilescope::ui {

namespace {

ImVec2 itemMin() {
    return ImGui::GetItemRectMin();
}
ImVec2 itemMax() {
    return ImGui::GetItemRectMax();
}

}  // namespace

void LessonPanel::draw(float x, float y, float width) {
    const LessonStep* step = m_player.step();
    const Lesson* lesson = m_player.lesson();
    if (!step || !lesson) {
        m_height = 0.0f;
        return;
    }
    ImGui::SetNextWindowPos({x, y}, ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints({width, 0.0f}, {width, ImGui::GetMainViewport()->Size.y * 0.5f});
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing;
    if (!ImGui::Begin("Lesson###lesson", nullptr, flags)) {
        ImGui::End();
        return;
    }
    const Palette& palette = m_theme.palette;
    const float wrap = width - ImGui::GetStyle().WindowPadding.x * 2.0f;
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);

    // Where the lesson stands, with the buttons at the right.
    // One row: the step's title, where the lesson stands, the buttons at the right.
    char where[96];
    std::snprintf(where, sizeof where, "step %d of %d", m_player.stepIndex() + 1, m_player.stepCount());
    const ImGuiStyle& style = ImGui::GetStyle();
    const float buttons = ImGui::CalcTextSize("< Back").x + ImGui::CalcTextSize("Next >").x +
                          ImGui::CalcTextSize("End").x + style.FramePadding.x * 6.0f + style.ItemSpacing.x * 3.0f;
    const float right = ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - buttons;
    pushHeadingFont(m_theme);
    ImGui::TextUnformatted(step->title.c_str());
    ImGui::PopFont();
    m_probe.record("lesson.title", itemMin(), itemMax(), step->title);
    // The lesson's title too when the row has room for it.
    const std::string full = std::string(where) + "  |  " + lesson->title;
    ImGui::SameLine(0.0f, style.ItemSpacing.x * 3.0f);
    if (ImGui::GetCursorPosX() + ImGui::CalcTextSize(full.c_str()).x < right)
        ImGui::TextColored(palette.muted, "%s", full.c_str());
    else if (ImGui::GetCursorPosX() + ImGui::CalcTextSize(where).x < right)
        ImGui::TextColored(palette.muted, "%s", where);
    else
        ImGui::NewLine();
    ImGui::SameLine();
    if (ImGui::GetCursorPosX() < right)
        ImGui::SetCursorPosX(right);
    else
        ImGui::NewLine();
    ImGui::BeginDisabled(m_player.stepIndex() == 0);
    if (ImGui::Button("< Back"))
        m_player.previous();
    ImGui::EndDisabled();
    ImGui::SameLine();
    const bool last = m_player.stepIndex() + 1 >= m_player.stepCount();
    const bool questionOpen = step->question && !m_player.revealed();
    ImGui::BeginDisabled(last && !questionOpen);
    if (ImGui::Button("Next >"))
        m_player.next();
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Page Down or Right (a clicker's forward key); on a question, the first press reveals it");
    ImGui::SameLine();
    if (ImGui::Button("End"))
        m_player.stop();

    // The caption: the point of the step, in the UI font (large in lecture mode).
    ImGui::Spacing();
    ImGui::TextUnformatted(step->caption.c_str());
    m_probe.record("lesson.caption", itemMin(), itemMax());

    if (step->question) {
        const LessonQuestion& q = *step->question;
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, palette.warning);
        pushHeadingFont(m_theme);
        ImGui::TextUnformatted(("Predict: " + q.text).c_str());
        ImGui::PopFont();
        ImGui::PopStyleColor();
        m_probe.record("lesson.question", itemMin(), itemMax(), q.text);
        if (!m_player.revealed()) {
            bool check = false;
            if (q.answeredByCells()) {
                const LessonMarks* marks = m_player.marks();
                const std::size_t n = marks ? marks->picked.size() : 0;
                ImGui::Text("Click cells on the Grid of N view (%zu chosen).", n);
                ImGui::SameLine();
                if (ImGui::Button("Clear"))
                    m_player.clearAnswer();
                ImGui::SameLine();
                check = ImGui::Button("Check");
            } else {
                char buffer[256];
                std::snprintf(buffer, sizeof buffer, "%s", m_player.typed().c_str());
                ImGui::SetNextItemWidth(std::min(wrap * 0.5f, m_theme.fontPixels * 18.0f));
                if (m_focusField) {
                    ImGui::SetKeyboardFocusHere();
                    m_focusField = false;
                }
                const bool entered = ImGui::InputTextWithHint("##answer", "your answer", buffer, sizeof buffer,
                                                              ImGuiInputTextFlags_EnterReturnsTrue);
                m_player.typed() = buffer;
                m_probe.record("lesson.answer", itemMin(), itemMax());
                ImGui::SameLine();
                check = ImGui::Button("Check") || entered;
                ImGui::SameLine();
                ImGui::TextColored(palette.muted, "(or reveal: Next)");
            }
            if (check)
                m_player.requestReveal();
            if (m_player.revealPending())
                ImGui::TextColored(palette.muted, "taking the answer from the trace...");
        } else {
            if (!m_player.answerProblem().empty()) {
                problemMessage(m_theme, m_probe, "lesson.answer-problem",
                               "The trace cannot answer this: " + m_player.answerProblem());
            } else {
                const auto& grade = m_player.grade();
                const auto& expected = m_player.expected();
                if (grade) {
                    pushHeadingFont(m_theme);
                    ImGui::TextColored(grade->right ? palette.good : palette.error, "%s %s",
                                       grade->right ? "\xe2\x9c\x93" : "\xe2\x9c\x97", grade->summary.c_str());
                    ImGui::PopFont();
                    m_probe.record("lesson.grade", itemMin(), itemMax(), grade->right ? "right" : "wrong");
                    ImGui::SameLine(0.0f, style.ItemSpacing.x * 3.0f);
                    if (ImGui::Button("Try again")) {
                        m_player.clearAnswer();
                        m_focusField = true;
                    }
                } else if (expected) {
                    std::string numbers;
                    for (double v : expected->numbers) {
                        char text[32];
                        std::snprintf(text, sizeof text, v == static_cast<long long>(v) ? "%.0f" : "%.6g", v);
                        numbers += (numbers.empty() ? "" : " ") + std::string(text);
                    }
                    pushHeadingFont(m_theme);
                    ImGui::Text("Answer: %s", expected->byCells ? "the cells outlined on the grid" : numbers.c_str());
                    ImGui::PopFont();
                    m_probe.record("lesson.grade", itemMin(), itemMax(), "revealed");
                }
                if (!m_player.typedProblem().empty())
                    ImGui::TextColored(palette.muted, "(your answer was not read: %s)",
                                       m_player.typedProblem().c_str());
                if (expected) {
                    ImGui::TextUnformatted(("From the trace: " + expected->how + ".").c_str());
                    m_probe.record("lesson.how", itemMin(), itemMax(), expected->how);
                }
            }
        }
    }
    ImGui::PopTextWrapPos();
    m_probe.recordWindow("lesson.window");
    m_height = ImGui::GetWindowSize().y;
    ImGui::End();
}

}  // namespace tilescope::ui
