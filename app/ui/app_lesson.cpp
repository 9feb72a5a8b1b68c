// The App's side of lessons and of the projector layout: the lesson library
// read at start, a step's configuration applied when the player moves (and
// the user's own set-up given back when the lesson ends), the lesson bar
// above the panels, the Lessons menu, the keys a presenter's clicker sends,
// a picture's answer to the step's question, and a panel focused to fill the
// window.
#include <imgui.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "model/lesson_player.hpp"
#include "model/trace_session.hpp"
#include "ui/app.hpp"
#include "ui/panel_lesson.hpp"

namespace tilescope::ui {

Status App::openLessonsAtStart() {
    m_lessons->load(shippedLessons());
    if (!m_options.focus.empty()) {
        if (const PanelInfo* panel = findPanel(m_options.focus); !panel || !canFocus(*panel))
            return badInput("--focus: unknown panel '" + m_options.focus + "' (the panels: " + focusPanelNameList() +
                            ")");
        setFocus(m_options.focus);
    }
    const std::string& name = m_options.lesson;
    if (name.empty())
        return success();
    // A lesson of the library by its file's stem ("1d-convolution"), else a file.
    const LessonLibrary& library = m_lessons->library();
    for (std::size_t i = 0; i < library.lessons.size(); ++i)
        if (library.lessons[i].file.stem() == name) {
            m_lessons->start(i, 0);
            break;
        }
    if (!m_lessons->active()) {
        for (const LessonError& e : library.errors)
            if (e.file.stem() == name)
                return badInput(e.message());
        std::error_code error;
        if (!std::filesystem::exists(name, error)) {
            std::string known;
            for (const Lesson& l : library.lessons)
                known += (known.empty() ? "" : ", ") + l.file.stem().string();
            return badInput("--lesson " + name + ": no lesson of that name (" + known + ") and no such file");
        }
        std::string problem;
        if (!m_lessons->open(name, problem))
            return badInput(problem);
    }
    if (m_options.lessonStep < 0 || m_options.lessonStep >= m_lessons->stepCount())
        return badInput("--lesson-step " + std::to_string(m_options.lessonStep + 1) + ": the lesson has " +
                        std::to_string(m_lessons->stepCount()) + " steps (1 to " +
                        std::to_string(m_lessons->stepCount()) + ")");
    m_lessons->go(m_options.lessonStep);
    return success();
}

void App::setFocus(const std::string& panel) {
    // The panel focused until now goes back to its place (placePanel marked it).
    m_focus = panel;
    if (!panel.empty())
        if (bool* flag = m_settings.panels.find(panel))
            *flag = true;
}

void App::updateLesson() {
    if (!m_lessons->active()) {
        if (m_beforeLesson)
            endLesson();
        m_traceSession->setNavigationKeysTaken(false);
        return;
    }
    m_traceSession->setNavigationKeysTaken(true);
    if (m_lessons->stepSerial() != m_lessonSerial) {
        m_lessonSerial = m_lessons->stepSerial();
        applyLessonStep();
    }
    // The question is answered from the step's own trace, once it is in.
    const TracedRun& run = m_traceSession->run(0);
    const bool current = run.model && run.replay && run.outcome && run.outcome->id == run.submittedId &&
                         m_traceSession->settled() && m_submitted && *m_submitted == m_settings.setup;
    m_lessons->resolve(current ? run.model.get() : nullptr, current ? run.replay : nullptr);
}

void App::applyLessonStep() {
    const LessonStep* step = m_lessons->step();
    if (!step)
        return;
    if (!m_beforeLesson) {
        m_beforeLesson = m_settings;
        m_beforeLesson->compare = m_options.view.compareKernel;
    }
    const Backend backend = m_settings.setup.backend;
    m_settings.setup = step->setup;
    // A lesson runs where the user runs: the GPU when it is chosen and present.
    if (backend == Backend::Cuda && m_run.gpu.available)
        m_settings.setup.backend = Backend::Cuda;
    m_settings.panels = step->panels;
    m_options.view.compareKernel.clear();
    closeOpenedTrace();
    setFocus(step->focus);
    m_traceSession->requestView(step->select, step->at);
}

void App::endLesson() {
    if (m_beforeLesson) {
        m_settings.setup = m_beforeLesson->setup;
        m_settings.panels = m_beforeLesson->panels;
        m_options.view.compareKernel = m_beforeLesson->compare;
        m_beforeLesson.reset();
    }
    setFocus("");
    m_lessonSerial = m_lessons->stepSerial();
    m_layoutReset = true;
}

bool App::handleLessonKeys() {
    const ImGuiIO& io = ImGui::GetIO();
    if (!m_lessons->active() || io.WantTextInput || io.KeyCtrl)
        return false;
    bool moved = false;
    if (ImGui::IsKeyPressed(ImGuiKey_PageDown) || ImGui::IsKeyPressed(ImGuiKey_RightArrow))
        moved |= m_lessons->next();
    if (ImGui::IsKeyPressed(ImGuiKey_PageUp) || ImGui::IsKeyPressed(ImGuiKey_LeftArrow))
        moved |= m_lessons->previous();
    return moved;
}

void App::drawLessonMenu() {
    if (!ImGui::BeginMenu("Lessons"))
        return;
    const LessonLibrary& library = m_lessons->library();
    for (std::size_t i = 0; i < library.lessons.size(); ++i) {
        const Lesson& lesson = library.lessons[i];
        const bool playing = m_lessons->active() && m_lessons->lesson()->file == lesson.file;
        if (ImGui::MenuItem(lesson.title.c_str(), nullptr, playing))
            m_lessons->start(i, 0);
        if (ImGui::IsItemHovered() && !lesson.about.empty())
            ImGui::SetTooltip("%s\n(%zu steps)", lesson.about.c_str(), lesson.steps.size());
    }
    if (library.lessons.empty())
        ImGui::TextDisabled("no lessons built in");
    if (m_lessons->active()) {
        ImGui::Separator();
        if (ImGui::BeginMenu("Go to step")) {
            for (int s = 0; s < m_lessons->stepCount(); ++s) {
                const std::string label =
                    std::to_string(s + 1) + ". " + m_lessons->lesson()->steps[static_cast<std::size_t>(s)].title;
                if (ImGui::MenuItem(label.c_str(), nullptr, s == m_lessons->stepIndex()))
                    m_lessons->go(s);
            }
            ImGui::EndMenu();
        }
        if (ImGui::MenuItem("End the lesson"))
            m_lessons->stop();
    }
    if (!library.errors.empty()) {
        ImGui::Separator();
        ImGui::TextColored(m_theme.palette.error, "Not loaded (fix the file and restart):");
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + m_theme.fontPixels * 40.0f);
        for (const LessonError& e : library.errors)
            ImGui::TextUnformatted(e.message().c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::EndMenu();
}

void App::drawFocusMenu() {
    if (!ImGui::BeginMenu("Focus a panel (fill the window)"))
        return;
    if (ImGui::MenuItem("None: every panel in its place", "Esc", m_focus.empty()))
        setFocus("");
    // In the order of the menu (PanelInfo::focusOrder).
    for (int order = 0; order < static_cast<int>(kPanelCount); ++order)
        for (const PanelInfo& p : kPanelTable)
            if (p.focusOrder == order && ImGui::MenuItem(p.focusLabel, nullptr, m_focus == p.key))
                setFocus(m_focus == p.key ? "" : std::string(p.key));
    ImGui::EndMenu();
}

bool App::answerLessonQuestion() {
    if (!m_lessons->active() || m_lessonAnswered || (m_options.lessonAnswer.empty() && !m_options.lessonReveal))
        return false;
    m_lessonAnswered = true;
    const LessonStep* step = m_lessons->step();
    if (step && step->question && step->question->answeredByCells()) {
        // "x,y x,y ...", as clicks on the grid would give.
        std::string word;
        auto take = [&] {
            const std::size_t comma = word.find(',');
            if (!word.empty())
                m_lessons->toggleCell({std::atoi(word.substr(0, comma).c_str()),
                                       comma == std::string::npos ? 0 : std::atoi(word.substr(comma + 1).c_str())});
            word.clear();
        };
        for (char c : m_options.lessonAnswer) {
            if (c == ' ')
                take();
            else
                word += c;
        }
        take();
    } else {
        m_lessons->typed() = m_options.lessonAnswer;
    }
    if (m_options.lessonReveal)
        m_lessons->requestReveal();
    return true;
}

}  // namespace tilescope::ui
