// [SECTION] Index
// - Start and stop: open(), close()
// - The frame loop of each mode: run()
// - One frame: frame(), theme, shortcuts, the set-up check, panels, render
// - Actions panels ask for: lecture mode, files, masks
// - Settings

#include "ui/app.hpp"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <imgui_internal.h>  // FindWindowByName: has the user moved a panel from its place?
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
#include "trace/trace_io.hpp"
#include "ui/background_task.hpp"
#include "ui/export_dialog.hpp"
#include "ui/frame_renderer.hpp"
#include "ui/kernel_file.hpp"
#include "ui/lesson_player.hpp"
#include "ui/panel_lesson.hpp"
#include "ui/panel_charts.hpp"
#include "ui/panel_costs.hpp"
#include "ui/panel_counts.hpp"
#include "ui/panel_device.hpp"
#include "ui/panel_editor.hpp"
#include "ui/panel_grid.hpp"
#include "ui/panel_hardware.hpp"
#include "ui/panel_help.hpp"
#include "ui/panel_legend.hpp"
#include "ui/panel_output.hpp"
#include "ui/panel_problems.hpp"
#include "ui/panel_result.hpp"
#include "ui/panel_setup.hpp"
#include "ui/panel_shared.hpp"
#include "ui/panel_source.hpp"
#include "ui/panel_threads.hpp"
#include "ui/settings.hpp"
#include "ui/trace_session.hpp"

