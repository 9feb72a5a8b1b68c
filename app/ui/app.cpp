// [SECTION] Index
// - Start and stop: open(), the panels made from the table, close()
// - The interactive app's loop: run(); what the drivers ask of the frames
// - One frame: frame(), theme, shortcuts, the set-up check, menus, panels, render
//   (where each panel goes: app_layout.cpp)
// - Actions panels ask for: lecture mode, files, masks
// - Settings

#include "ui/app.hpp"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <imgui_internal.h>  // NavWindow: the window with keyboard focus (Ctrl+F)
#include <implot.h>

#include <nlohmann/json.hpp>

#include "gfx/gl.hpp"
// After glad (GLFW_INCLUDE_NONE): the window's size in screen units.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <system_error>
#include <utility>
#include <vector>

#include "base/clock.hpp"
#include "io/mask_file.hpp"
#include "io/whole_file.hpp"
#include "model/background_task.hpp"
#include "model/kernel_file.hpp"
#include "model/live_class.hpp"
#include "model/served_client.hpp"
#include "model/lesson_player.hpp"
#include "model/settings.hpp"
#include "model/trace_session.hpp"
#include "trace/trace_io.hpp"
#include "ui/export_dialog.hpp"
#include "ui/frame_renderer.hpp"
#include "ui/make_panel.hpp"
#include "ui/panel_costs.hpp"
#include "ui/panel_legend.hpp"
#include "ui/panel_lesson.hpp"
#include "ui/scripted_input.hpp"
#include "ui/trace_keys.hpp"

