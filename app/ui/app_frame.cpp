// One frame of the app: frame() and what it calls in turn (the theme, the
// shortcuts, the set-up check and the runs it starts, the menus, the panels
// and the legend), then render(). Where each panel goes: app_layout.cpp;
// the app's start, loop and actions: app.cpp.
#include "ui/app.hpp"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <imgui_internal.h>  // NavWindow: the window with keyboard focus (Ctrl+F)

#include "gfx/gl.hpp"
// After glad (GLFW_INCLUDE_NONE): the window's size in screen units.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cfloat>
#include <string>
#include <utility>
#include <vector>

#include "model/lesson_player.hpp"
#include "model/trace_session.hpp"
#include "ui/export_dialog.hpp"
#include "ui/frame_renderer.hpp"
#include "ui/panel_costs.hpp"
#include "ui/panel_legend.hpp"
#include "ui/panel_lesson.hpp"
#include "ui/scripted_input.hpp"
#include "ui/trace_keys.hpp"

namespace tilescope::ui {


void App::frame() {
    applyThemeIfNeeded();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (m_input)
        m_input->feed(m_probe);
    if (m_exporter)  // no hover marks or tooltips in the exported frames
        ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    m_probe.beginFrame();
    m_legend->beginFrame();

    const ImGuiIO& io = ImGui::GetIO();
    const bool input = io.MouseDelta.x != 0 || io.MouseDelta.y != 0 || io.MouseWheel != 0 || ImGui::IsAnyMouseDown() ||
                       !io.InputQueueCharacters.empty() || ImGui::IsAnyItemActive();
    m_quietFrames = input ? 0 : m_quietFrames + 1;
    for (int key = ImGuiKey_NamedKey_BEGIN; key < ImGuiKey_NamedKey_END; ++key)
        if (ImGui::IsKeyDown(static_cast<ImGuiKey>(key)))
            m_quietFrames = 0;

    handleShortcuts();
    updateLesson();
    drawMenuBar();
    updateKernelFile();
    updateLiveClass();
    updateClassJump();
    updateCheckAndSubmit();
    if (stepThroughShown())
        m_traceSession->update();
    if (m_exporter)
        m_exporter->beforePanels(*m_traceSession);
    drawPanels();
    render();
    ++m_frame;
}

void App::applyThemeIfNeeded() {
    int windowWidth = 0, windowHeight = 0;
    glfwGetWindowSize(m_window->handle(), &windowWidth, &windowHeight);
    const float scale = windowWidth > 0 ? static_cast<float>(m_window->framebufferWidth()) / windowWidth : 1.0f;
    const float pixels = fontPixelsFor(m_settings.lecture, static_cast<float>(windowHeight), m_window->contentScale());
    if (m_theme.ui && pixels == m_theme.fontPixels && m_settings.lecture == m_themeLecture &&
        std::max(scale, 1.0f) == m_theme.rasterScale)
        return;
    applyTheme(m_theme, m_settings.lecture, pixels, scale);
    m_themeLecture = m_settings.lecture;
    if (!m_theme.crispFonts)
        m_notice = m_theme.fontProblem;
}

void App::handleShortcuts() {
    const ImGuiIO& io = ImGui::GetIO();
    // Keys typed into a field are not shortcuts (there Esc undoes the edit).
    if (io.WantTextInput)
        return;
    if (ImGui::IsKeyPressed(ImGuiKey_Escape, false)) {
        if (m_settings.panels[PanelId::Help])
            m_settings.panels[PanelId::Help] = false;
        else if (!m_focus.empty())
            setFocus("");
        else if (m_runner->progress().busy)
            m_runner->cancel();
    }
    bool question = false;
    for (ImWchar c : io.InputQueueCharacters)
        question |= c == '?';
    if (ImGui::IsKeyPressed(ImGuiKey_F1, false) || question)
        m_settings.panels[PanelId::Help] = !m_settings.panels[PanelId::Help];
    if (ImGui::IsKeyPressed(ImGuiKey_F5, false))
        rerun();
    if (io.KeyCtrl && ImGui::IsKeyPressed(ImGuiKey_L, false))
        setLecture(!m_settings.lecture);
    if (ImGui::IsKeyPressed(ImGuiKey_F2, false) && m_settings.lecture)
        toggleLecturePanels();
    if (io.KeyCtrl && ImGui::IsKeyPressed(ImGuiKey_O, false)) {
        m_focusPath = true;
        m_settings.panels[PanelId::Setup] = true;
    }
    if (io.KeyCtrl && ImGui::IsKeyPressed(ImGuiKey_K, false))
        requestOpenKernel();
    if (io.KeyCtrl && ImGui::IsKeyPressed(ImGuiKey_R, false))
        resetLayout();
    if (io.KeyCtrl && ImGui::IsKeyPressed(ImGuiKey_Q, false))
        m_window->requestClose();
    if (io.KeyCtrl && ImGui::IsKeyPressed(ImGuiKey_F, false)) {
        // The panel last clicked (the one with keyboard focus) fills the window; again: back.
        if (!m_focus.empty()) {
            setFocus("");
        } else if (const ImGuiWindow* nav = GImGui->NavWindow) {
            for (const PanelInfo& p : kPanelTable) {
                const std::string tag = "###" + std::string(p.key);
                const std::string name = nav->RootWindow ? nav->RootWindow->Name : nav->Name;
                if (name.size() >= tag.size() && name.compare(name.size() - tag.size(), tag.size(), tag) == 0)
                    setFocus(std::string(p.key));
            }
        }
    }
    handleLessonKeys();
    if (stepThroughShown())
        handleTraceKeys(*m_traceSession);
}

void App::updateCheckAndSubmit() {
    m_run.outcome = m_runner->latest();
    if (m_run.outcome && m_run.outcome != m_gpuCheckedOutcome) {
        m_gpuCheckedOutcome = m_run.outcome;
        noticeGpuFailure(*m_run.outcome);
    }
    const SetupState& setup = m_settings.setup;
    const KernelInfo* own = ownKernelInfo();
    const KernelInfo* kernel = setupKernel(setup.kernel, own);
    const int dims = kernel ? kernel->dims : 2;
    m_run.check = checkSetup(setup, m_runner->knownShape(setup.input, dims), m_run.gpu, own);
    adjustCheckForKernelFile();
    // A file that cannot be read is known only once the runner tried.
    if (m_run.outcome && m_run.outcome->inputError && m_run.outcome->job.input == setup.input &&
        m_run.outcome->job.dims == dims)
        m_run.check.inputProblem = m_run.outcome->inputError->message;

    if (m_submitted && *m_submitted == setup && !m_forceRun)
        return;
    m_submitted = setup;
    m_forceRun = false;
    if (!m_run.check.runnable()) {
        m_run.submittedId = 0;  // nothing to run: the panels show why
        m_runner->drop();
        return;
    }
    RunJob job;
    job.kernel = setup.kernel;
    job.dims = dims;
    job.input = setup.input;
    job.mask = *m_run.check.mask;
    job.block = setup.block;
    job.backend = setup.backend;
    job.whatIf = setup.whatIf;
    job.drop = barrierDropOf(setup, own);
    job.schedule = setup.schedule;
    job.seed = setup.seed;
    prepareKernelFileJob(job);
    m_run.submittedId = m_runner->submit(std::move(job));
}

void App::noticeGpuFailure(const RunOutcome& outcome) {
    if (!outcome.result || outcome.result->gpuFailure.empty())
        return;
    m_notice = "The GPU failed; the CPU executor ran the last launch (the Result panel says why).";
    m_run.gpu = queryGpu();
    if (m_run.gpu.available)
        return;  // the next run tries the GPU again (out of memory, say, may pass)
    // The context is lost for good: choose the CPU, without running again
    // what the CPU has just computed.
    m_notice = "The app now runs on the CPU executor: " + m_run.gpu.reason + ".";
    if (m_settings.setup.backend == Backend::Cuda) {
        m_settings.setup.backend = Backend::Cpu;
        if (m_submitted && m_submitted->backend == Backend::Cuda && outcome.id == m_run.submittedId)
            m_submitted->backend = Backend::Cpu;
    }
}

void App::drawMenuBar() {
    if (!ImGui::BeginMainMenuBar())
        return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Open input file...", "Ctrl+O")) {
            if (gfx::Window::hasFilePicker()) {
                m_window->chooseFiles(".png,.jpg,.jpeg,.bmp,.pgm,.ppm,.npy");
            } else {
                m_focusPath = true;
                m_settings.panels[PanelId::Setup] = true;
            }
        }
        drawKernelFileMenu();
        if (ImGui::MenuItem("Open class results..."))
            requestOpenClass();
        drawExportMenu();
        if (ImGui::MenuItem("Close the trace file", nullptr, false, m_openedTrace.trace != nullptr))
            closeOpenedTrace();
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q"))
            m_window->requestClose();
        ImGui::EndMenu();
    }
    drawViewMenu();
    drawLessonMenu();
    if (ImGui::BeginMenu("Run")) {
        if (ImGui::MenuItem("Run again", "F5"))
            rerun();
        if (ImGui::MenuItem("Cancel", "Esc", false, m_runner->progress().busy))
            m_runner->cancel();
        ImGui::EndMenu();
    }
    if (!m_notice.empty()) {
        ImGui::Spacing();
        ImGui::TextColored(m_theme.palette.warning, "%s", m_notice.c_str());
        m_probe.record("app.notice", ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), m_notice);
    }
    ImGui::EndMainMenuBar();
}

