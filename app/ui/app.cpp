// [SECTION] Index
// - Start and stop: open(), the panels made from the table, close()
// - The interactive app's loop: run(); what the drivers ask of the frames
// - One frame: app_frame.cpp (where each panel goes: app_layout.cpp)
// - Actions panels ask for: lecture mode, files, masks
// - Settings

#include "ui/app.hpp"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <implot.h>

#include <nlohmann/json.hpp>

#include "gfx/gl.hpp"
// After glad (GLFW_INCLUDE_NONE): the window's size in screen units.
#include <GLFW/glfw3.h>

#include <algorithm>
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
#include "ui/panel_legend.hpp"
#include "ui/panel_lesson.hpp"
#include "ui/scripted_input.hpp"

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
    chooseStartSettings();
    if (Status s = openWindow(); !s)
        return s;
    makeModels();
    if (Status s = openWhatWasAsked(); !s)
        return s;
    m_savedSettingsJson = settingsToJson(m_settings);
#if defined(__EMSCRIPTEN__)
    // The page's ?open=FILE opened the student's copy in the browser's
    // storage: remembered at once, so that a reload opens it again.
    if (!m_options.kernelFile.empty())
        m_savedSettingsJson.clear();
#endif
    return success();
}

void App::chooseStartSettings() {
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
}

Status App::openWindow() {
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
        std::error_code error;
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
    return success();
}

void App::makeModels() {
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
}

Status App::openWhatWasAsked() {
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

// Input played from a script (tilescope screenshot --do): ScriptedInput.
Status App::playInput(const std::vector<std::string>& steps) {
    auto input = ScriptedInput::parse(steps);
    if (!input)
        return input.error();
    m_input = std::make_unique<ScriptedInput>(std::move(*input));
    return success();
}

bool App::playingInput() const {
    return m_input && !m_input->done();
}

const std::string& App::inputError() const {
    static const std::string none;
    return m_input ? m_input->error() : none;
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