namespace tilescope::ui {

namespace {

constexpr Shortcut kShortcuts[] = {
    {"F1  or  ?", "show or hide this help"},
    {"Esc", "close this help; cancel the run in progress"},
    {"Ctrl+L", "lecture-hall mode on or off"},
    {"F2", "in lecture-hall mode: the everyday panels, or back to the lecture's three"},
    {"F5", "run again (reading the input file again)"},
    {"Ctrl+O", "type the path of an input file"},
    {"Ctrl+K", "type the path of a kernel file of your own"},
    {"Ctrl+S", "save your kernel file, compile it and run it"},
    {"Ctrl+R", "put the panels back in their places"},
    {"Ctrl+F", "the panel in use fills the window (again, or Esc: back)"},
    {"PageDown / PageUp", "in a lesson: next / previous step (a presenter's clicker)"},
    {"Ctrl+Q", "quit"},
    {"Space", "play or pause the step-through"},
    {"Right / Left", "one step forward / back (at the chosen granularity)"},
    {"PageDown / PageUp", "next / previous barrier phase"},
    {"Home / End", "the start / the end of the block's trace"},
    {"Down", "the selected thread's next event"},
    {"Up", "granularity: step, warp, event, warp request"},
};

}  // namespace

App::App(AppOptions options) : m_options(std::move(options)) {}

App::~App() {
    close();
}

// [SECTION] Start and stop

Status App::open() {
    m_run.gpu = queryGpu();

    // Settings: the saved ones for the interactive app; a fixed start for
    // screenshots and benchmarks, which must not depend on who ran the app before.
    const bool persist = m_options.mode == AppMode::Interactive && m_options.persist;
    if (persist)
        m_configDir = m_options.configDir.empty() ? defaultConfigDirectory() : m_options.configDir;
    m_settings.setup = demoSetup(m_run.gpu);
    std::error_code error;
    if (!m_configDir.empty() && std::filesystem::exists(m_configDir / "settings.json", error)) {
        if (auto loaded = loadSettings(m_configDir / "settings.json")) {
            m_settings = std::move(*loaded);
            m_settings.panels[PanelId::Help] = false;
            if (m_settings.setup.backend == Backend::Cuda && !m_run.gpu.available)
                m_settings.setup.backend = Backend::Cpu;
        } else {
            m_notice = "settings ignored: " + loaded.error().message;
        }
    }
    if (m_options.setup)
        m_settings.setup = *m_options.setup;
    // Compare mode: the command line's choice, else the saved one (when its
    // kernel still has the dimension of the set-up's).
    if (m_options.view.compareKernel.empty() && persist)
        m_options.view.compareKernel = m_settings.compare;
    if (!compareFits(m_settings.setup.kernel, m_options.view.compareKernel, ownKernelInfo()))
        m_options.view.compareKernel.clear();
    // Each mode shows its own panels (a screenshot's --lecture, the lecture's).
    if (m_options.lecture && *m_options.lecture != m_settings.lecture) {
        m_settings.lecture = *m_options.lecture;
        std::swap(m_settings.panels, m_settings.otherModePanels);
    }
    if (m_options.panels)
        m_settings.panels = *m_options.panels;
    // A lecture starts in the lecture's layout: places remembered from an
    // everyday run (imgui.ini, the page's storage) would cover it.
    if (m_settings.lecture)
        m_layoutReset = true;

    gfx::WindowOptions windowOptions;
    windowOptions.width = m_options.width;
    windowOptions.height = m_options.height;
    const bool offScreen = m_options.mode == AppMode::Screenshot || m_options.mode == AppMode::Export;
    windowOptions.visible = !offScreen;
    windowOptions.vsync = m_options.mode == AppMode::Interactive;
    auto window = gfx::Window::open(windowOptions);
    if (!window)
        return window.error();
    m_window = std::move(*window);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    if (!m_configDir.empty()) {
        std::filesystem::create_directories(m_configDir, error);
        m_iniPath = (m_configDir / "imgui.ini").string();
        io.IniFilename = m_iniPath.c_str();
    } else {
        io.IniFilename = nullptr;
    }
    // Docking: a teacher may dock panels together for the room; until then
    // each panel stays where App::layoutPlace() puts it.
    io.ConfigFlags |= ImGuiConfigFlags_DockingEnable;
    // The panels' drawings (cells that tile the grid, outlines centred on a
    // tile's edge) are laid out on the positioning of strokes and fills that
    // ImGui used before 1.93: adjacent cells meet with no seam, an outline
    // sits where the tile's edge is. ImGui keeps that mode for every draw list.
    io.ConfigDebugDrawListDefaultsToStrokeLegacy = true;
    ImPlot::CreateContext();
    ImGui_ImplGlfw_InitForOpenGL(m_window->handle(), true);
#if defined(__EMSCRIPTEN__)
    ImGui_ImplOpenGL3_Init("#version 300 es");  // WebGL 2
#else
    ImGui_ImplOpenGL3_Init("#version 330 core");
#endif
    m_imguiReady = true;

    auto mapper = gfx::ColorMapper::create();
    if (!mapper)
        return mapper.error();
    m_colorMapper = std::move(*mapper);
    if (offScreen)
        m_capture = std::make_unique<gfx::Framebuffer>(m_window->framebufferWidth(), m_window->framebufferHeight());
    m_frameRenderer = std::make_unique<FrameRenderer>();
#if defined(__EMSCRIPTEN__)
    m_frameRenderer->setScreenKeepsItsPixels(true);  // a canvas shows what was drawn into it last
#endif

    m_runner = std::make_unique<Runner>();
    m_runner->setOnPublish([] { gfx::Window::wake(); });
    m_legend = std::make_unique<LegendPanel>(m_theme, m_probe, *m_colorMapper);
    TraceSessionInputs traceInputs{.setup = m_settings.setup,
                                   .check = m_run.check,
                                   .view = m_options.view,
                                   .eventBudget = m_options.eventBudget,
                                   .openedTraceFile = m_openedTrace.trace,
                                   .openedTracePath = m_options.openTrace,
                                   .runner = *m_runner,
                                   .ownKernel = [this] { return ownKernel(); }};
    m_traceSession = std::make_unique<TraceSession>(std::move(traceInputs),
                                                    TraceSessionCallbacks{.wake = [] { gfx::Window::wake(); }});
    m_kernelFile = std::make_unique<KernelFile>();
    m_kernelFile->setOnDone([] { gfx::Window::wake(); });
    if (m_options.served) {
        m_kernelFile->setServed(m_options.served);
        // Runs wait for the server's answers: each wakes the runners that asked.
        m_options.served->setOnAnswer([this] {
            if (m_runner)
                m_runner->answerArrived();
            if (m_traceSession)
                m_traceSession->answerArrived();
            gfx::Window::wake();
        });
    }
    m_lessons = std::make_unique<LessonPlayer>();
    m_lessonPanel = std::make_unique<LessonPanel>(*m_lessons, m_theme, m_probe);
    makePanels();
    openKernelFileAtStart();
    openClassAtStart();
    startLiveClass();
    if (Status s = openLessonsAtStart(); !s)
        return s;
    m_window->onDrop([this](const std::vector<std::string>& paths) {
        if (paths.empty())
            return;
        const std::string extension = std::filesystem::path(paths.front()).extension().string();
        if (extension == ".cu" || extension == ".cuh")
            openKernelFile(paths.front(), true);
        else
            openInputFile(paths.front());
    });
    m_probe.setEnabled(m_options.probe);
    if (!m_options.maskFile.empty())
        loadMaskFile(m_options.maskFile);
    if (!m_options.openTrace.empty()) {
        // The app opened on a file shows its record (a screenshot shows the panels it names).
        if (m_options.mode == AppMode::Interactive)
            m_settings.panels[PanelId::Hardware] = true;
        // Not fatal: the hardware panel shows what went wrong, in place.
        m_openedTrace.path = m_options.openTrace.string();
        if (auto trace = readTrace(m_openedTrace.path)) {
            m_openedTrace.trace = std::make_shared<const Trace>(std::move(*trace));
        } else {
            m_openedTrace.problem = m_openedTrace.path + ": " + trace.error().message;
            std::fprintf(stderr, "tilescope: %s\n", m_openedTrace.problem.c_str());
        }
    }
    m_savedSettingsJson = settingsToJson(m_settings);
#if defined(__EMSCRIPTEN__)
    // The page's ?open=FILE opened the student's copy in the browser's
    // storage: remembered at once, so that a reload opens it again.
    if (!m_options.kernelFile.empty())
        m_savedSettingsJson.clear();
#endif
    return success();
}

void App::makePanels() {
    SetupActions setupActions;
    setupActions.ownKernelLabel = [this] { return ownKernelLabel(); };
    setupActions.ownKernel = [this] { return ownKernelInfo(); };
    setupActions.openKernel = [this] { requestOpenKernel(); };
    setupActions.openInputFile = [this](const std::string& path) { openInputFile(path); };
    setupActions.loadMaskFile = [this](const std::string& path) { return loadMaskFile(path); };
    setupActions.takeFocusPathRequest = [this] { return std::exchange(m_focusPath, false); };
    const PanelSources sources{
        .context = {m_theme, *m_legend, m_probe},
        .traceSession = *m_traceSession,
        .runner = *m_runner,
        .lessons = *m_lessons,
        .colorMapper = *m_colorMapper,
        .gridOverlays = m_gridOverlays,
        .setup = m_settings.setup,
        .view = m_options.view,
        .panels = m_settings.panels,
        .run = m_run,
        .openedTrace = m_openedTrace,
        .maskFileProblem = m_maskFileProblem,
        .setupActions = std::move(setupActions),
        .ownKernel = [this] { return ownKernelInfo(); },
        .editor = m_kernelFile->state(),
        .editorCallbacks = editorCallbacks(),
        .shortcuts = kShortcuts,
        .classView = m_classView,
        .classCallbacks = classCallbacks(),
        .wake = [] { gfx::Window::wake(); },
    };
    for (const PanelInfo& p : kPanelTable)
        m_panels[static_cast<std::size_t>(p.id)] = makePanel(p.id, sources);
}

void App::close() {
    if (!m_window)
        return;
    saveSettingsIfChanged(true);
    if (m_options.served)
        m_options.served->setOnAnswer(nullptr);
    if (m_options.classFollower)
        m_options.classFollower->stop();
    m_exporter.reset();  // an unfinished export leaves nothing behind
    m_exportDialog.reset();
    // The panels first: they hold the models below (and their textures go
    // while the OpenGL context lives); the charts wait for their sweep.
    for (auto it = m_panels.rbegin(); it != m_panels.rend(); ++it)
        it->reset();
    m_kernelFile.reset();    // stops a compile in progress
    m_runner.reset();        // joins the worker before anything it could wake goes away
    m_traceSession.reset();  // joins its runners
    m_lessonPanel.reset();
    m_lessons.reset();
    m_legend.reset();
    m_capture.reset();
    m_frameRenderer.reset();  // its textures, while the OpenGL context lives
    m_colorMapper.reset();
    if (m_imguiReady) {
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImPlot::DestroyContext();
        ImGui::DestroyContext();  // writes imgui.ini
        m_imguiReady = false;
    }
    m_window.reset();
}

// [SECTION] The interactive app's loop

int App::run() {
    if (Status s = open(); !s) {
        std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
        close();
        return static_cast<int>(s.error().code);
    }
    // Sleep when nothing moves: a laptop on battery should not draw 60
    // identical frames a second (the runner wakes the loop when a result
    // arrives; any input does too).
    while (!m_window->shouldClose()) {
        const bool idle = m_quietFrames > 30 && !m_runner->progress().busy && !m_kernelFile->busy() && !m_exporter;
        if (idle)
            m_window->waitEvents(0.5);
        else
            m_window->pollEvents();
        frame();
        saveSettingsIfChanged(false);
        if (m_options.frames > 0 && m_frame >= m_options.frames)
            break;
    }
    return 0;
}

Status App::openForHost() {
    if (Status s = open(); !s) {
        close();
        return s;
    }
    return success();
}

bool App::hostFrame() {
    if (!m_window || m_window->shouldClose())
        return false;
    m_window->fitToPage();
    // Without threads the runner's job runs here, between two frames: the
    // frame before has drawn the set-up that asked for it, as running.
    m_runner->runPending();
    m_traceSession->runPending();
    m_window->pollEvents();
    frame();
    saveSettingsIfChanged(false);
    return true;
}

std::string App::hostLayoutJson() const {
    if (!m_window)
        return "{}";
    const float scale = static_cast<float>(m_window->framebufferWidth()) / ImGui::GetIO().DisplaySize.x;
    nlohmann::json page = nlohmann::json::object();
    page["settled"] = settled();
    page["redrawn"] = m_frameRenderer ? m_frameRenderer->redrawnLastFrame() : 1.0;
    page["served"] = m_options.servedName;  // the server that compiles kernel files ("": none)
    return m_probe.toJson(m_window->framebufferWidth(), m_window->framebufferHeight(), scale, &page);
}

// [SECTION] What the drivers ask of the frames

bool App::settled() const {
    if (m_frame < 3 || m_runner->progress().busy || m_kernelFile->busy() || m_classJump || m_liveJump ||
        m_liveFetching)
        return false;
    if (m_lessons->active() && (m_lessons->revealPending() || m_lessons->stepSerial() != m_lessonSerial))
        return false;
    // A picture of the step-through views waits for their trace.
    if (stepThroughShown() && m_run.submittedId != 0 && !m_traceSession->settled())
        return false;
    // And a picture of the charts for their sweep.
    if (!panelsSettled())
        return false;
    return m_run.submittedId == 0 || m_run.outcomeIsCurrent();
}

bool App::panelsSettled() const {
    for (const PanelInfo& p : kPanelTable)
        if (m_settings.panels[p.id] && drawnUnderFocus(p, m_focus) &&
            !m_panels[static_cast<std::size_t>(p.id)]->settled())
            return false;
    return true;
}

Result<std::array<int, 2>> App::savePicture(const std::filesystem::path& png, const std::filesystem::path& layoutJson) {
    const gfx::Picture picture = m_capture->read();
    if (Status s = gfx::writePng(png, picture); !s)
        return s.error();
    if (!layoutJson.empty()) {
        const float scale = static_cast<float>(m_window->framebufferWidth()) / ImGui::GetIO().DisplaySize.x;
        const std::string json = m_probe.toJson(picture.width, picture.height, scale);
        if (Status s = io::writeFileAtomic(layoutJson,
                                           std::span(reinterpret_cast<const unsigned char*>(json.data()), json.size()));
            !s)
            return s.error();
    }
    return std::array<int, 2>{picture.width, picture.height};
}

// [SECTION] One frame

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

// [SECTION] Actions panels ask for

void App::setLecture(bool on) {
    if (on == m_settings.lecture)
        return;
    m_settings.lecture = on;
    // Each mode its own panels (the help overlay stays as it is).
    const bool help = m_settings.panels[PanelId::Help];
    std::swap(m_settings.panels, m_settings.otherModePanels);
    m_settings.panels[PanelId::Help] = help;
    // Everything changes size with the fonts: put the panels back in their places.
    m_layoutReset = true;
}

bool App::lecturePanelsShown() const {
    PanelVisibility shown = m_settings.panels;
    shown[PanelId::Help] = false;
    return shown == PanelVisibility::lecture();
}

void App::toggleLecturePanels() {
    const bool help = m_settings.panels[PanelId::Help];
    if (!lecturePanelsShown()) {
        m_settings.panels = PanelVisibility::lecture();
    } else {
        // The everyday panels, as the user left them (or as they are at first).
        PanelVisibility everyday = m_settings.otherModePanels;
        everyday[PanelId::Help] = false;
        m_settings.panels = everyday == PanelVisibility::lecture() ? PanelVisibility() : everyday;
    }
    m_settings.panels[PanelId::Help] = help;
    m_layoutReset = true;
}

void App::openInputFile(const std::string& path) {
    InputSpec& input = m_settings.setup.input;
    input.source = InputSource::File;
    input.path = path;
    m_settings.panels[PanelId::Setup] = true;
    m_runner->forgetInputs();  // the file may have changed since it was last read
    m_forceRun = true;
}

void App::closeOpenedTrace() {
    m_openedTrace.trace.reset();
    m_openedTrace.problem.clear();
}

Status App::loadMaskFile(const std::string& path) {
    auto fail = [this](const Error& e) -> Status {
        m_maskFileProblem = e.message;
        return e;
    };
    auto mask = io::readMask(path);
    if (!mask)
        return fail(mask.error());
    const KernelInfo* kernel = setupKernel(m_settings.setup.kernel, ownKernelInfo());
    const int dims = kernel ? kernel->dims : 2;
    const std::string shape = std::to_string(mask->height) + "x" + std::to_string(mask->width);
    if (dims == 1 && !mask->is1D())
        return fail(badInput(path + ": a " + shape + " mask, but a 1D kernel needs a mask of one row"));
    if (dims == 2 && mask->width != mask->height)
        return fail(badInput(path + ": a " + shape + " mask, but the 2D kernels need a square mask"));
    if (mask->width % 2 == 0)
        return fail(badInput(path + ": mask width " + std::to_string(mask->width) +
                             " is even; the kernels centre the mask on the output element, so it must be odd (2r+1)"));
    if (mask->width / 2 > kMaxRadius)
        return fail(badInput(path + ": radius " + std::to_string(mask->width / 2) + " is over the maximum " +
                             std::to_string(kMaxRadius) + " (constant memory holds masks up to 15x15)"));
    SetupState& setup = m_settings.setup;
    setup.preset = MaskPreset::Custom;
    setup.radius = mask->width / 2;
    setup.customValues = mask->values;
    m_maskFileProblem.clear();
    return success();
}

// [SECTION] Settings

void App::saveSettingsIfChanged(bool force) {
    // A lesson's set-ups are the lesson's: the user's own stay saved as they were.
    if (m_configDir.empty() || (m_lessons && m_lessons->active()))
        return;
    // The last write first: its error, if any, is worth a notice.
    if (m_saving.valid()) {
        if (!force && !taskReady(m_saving))
            return;
        if (Status s = m_saving.get(); !s)
            m_notice = "settings not saved: " + s.error().message;
    }
    const double now = base::seconds();
    if (!force && now - m_lastSettingsCheck < 1.0)
        return;
    m_lastSettingsCheck = now;
    m_settings.compare = m_options.view.compareKernel;
    const std::string json = settingsToJson(m_settings);
    if (json == m_savedSettingsJson && !force)
        return;
    m_savedSettingsJson = json;
    const std::filesystem::path file = m_configDir / "settings.json";
    if (force) {
        if (Status s = saveSettings(file, m_settings); !s)
            std::fprintf(stderr, "tilescope: settings not saved: %s\n", s.error().message.c_str());
        return;
    }
    m_saving = startTask([file, settings = m_settings] { return saveSettings(file, settings); });
}

}  // namespace tilescope::ui
