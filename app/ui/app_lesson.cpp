// The App's side of lessons and of the projector layout: the lesson library
// read at start, a step's configuration applied when the player moves (and
// the user's own set-up given back when the lesson ends), the lesson bar
// above the panels, the Lessons menu, the keys a presenter's clicker sends,
// and a panel focused to fill the window.
#include <imgui.h>
#include <imgui_internal.h>  // the window with keyboard focus (Ctrl+F)

#include <cstdio>
#include <filesystem>

#include "model/lesson_player.hpp"
#include "model/trace_session.hpp"
#include "ui/app.hpp"
#include "ui/panel_lesson.hpp"

namespace tilescope::ui {

namespace {

struct FocusTarget {
    const char* key;
    const char* label;
    const char* window;  // the ImGui window name, as drawPanels() begins it
};

constexpr FocusTarget kFocusTargets[] = {
    {"grid", "Grid of N", "Grid of N###grid"},
    {"threads", "Threads", "Threads###threads"},
    {"shared", "Shared and constant memory", "Shared and constant memory###shared"},
    {"output", "Output P", "Output P###output"},
    {"source", "Source", "Source###source"},
    {"counts", "Counts", "Counts###counts"},
    {"problems", "Problems", "Problems###problems"},
    {"hardware", "Hardware", "Hardware###hardware"},
    {"result", "Result", "Result###result"},
    {"setup", "Set-up", "Set-up###setup"},
    {"editor", "Editor", "Editor###editor"},
    {"device", "Device", "Device###device"},
    {"charts", "Charts", "Charts###charts"},
};

}  // namespace

Status App::openLessonsAtStart() {
    m_lessons = std::make_unique<LessonPlayer>();
    m_lessonPanel = std::make_unique<LessonPanel>(*m_lessons, m_theme, m_probe);
    m_lessons->load(shippedLessons());
    if (!m_options.focus.empty()) {
        PanelVisibility probe;
        if (!panelFlag(probe, m_options.focus) || m_options.focus == "help")
            return badInput("--focus: unknown panel '" + m_options.focus + "' (the panels: " + panelNameList() + ")");
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

const LessonMarks* App::lessonMarks() const {
    return m_lessons ? m_lessons->marks() : nullptr;
}

void App::toggleLessonCell(int x, int y) {
    m_lessons->toggleCell({x, y});
}

void App::setFocus(const std::string& panel) {
    // The panel focused until now goes back to its slot (placePanel marked it).
    m_focus = panel;
    if (!panel.empty())
        if (bool* flag = panelFlag(m_settings.panels, panel))
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
    if (backend == Backend::Cuda && m_gpu.available)
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
    for (const FocusTarget& t : kFocusTargets)
        if (ImGui::MenuItem(t.label, nullptr, m_focus == t.key))
            setFocus(m_focus == t.key ? "" : t.key);
    ImGui::EndMenu();
}

bool App::placePanel(Slot slot, const char* windowName, const char* key) {
    if (!m_focus.empty()) {
        if (m_focus != key)
            return false;
        const Rect r = layoutSlot(Slot::Focus);
        ImGui::SetNextWindowPos({r.x, r.y}, ImGuiCond_Always);
        ImGui::SetNextWindowSize({r.w, r.h}, ImGuiCond_Always);
        m_replace[static_cast<int>(slot)] = true;  // back to its slot when the focus ends
        return true;
    }
    placeNextWindow(slot, windowName);
    return true;
}

bool App::advanceLessonScreenshot() {
    if (!m_lessons->active())
        return false;
    if (!m_lessonAnswered && (!m_options.lessonAnswer.empty() || m_options.lessonReveal)) {
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
    if (m_options.lessonRenderDir.empty())
        return false;
    // lesson --render: this step (and, for a question, its answer revealed), then the next.
    char name[64];
    const LessonStep* step = m_lessons->step();
    const bool revealed = m_lessons->revealed();
    std::snprintf(name, sizeof name, "step-%02d%s", m_lessons->stepIndex() + 1, revealed ? "-revealed" : "");
    if (const int code = finishScreenshot(m_options.lessonRenderDir / (std::string(name) + ".png"),
                                          m_options.lessonRenderDir / (std::string(name) + ".json"));
        code != 0) {
        m_renderStatus = code;
        return false;
    }
    ++m_renderedSteps;
    if (step && step->question && !revealed) {
        m_lessons->requestReveal();
        return true;
    }
    if (m_lessons->stepIndex() + 1 < m_lessons->stepCount()) {
        m_lessons->go(m_lessons->stepIndex() + 1);
        return true;
    }
    return false;
}

}  // namespace tilescope::ui