void App::drawViewMenu() {
    if (!ImGui::BeginMenu("View"))
        return;
    // The panels by section, each section closed by a separator; the help
    // overlay's item comes last, after the layout's.
    auto items = [&](MenuSection section) {
        for (const PanelInfo& p : kPanelTable)
            if (p.section == section)
                ImGui::MenuItem(p.menuLabel, p.menuShortcut, &m_settings.panels[p.id]);
    };
    for (MenuSection section : {MenuSection::Main, MenuSection::StepThrough, MenuSection::Figures}) {
        items(section);
        ImGui::Separator();
    }
    if (ImGui::MenuItem("Lecture-hall mode", "Ctrl+L", m_settings.lecture))
        setLecture(!m_settings.lecture);
    if (m_settings.lecture && ImGui::MenuItem("The lecture's three panels", "F2", lecturePanelsShown()))
        toggleLecturePanels();
    if (m_classView.live && ImGui::MenuItem("The class now, for a projector"))
        showClassNow();
    if (ImGui::MenuItem("Reset layout", "Ctrl+R"))
        resetLayout();
    drawFocusMenu();
    ImGui::Separator();
    items(MenuSection::Help);
    ImGui::EndMenu();
}

void App::drawPanels() {
    PanelVisibility& panels = m_settings.panels;
    // The lesson bar first: the panels' places start below it.
    if (m_lessons->active()) {
        const ImGuiViewport* viewport = ImGui::GetMainViewport();
        m_lessonPanel->draw(viewport->Pos.x, viewport->Pos.y + ImGui::GetFrameHeight(), viewport->Size.x);
    }
    if (!m_focus.empty()) {
        // A focused panel that was closed gives the room back.
        if (const bool* flag = panels.find(m_focus); !flag || !*flag)
            setFocus("");
    }
    // Each panel in its place, in the table's order, its drawing timed for
    // `ui-bench --panel-costs`; the help overlay last, over the legend.
    auto drawPanel = [&](const PanelInfo& p) {
        bool& open = panels[p.id];
        if (!open)
            return;
        if (p.place != PanelPlace::Overlay && !placePanel(p))
            return;
        // A figure over the other panels: opaque, with square corners, so
        // that nothing under it shows (and the renderer can leave it out).
        if (p.opaque) {
            ImGui::SetNextWindowBgAlpha(1.0f);
            ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
        }
        {
            const PanelCosts::Scope timed(m_panelCostsNow, p.key.data());  // the table's keys are literals
            panel(p.id).draw(&open);
        }
        if (p.opaque)
            ImGui::PopStyleVar();
    };
    for (const PanelInfo& p : kPanelTable)
        if (p.place != PanelPlace::Overlay)
            drawPanel(p);
    {
        const PanelCosts::Scope timed(m_panelCostsNow, "legend");
        // Lecture-hall mode says where the other panels are.
        m_legend->setKeyHint(!m_settings.lecture    ? "F1: keyboard shortcuts"
                             : lecturePanelsShown() ? "F1: keys   F2: more panels"
                                                    : "F1: keys   F2: the lecture's panels");
        m_legend->draw();
    }
    for (const PanelInfo& p : kPanelTable)
        if (p.place == PanelPlace::Overlay)
            drawPanel(p);
    drawExportDialog();
    m_layoutReset = false;
}