namespace tilescope::ui {

namespace {

constexpr Shortcut kShortcuts[] = {
    {"F1  or  ?", "show or hide this help"},
    {"Esc", "close this help; cancel the run in progress"},
    {"Ctrl+L", "lecture-hall mode on or off"},
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

// Frames a screenshot waits after the result is in, for windows to take
// their size and place (ImGui lays out from the previous frame's sizes).
constexpr int kSettleFrames = 6;
constexpr double kScreenshotTimeoutSeconds = 120.0;

}  // namespace

App::App(AppOptions options) : m_options(std::move(options)) {}

App::~App() {
    close();
}

std::span<const Shortcut> App::shortcuts() const {
    return kShortcuts;
}

// [SECTION] Start and stop

Status App::open() {
    m_gpu = queryGpu();

    // Settings: the saved ones for the interactive app; a fixed start for
    // screenshots and benchmarks, which must not depend on who ran the app before.
    const bool persist = m_options.mode == AppMode::Interactive && m_options.persist;
    if (persist)
        m_configDir = m_options.configDir.empty() ? defaultConfigDirectory() : m_options.configDir;
    m_settings.setup = demoSetup(m_gpu);
    std::error_code error;
    if (!m_configDir.empty() && std::filesystem::exists(m_configDir / "settings.json", error)) {
        if (auto loaded = loadSettings(m_configDir / "settings.json")) {
            m_settings = std::move(*loaded);
            m_settings.panels.help = false;
            if (m_settings.setup.backend == Backend::Cuda && !m_gpu.available)
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
    if (!compareFits(m_settings.setup.kernel, m_options.view.compareKernel))
        m_options.view.compareKernel.clear();
    if (m_options.panels)
        m_settings.panels = *m_options.panels;
    if (m_options.lecture)
        m_settings.lecture = *m_options.lecture;

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
    // each panel stays where App::layoutSlot() puts it.
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
    m_setupPanel = std::make_unique<SetupPanel>(*this);
    m_resultPanel = std::make_unique<ResultPanel>(*this);
    m_devicePanel = std::make_unique<DevicePanel>(*this);
    m_legend = std::make_unique<LegendPanel>(*this);
    m_help = std::make_unique<HelpPanel>(*this);
    m_traceSession = std::make_unique<TraceSession>(*this);
    m_gridPanel = std::make_unique<GridPanel>(*this);
    m_threadsPanel = std::make_unique<ThreadsPanel>(*this);
    m_sharedPanel = std::make_unique<SharedPanel>(*this);
    m_outputPanel = std::make_unique<OutputPanel>(*this);
    m_sourcePanel = std::make_unique<SourcePanel>(*this);
    m_countsPanel = std::make_unique<CountsPanel>(*this);
    m_hardwarePanel = std::make_unique<HardwarePanel>(*this);
    m_problemsPanel = std::make_unique<ProblemsPanel>(*m_traceSession, m_theme, m_probe);
    m_chartsPanel = std::make_unique<ChartsPanel>(m_theme, m_probe, [] { gfx::Window::wake(); });
    openKernelFileAtStart();
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
    m_probe.setEnabled(m_options.probe || !m_options.layoutJson.empty() || !m_options.lessonRenderDir.empty());
    if (!m_options.maskFile.empty())
        loadMaskFile(m_options.maskFile);
    if (!m_options.openTrace.empty()) {
        // The app opened on a file shows its record (a screenshot shows the panels it names).
        if (m_options.mode == AppMode::Interactive)
            m_settings.panels.hardware = true;
        // Not fatal: the hardware panel shows what went wrong, in place.
        if (auto trace = readTrace(m_options.openTrace.string())) {
            m_openedTrace = std::make_shared<const Trace>(std::move(*trace));
        } else {
            m_openedTraceProblem = m_options.openTrace.string() + ": " + trace.error().message;
            std::fprintf(stderr, "tilescope: %s\n", m_openedTraceProblem.c_str());
        }
    }
    m_savedSettingsJson = settingsToJson(m_settings);
    return success();
}

void App::close() {
    if (!m_window)
        return;
    saveSettingsIfChanged(true);
    m_exporter.reset();  // an unfinished export leaves nothing behind
    m_exportDialog.reset();
    m_editorPanel.reset();
    m_kernelFile.reset();  // stops a compile in progress
    m_runner.reset();  // joins the worker before anything it could wake goes away
    m_problemsPanel.reset();
    m_chartsPanel.reset();  // waits for its sweep
    m_hardwarePanel.reset();
    m_countsPanel.reset();
    m_sourcePanel.reset();
    m_outputPanel.reset();
    m_sharedPanel.reset();
    m_threadsPanel.reset();
    m_gridPanel.reset();  // its textures, while the OpenGL context lives
    m_traceSession.reset();  // joins its runners
    m_help.reset();
    m_legend.reset();
    m_devicePanel.reset();
    m_resultPanel.reset();  // its textures, while the OpenGL context lives
    m_setupPanel.reset();
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

// [SECTION] The frame loop of each mode

int App::run() {
    if (Status s = open(); !s) {
        std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
        close();
        return static_cast<int>(s.error().code);
    }

    if (m_options.mode == AppMode::Screenshot || m_options.mode == AppMode::Export) {
        const double deadline = base::seconds() + kScreenshotTimeoutSeconds;
        for (;;) {
            // While the charts' sweep runs, draw a frame only now and then:
            // drawing flat out takes the cores the sweep needs.
            if (m_frame > 3 && m_settings.panels.charts && !m_chartsPanel->settled())
                m_window->waitEvents(0.05);
            else
                m_window->pollEvents();
            frame();
            m_settledFrames = settled() ? m_settledFrames + 1 : 0;
            if (m_settledFrames >= kSettleFrames && !m_options.thenOpen.empty() && !m_thenOpened) {
                // The state before is in: now the file, as a user would drop it.
                openInputFile(m_options.thenOpen.string());
                m_thenOpened = true;
                m_settledFrames = 0;
                continue;
            }
            if (m_settledFrames >= kSettleFrames) {
                if (advanceLessonScreenshot()) {
                    m_settledFrames = 0;
                    continue;
                }
                if (!m_options.lessonRenderDir.empty()) {
                    if (m_renderStatus == 0)
                        std::fprintf(stderr, "tilescope: wrote %d pictures of the lesson's steps into %s\n",
                                     m_renderedSteps, m_options.lessonRenderDir.string().c_str());
                    return m_renderStatus;
                }
                return m_options.mode == AppMode::Export ? runExport() : finishScreenshot();
            }
            if (base::seconds() > deadline && m_options.mode == AppMode::Export) {
                std::fprintf(stderr, "tilescope: the trace was not in after %.0f s; nothing exported\n",
                             kScreenshotTimeoutSeconds);
                return static_cast<int>(ExitCode::Internal);
            }
            if (base::seconds() > deadline) {
                std::fprintf(stderr, "tilescope: the run did not finish in %.0f s; the picture shows it in progress\n",
                             kScreenshotTimeoutSeconds);
                return finishScreenshot();
            }
        }
    }

    if (m_options.mode == AppMode::Bench) {
        // Warm up: fonts, the first result and its textures are start-up costs, not frame costs.
        const double deadline = base::seconds() + kScreenshotTimeoutSeconds;
        while (m_settledFrames < kSettleFrames && base::seconds() < deadline) {
            m_window->pollEvents();
            frame();
            m_settledFrames = settled() ? m_settledFrames + 1 : 0;
        }
        const int frames = m_options.frames > 0 ? m_options.frames : 300;
        std::vector<double> times;
        times.reserve(static_cast<std::size_t>(frames));
        int results = 0;
        std::uint64_t lastOutcome = m_outcome ? m_outcome->id : 0;
        for (int i = 0; i < frames; ++i) {
            if (m_options.recomputeEvery > 0 && i % m_options.recomputeEvery == m_options.recomputeEvery - 1)
                setup().whatIf = !setup().whatIf;  // any change re-runs; this one never makes the set-up invalid
            if (m_options.stepEvery > 0 && i % m_options.stepEvery == 0)
                m_traceSession->stepForward();
            const double start = base::seconds();
            m_window->pollEvents();
            frame();
            glFinish();  // count the drawing, not just the submitting
            times.push_back((base::seconds() - start) * 1000.0);
            if (m_outcome && m_outcome->id != lastOutcome) {
                ++results;
                lastOutcome = m_outcome->id;
            }
        }
        std::vector<double> sorted = times;
        std::sort(sorted.begin(), sorted.end());
        const auto worst = std::max_element(times.begin(), times.end());
        std::printf("ui-bench: %d frames, %dx%d, lecture mode %s, %s\n", frames, m_window->framebufferWidth(),
                    m_window->framebufferHeight(), lecture() ? "on" : "off", m_window->renderer().c_str());
        std::printf("ui-bench: median %.2f ms, worst %.2f ms (frame %d)", sorted[sorted.size() / 2], *worst,
                    static_cast<int>(worst - times.begin()));
        if (m_options.recomputeEvery > 0)
            std::printf(", %d new results shown", results);
        std::printf("\n");
        std::printf("ui-bench: the last frame drew %.0f%% of the window again (the rest was as the frame before), "
                    "%d windows hidden under an opaque one not drawn\n",
                    m_frameRenderer->redrawnLastFrame() * 100.0, m_frameRenderer->hiddenLastFrame());
        if (m_options.stepEvery > 0) {
            const BlockReplay* replay = m_traceSession->replay();
            if (replay)
                std::printf("ui-bench: stepped the trace of block (%u,%u) to event %u of %u (%s)\n", replay->block().x,
                            replay->block().y, m_traceSession->cursor(), replay->size(),
                            m_traceSession->cursor() >= replay->size() ? "the end" : "not the end");
            else
                std::printf("ui-bench: no trace to step: %s\n", m_traceSession->status().c_str());
        }
        if (m_options.panelCosts) {
            // As many frames again, stepping as the timed ones did, each panel timed.
            PanelCosts costs;
            m_panelCostsNow = &costs;
            for (int i = 0; i < frames; ++i) {
                if (m_options.stepEvery > 0 && i % m_options.stepEvery == 0)
                    m_traceSession->stepForward();
                m_window->pollEvents();
                frame();
            }
            m_panelCostsNow = nullptr;
            costs.print(stdout);
        }
        return 0;
    }

    // Interactive. Sleep when nothing moves: a laptop on battery should not
    // draw 60 identical frames a second (the runner wakes the loop when a
    // result arrives; any input does too).
    while (!m_window->shouldClose()) {
        const bool idle =
            m_quietFrames > 30 && !m_runner->progress().busy && !m_kernelFile->busy() && !m_exporter;
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
    return m_probe.toJson(m_window->framebufferWidth(), m_window->framebufferHeight(), scale, &page);
}

bool App::settled() const {
    if (m_frame < 3 || m_runner->progress().busy || m_kernelFile->busy())
        return false;
    if (m_lessons->active() && (m_lessons->revealPending() || m_lessons->stepSerial() != m_lessonSerial))
        return false;
    // A picture of the step-through views waits for their trace.
    if (stepThroughShown() && m_submittedId != 0 && !m_traceSession->settled())
        return false;
    // And a picture of the charts for their sweep.
    if (m_settings.panels.charts && !m_chartsPanel->settled())
        return false;
    return m_submittedId == 0 || outcomeIsCurrent();
}

int App::finishScreenshot() {
    return finishScreenshot(m_options.screenshot, m_options.layoutJson);
}

int App::finishScreenshot(const std::filesystem::path& png, const std::filesystem::path& layoutJson) {
    const gfx::Picture picture = m_capture->read();
    if (Status s = gfx::writePng(png, picture); !s) {
        std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
        return static_cast<int>(s.error().code);
    }
    if (!layoutJson.empty()) {
        const float scale = static_cast<float>(m_window->framebufferWidth()) / ImGui::GetIO().DisplaySize.x;
        const std::string json = m_probe.toJson(picture.width, picture.height, scale);
        if (Status s = io::writeFileAtomic(layoutJson,
                                           std::span(reinterpret_cast<const unsigned char*>(json.data()), json.size()));
            !s) {
            std::fprintf(stderr, "tilescope: %s\n", s.error().message.c_str());
            return static_cast<int>(s.error().code);
        }
    }
    if (m_options.lessonRenderDir.empty())
        std::fprintf(stderr, "tilescope: wrote %s (%dx%d)\n", png.string().c_str(), picture.width, picture.height);
    return 0;
}

// [SECTION] One frame

void App::frame() {
    applyThemeIfNeeded();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
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
        if (m_settings.panels.help)
            m_settings.panels.help = false;
        else if (!m_focus.empty())
            setFocus("");
        else if (m_runner->progress().busy)
            m_runner->cancel();
    }
    bool question = false;
    for (ImWchar c : io.InputQueueCharacters)
        question |= c == '?';
    if (ImGui::IsKeyPressed(ImGuiKey_F1, false) || question)
        m_settings.panels.help = !m_settings.panels.help;
    if (ImGui::IsKeyPressed(ImGuiKey_F5, false))
        rerun();
    if (io.KeyCtrl && ImGui::IsKeyPressed(ImGuiKey_L, false))
        setLecture(!m_settings.lecture);
    if (io.KeyCtrl && ImGui::IsKeyPressed(ImGuiKey_O, false)) {
        m_focusPath = true;
        m_settings.panels.setup = true;
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
            for (const PanelName& p : panelNames()) {
                const std::string tag = "###" + std::string(p.key);
                const std::string name = nav->RootWindow ? nav->RootWindow->Name : nav->Name;
                if (name.size() >= tag.size() && name.compare(name.size() - tag.size(), tag.size(), tag) == 0)
                    setFocus(std::string(p.key));
            }
        }
    }
    handleLessonKeys();
    if (stepThroughShown())
        m_traceSession->handleKeys();
}

void App::updateCheckAndSubmit() {
    m_outcome = m_runner->latest();
    if (m_outcome && m_outcome != m_gpuCheckedOutcome) {
        m_gpuCheckedOutcome = m_outcome;
        noticeGpuFailure(*m_outcome);
    }
    const SetupState& setup = m_settings.setup;
    const KernelInfo* kernel = setupKernel(setup.kernel);
    const int dims = kernel ? kernel->dims : 2;
    m_check = checkSetup(setup, m_runner->knownShape(setup.input, dims), m_gpu);
    adjustCheckForKernelFile();
    // A file that cannot be read is known only once the runner tried.
    if (m_outcome && m_outcome->inputError && m_outcome->job.input == setup.input && m_outcome->job.dims == dims)
        m_check.inputProblem = m_outcome->inputError->message;

    if (m_submitted && *m_submitted == setup && !m_forceRun)
        return;
    m_submitted = setup;
    m_forceRun = false;
    if (!m_check.runnable()) {
        m_submittedId = 0;  // nothing to run: the panels show why
        m_runner->drop();
        return;
    }
    RunJob job;
    job.kernel = setup.kernel;
    job.dims = dims;
    job.input = setup.input;
    job.mask = *m_check.mask;
    job.block = setup.block;
    job.backend = setup.backend;
    job.whatIf = setup.whatIf;
    job.drop = barrierDropOf(setup);
    job.schedule = setup.schedule;
    prepareKernelFileJob(job);
    m_submittedId = m_runner->submit(std::move(job));
}

void App::noticeGpuFailure(const RunOutcome& outcome) {
    if (!outcome.result || outcome.result->gpuFailure.empty())
        return;
    m_notice = "The GPU failed; the CPU executor ran the last launch (the Result panel says why).";
    m_gpu = queryGpu();
    if (m_gpu.available)
        return;  // the next run tries the GPU again (out of memory, say, may pass)
    // The context is lost for good: choose the CPU, without running again
    // what the CPU has just computed.
    m_notice = "The app now runs on the CPU executor: " + m_gpu.reason + ".";
    if (m_settings.setup.backend == Backend::Cuda) {
        m_settings.setup.backend = Backend::Cpu;
        if (m_submitted && m_submitted->backend == Backend::Cuda && outcome.id == m_submittedId)
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
                m_settings.panels.setup = true;
            }
        }
        drawKernelFileMenu();
        drawExportMenu();
        if (ImGui::MenuItem("Close the trace file", nullptr, false, m_openedTrace != nullptr))
            closeOpenedTrace();
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q"))
            m_window->requestClose();
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        ImGui::MenuItem("Set-up", nullptr, &m_settings.panels.setup);
        ImGui::MenuItem("Result", nullptr, &m_settings.panels.result);
        ImGui::MenuItem("Device", nullptr, &m_settings.panels.device);
        ImGui::MenuItem("Editor (your kernel file)", nullptr, &m_settings.panels.editor);
        ImGui::Separator();
        ImGui::MenuItem("Grid of N", nullptr, &m_settings.panels.grid);
        ImGui::MenuItem("Threads", nullptr, &m_settings.panels.threads);
        ImGui::MenuItem("Shared and constant memory", nullptr, &m_settings.panels.shared);
        ImGui::MenuItem("Output P", nullptr, &m_settings.panels.output);
        ImGui::MenuItem("Source", nullptr, &m_settings.panels.source);
        ImGui::MenuItem("Counts", nullptr, &m_settings.panels.counts);
        ImGui::MenuItem("Hardware (SMs over time)", nullptr, &m_settings.panels.hardware);
        ImGui::MenuItem("Problems (races, out of bounds, wrong outputs)", nullptr, &m_settings.panels.problems);
        ImGui::Separator();
        ImGui::MenuItem("Charts (the strategies compared)", nullptr, &m_settings.panels.charts);
        ImGui::Separator();
        if (ImGui::MenuItem("Lecture-hall mode", "Ctrl+L", m_settings.lecture))
            setLecture(!m_settings.lecture);
        if (ImGui::MenuItem("Reset layout", "Ctrl+R"))
            resetLayout();
        drawFocusMenu();
        ImGui::Separator();
        ImGui::MenuItem("Keyboard shortcuts", "F1", &m_settings.panels.help);
        ImGui::EndMenu();
    }
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

App::Rect App::layoutSlot(Slot slot) const {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    // Below the menu bar, above the legend (its height from the last frame,
    // or an estimate on the first).
    const float top = viewport->Pos.y + ImGui::GetFrameHeight() + (m_lessons->active() ? m_lessonPanel->height() : 0.0f);
    const float legend = m_legend->height() > 0.0f
                             ? m_legend->height()
                             : ImGui::GetTextLineHeightWithSpacing() * 1.5f + ImGui::GetStyle().WindowPadding.y * 2.0f;
    const float height = std::max(100.0f, viewport->Pos.y + viewport->Size.y - legend - top);
    const float width = viewport->Size.x;
    const float left = std::clamp(width * 0.32f, std::min(m_theme.fontPixels * 22.0f, width * 0.5f), width * 0.45f);
    if (slot == Slot::Focus)
        return {viewport->Pos.x, top, width, height};
    const float resultHeight = std::round(height * 0.70f);
    // The set-up panel's width beside the step-through views.
    const float narrowSetup = std::clamp(width * 0.2f, std::min(m_theme.fontPixels * 18.0f, width * 0.3f), width * 0.3f);
    if (slot == Slot::Charts) {
        // A figure for the board: all the width right of the set-up panel,
        // over the other panels (close it, or dock it, to see them again).
        const float setupW = !m_settings.panels.setup ? 0.0f : stepThroughShown() ? narrowSetup : left;
        return {viewport->Pos.x + setupW, top, width - setupW, height};
    }
    if (stepThroughShown()) {
        // Setup narrower; then three columns: grid over problems, counts
        // and hardware; threads over shared (and output); result, source and
        // device.
        const float setupWidth = m_settings.panels.setup ? narrowSetup : 0.0f;
        // A column whose panels are all closed gives its width to the others,
        // and a panel alone in its column takes the column's height.
        const PanelVisibility& shown = m_settings.panels;
        const bool middle = shown.threads || shown.shared || shown.output;
        const bool right = shown.result || shown.source || shown.device || shown.editor;
        const float rest = width - setupWidth;
        // The editor, in the right column, wants its width for lines of code.
        const float wide = shown.editor ? 0.08f : 0.0f;
        const float a = std::round(rest * (middle ? (right ? 0.40f - wide : 0.60f) : (right ? 0.60f - wide : 1.0f)));
        const float b = middle ? std::round(rest * (right ? 0.25f - wide / 2 : 0.40f)) : 0.0f;
        const float c = rest - a - b;
        const float x0 = viewport->Pos.x + setupWidth, x1 = x0 + a, x2 = x1 + b;
        // The grid column: the grid on top, then the problems, then counts and
        // hardware sharing what is left.
        const bool below = shown.counts || shown.hardware;
        const float gridHeight = !shown.grid ? 0.0f
                                 : shown.problems || below
                                     ? std::round(height * (shown.problems && below ? 0.55f : 0.60f))
                                     : height;
        const float problemsHeight =
            shown.problems ? (below ? std::round((height - gridHeight) * 0.6f) : height - gridHeight) : 0.0f;
        const float threadsHeight =
            !shown.threads
                ? 0.0f
                : (shown.shared || shown.output ? std::round(height * (shown.output ? 0.34f : 0.40f)) : height);
        const float sharedHeight = !shown.shared  ? 0.0f
                                   : shown.output ? std::round(height * (shown.threads ? 0.36f : 0.60f))
                                                  : height - threadsHeight;
        const float deviceH = m_settings.panels.device ? std::round(height * 0.14f) : 0.0f;
        const float resultH = !shown.result                  ? 0.0f
                              : shown.source || shown.editor ? std::round(height * 0.30f)
                                                             : height - deviceH;
        // Between the result and the device panel: the editor over the source panel (40%).
        const float between = height - resultH - deviceH;
        const float sourceH = shown.editor && shown.source ? std::round(between * 0.40f) : between;
        switch (slot) {
            case Slot::Left:
                return {viewport->Pos.x, top, setupWidth, height};
            case Slot::Grid:
                return {x0, top, a, gridHeight};
            case Slot::Problems:
                return {x0, top + gridHeight, a, std::max(problemsHeight, 1.0f)};
            case Slot::Counts: {
                // Shares the grid column's bottom with the hardware panel.
                const float h = height - gridHeight - problemsHeight;
                return {x0, top + gridHeight + problemsHeight, a,
                        m_settings.panels.hardware ? std::round(h * 0.5f) : h};
            }
            case Slot::Hardware: {
                const float h = height - gridHeight - problemsHeight;
                const float countsH = m_settings.panels.counts ? std::round(h * 0.5f) : 0.0f;
                // The only step-through panel: all the width right of the set-up
                // (left of the result and device panels when they are shown).
                const PanelVisibility& p = m_settings.panels;
                if (!(p.grid || p.threads || p.shared || p.output || p.source || p.counts || p.problems))
                    return {x0, top, p.result || p.device ? a + b : rest, height};
                return {x0, top + gridHeight + problemsHeight + countsH, a, h - countsH};
            }
            case Slot::Threads:
                return {x1, top, b, threadsHeight};
            case Slot::Shared:
                return {x1, top + threadsHeight, b, sharedHeight};
            case Slot::Output:
                return {x1, top + threadsHeight + sharedHeight, b, height - threadsHeight - sharedHeight};
            case Slot::RightTop:
                return {x2, top, c, std::max(resultH, 1.0f)};
            case Slot::Source:
                return {x2, top + resultH + between - sourceH, c, std::max(sourceH, 1.0f)};
            case Slot::Editor:
                return {x2, top + resultH, c, std::max(between - (shown.source ? sourceH : 0.0f), 1.0f)};
            case Slot::RightBottom:
                return {x2, top + height - deviceH, c, std::max(deviceH, 1.0f)};
            case Slot::Focus:
            case Slot::Charts:
            case Slot::Count:
                break;
        }
        return {};
    }
    // Without the set-up panel, the result and device panels take the width
    // (half of it beside the editor).
    const float leftWidth = m_settings.panels.setup ? left : 0.0f;
    const float resultH = m_settings.panels.device ? resultHeight : height;
    const float editorW = m_settings.panels.editor ? std::round((width - leftWidth) * 0.5f) : 0.0f;
    const float x = viewport->Pos.x + leftWidth + editorW, w = width - leftWidth - editorW;
    switch (slot) {
        case Slot::Left:
            return {viewport->Pos.x, top, left, height};
        case Slot::Editor:
            return {viewport->Pos.x + leftWidth, top, std::max(editorW, 1.0f), height};
        case Slot::RightTop:
            return {x, top, w, resultH};
        case Slot::RightBottom:
            return {x, top + resultHeight, w, height - resultHeight};
        default:
            break;
    }
    return {};
}

void App::placeNextWindow(Slot slot, const char* windowName) {
    const Rect target = layoutSlot(slot);
    std::optional<Rect>& assigned = m_assigned[static_cast<int>(slot)];
    const ImGuiWindow* window = ImGui::FindWindowByName(windowName);
    bool& replace = m_replace[static_cast<int>(slot)];
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
    const ImGuiCond condition = window ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    replace = false;
    ImGui::SetNextWindowPos({target.x, target.y}, condition);
    ImGui::SetNextWindowSize({target.w, target.h}, condition);
    assigned = target;
}

void App::drawPanels() {
    PanelVisibility& panels = m_settings.panels;
    // The lesson bar first: the panels' slots start below it.
    if (m_lessons->active()) {
        const ImGuiViewport* viewport = ImGui::GetMainViewport();
        m_lessonPanel->draw(viewport->Pos.x, viewport->Pos.y + ImGui::GetFrameHeight(), viewport->Size.x);
    }
    if (!m_focus.empty()) {
        // A focused panel that was closed gives the room back.
        if (const bool* flag = panelFlag(panels, m_focus); !flag || !*flag)
            setFocus("");
    }
    // Each panel in its slot, its drawing timed for `ui-bench --panel-costs`.
    auto drawPanel = [&](bool& open, Slot slot, const char* title, const char* key, auto& panel) {
        if (!open || !placePanel(slot, title, key))
            return;
        const PanelCosts::Scope timed(m_panelCostsNow, key);
        panel->draw(&open);
    };
    drawPanel(panels.setup, Slot::Left, "Set-up###setup", "setup", m_setupPanel);
    drawPanel(panels.result, Slot::RightTop, "Result###result", "result", m_resultPanel);
    drawPanel(panels.device, Slot::RightBottom, "Device###device", "device", m_devicePanel);
    drawPanel(panels.grid, Slot::Grid, "Grid of N###grid", "grid", m_gridPanel);
    drawPanel(panels.threads, Slot::Threads, "Threads###threads", "threads", m_threadsPanel);
    drawPanel(panels.shared, Slot::Shared, "Shared and constant memory###shared", "shared", m_sharedPanel);
    drawPanel(panels.output, Slot::Output, "Output P###output", "output", m_outputPanel);
    drawPanel(panels.source, Slot::Source, "Source###source", "source", m_sourcePanel);
    drawPanel(panels.counts, Slot::Counts, "Counts###counts", "counts", m_countsPanel);
    drawPanel(panels.hardware, Slot::Hardware, "Hardware###hardware", "hardware", m_hardwarePanel);
    drawPanel(panels.problems, Slot::Problems, "Problems###problems", "problems", m_problemsPanel);
    drawPanel(panels.editor, Slot::Editor, "Editor###editor", "editor", m_editorPanel);
    if (panels.charts && placePanel(Slot::Charts, "Charts###charts", "charts")) {
        // A figure over the other panels: opaque, with square corners, so
        // that nothing under it shows (and the renderer can leave it out).
        ImGui::SetNextWindowBgAlpha(1.0f);
        ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
        const PanelCosts::Scope timed(m_panelCostsNow, "charts");
        m_chartsPanel->draw(&panels.charts);
        ImGui::PopStyleVar();
    }
    {
        const PanelCosts::Scope timed(m_panelCostsNow, "legend");
        m_legend->draw();
    }
    if (panels.help) {
        const PanelCosts::Scope timed(m_panelCostsNow, "help");
        m_help->draw(&panels.help);
    }
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
    // The Charts panel is drawn opaque and square (drawPanels): what lies under it is not drawn.
    static constexpr const char* kOpaqueWindows[] = {"Charts###charts"};
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
    // Everything changes size with the fonts: put the panels back in their places.
    m_layoutReset = true;
}

void App::openInputFile(const std::string& path) {
    InputSpec& input = m_settings.setup.input;
    input.source = InputSource::File;
    input.path = path;
    m_settings.panels.setup = true;
    m_runner->forgetInputs();  // the file may have changed since it was last read
    m_forceRun = true;
}

void App::closeOpenedTrace() {
    m_openedTrace.reset();
    m_openedTraceProblem.clear();
}

bool App::takeFocusPathRequest() {
    return std::exchange(m_focusPath, false);
}

Status App::loadMaskFile(const std::string& path) {
    auto fail = [this](const Error& e) -> Status {
        m_maskFileProblem = e.message;
        return e;
    };
    auto mask = io::readMask(path);
    if (!mask)
        return fail(mask.error());
    const KernelInfo* kernel = setupKernel(m_settings.setup.kernel);
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