void App::render() {
    ImGui::Render();
    m_probe.recordClippedText();
    const int width = m_window->framebufferWidth(), height = m_window->framebufferHeight();
    if (m_capture)
        m_capture->bind();
    else
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, width, height);
    const float grey = m_settings.lecture ? 0.82f : 0.08f;
    const float clear[4] = {grey, grey, grey, 1.0f};
    glClearColor(clear[0], clear[1], clear[2], clear[3]);
    // (Where the screen keeps its pixels, the picture's copy covers them all,
    // or nothing changed and they stay as they are.)
    if (!m_frameRenderer->screenKeepsItsPixels() || m_capture || m_panelCostsNow)
        glClear(GL_COLOR_BUFFER_BIT);
    // The panels drawn opaque and square (drawPanels, PanelInfo::opaque): what lies under them is not drawn.
    static const std::vector<const char*> kOpaqueWindows = [] {
        std::vector<const char*> titles;
        for (const PanelInfo& p : kPanelTable)
            if (p.opaque)
                titles.push_back(p.title);
        return titles;
    }();
    const auto backend = [](ImDrawData* d) { ImGui_ImplOpenGL3_RenderDrawData(d); };
    // Timing each panel: each drawn whole, every frame.
    m_frameRenderer->render(
        *ImGui::GetDrawData(), width, height, m_capture ? m_capture->id() : 0, clear, kOpaqueWindows,
        [&](ImDrawData* d) {
            if (m_panelCostsNow)
                m_panelCostsNow->renderByWindow(*d, backend);
            else
                backend(d);
        },
        m_panelCostsNow != nullptr);
    if (m_exporter)
        captureExportFrame();  // before the buffers swap
    if (!m_capture)
        m_window->swapBuffers();
}

}  // namespace tilescope::ui
