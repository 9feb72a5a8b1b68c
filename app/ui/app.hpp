// The App: owns the window, the runner, the settings and the panels, and
// decides each frame which panels are shown and where (the Tracy and ImHex
// model: one object that composes small panels; each panel draws itself).
//
// One frame:  events -> theme changes (style and font size, between frames) ->
//             check the set-up, submit a run when it changed -> menu bar,
//             shortcuts -> panels -> legend -> help overlay -> render.
//
// The same loop serves four modes: the interactive app, `tilescope
// screenshot` (draws off-screen until the result is in and the layout has
// settled, then writes a PNG), `tilescope export` (the same, then steps
// through the trace and writes a GIF, an MP4, PNGs or an SVG: exporter.hpp)
// and `tilescope ui-bench` (times frames).
//
// To add a panel (the step-through views): a class in panel_<name>.hpp/.cpp
// with draw(); a flag in PanelVisibility (app_state.hpp); a place in
// App::layoutSlot(); a line in App::drawPanels() and in the View menu.
#pragma once

#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "gfx/framebuffer.hpp"
#include "gfx/texture.hpp"
#include "gfx/window.hpp"
#include "model/app_state.hpp"
#include "model/runner.hpp"
#include "model/setup_rules.hpp"
#include "ui/exporter.hpp"
#include "ui/layout_probe.hpp"
#include "ui/theme.hpp"

namespace tilescope {
struct Trace;
namespace own {
class OwnKernel;
}
}  // namespace tilescope

namespace tilescope::ui {

class SetupPanel;
class ResultPanel;
class DevicePanel;
class LegendPanel;
class HelpPanel;
class TraceSession;
class GridPanel;
class ThreadsPanel;
class SharedPanel;
class OutputPanel;
class SourcePanel;
class CountsPanel;
class HardwarePanel;
class ProblemsPanel;
class EditorPanel;
class ChartsPanel;
class KernelFile;
class LessonPlayer;
class LessonPanel;
struct LessonMarks;
class ExportDialog;
class PanelCosts;
class FrameRenderer;

enum class AppMode { Interactive, Screenshot, Bench, Export };

// The most events the step-through views record in one traced run.
inline constexpr std::size_t kDefaultEventBudget = 20'000'000;

struct AppOptions {
    AppMode mode = AppMode::Interactive;
    int width = 1600;  // window size in screen units
    int height = 900;
    std::optional<bool> lecture;      // --lecture; otherwise the settings file's choice
    std::filesystem::path configDir;  // settings.json and imgui.ini; empty: the XDG folder
    bool persist = true;              // read and write the settings (the interactive app only)
    std::optional<SetupState> setup;  // start from this set-up instead of the saved one or the demo
    std::string maskFile;             // --mask FILE: start with this mask as the custom grid
    std::optional<PanelVisibility> panels;
    ViewState view;                    // --select, --step, --compare (for the step-through views)
    int frames = 0;                    // interactive: close after this many frames (0: never); bench: frames timed
    std::filesystem::path screenshot;  // screenshot: the PNG to write
    std::filesystem::path layoutJson;  // screenshot: where things were drawn (for tests)
    bool probe = false;                // record where things were drawn (hostLayoutJson: the browser's tests)
    std::filesystem::path openTrace;   // --open-trace FILE: a trace file (tilescope trace --out) to show
    std::filesystem::path kernelFile;  // --kernel-file FILE: the student's kernel, open in the editor
    std::filesystem::path thenOpen;    // screenshot: open this input once the first result is in
    std::size_t eventBudget = kDefaultEventBudget;  // --event-budget: the step-through views' traces
    int recomputeEvery = 0;            // bench: change the set-up every this many frames (0: never)
    int stepEvery = 0;                 // bench: step the trace forward every this many frames (0: never)
    bool panelCosts = false;           // bench: then time each panel's drawing and rendering (PanelCosts)
    std::string focus;                 // --focus PANEL: that panel fills the window
    // Lessons: --lesson FILE|NAME opens it at step `lessonStep` (from 0); a
    // screenshot can answer its question (--answer) and reveal it (--reveal);
    // `lessonRenderDir`: draw every step into that folder (tilescope lesson --render).
    std::string lesson;
    int lessonStep = 0;
    std::string lessonAnswer;  // typed numbers, or cells "x,y x,y" for a question answered by cells
    bool lessonReveal = false;
    std::filesystem::path lessonRenderDir;
    // export: what to write, once the trace is in
    std::optional<ExportRequest> exportRequest;
};

struct Shortcut {
    const char* keys;    // "Ctrl+L"
    const char* action;  // "lecture-hall mode on or off"
};

class App {
public:
    explicit App(AppOptions options);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // Opens the window and runs until it closes (or the screenshot or the
    // benchmark is done). Returns the process exit code.
    int run();
    // The interactive app in a loop that someone else runs (the browser
    // build's page, app/web/main.cpp): open once, then one frame per call,
    // false once the window should close.
    Status openForHost();
    bool hostFrame();
    // The layout probe's record of the last frame (AppOptions::probe), as
    // `tilescope screenshot --layout` writes it, with "settled": true once
    // the result, the trace and the charts are in.
    std::string hostLayoutJson() const;

    // [SECTION] What panels use
    const Theme& theme() const { return m_theme; }
    SetupState& setup() { return m_settings.setup; }
    ViewState& view() { return m_options.view; }
    PanelVisibility& panels() { return m_settings.panels; }
    const SetupCheck& check() const { return m_check; }
    const GpuStatus& gpu() const { return m_gpu; }
    Runner& runner() { return *m_runner; }
    TraceSession& traceSession() { return *m_traceSession; }
    gfx::ColorMapper& colorMapper() { return *m_colorMapper; }
    LegendPanel& legend() { return *m_legend; }
    LayoutProbe& probe() { return m_probe; }
    // The latest published outcome, and whether it belongs to the set-up as it is now.
    const std::shared_ptr<const RunOutcome>& outcome() const { return m_outcome; }
    bool outcomeIsCurrent() const { return m_outcome && m_outcome->id == m_submittedId; }

    std::size_t eventBudget() const { return m_options.eventBudget; }
    bool lecture() const { return m_settings.lecture; }
    void setLecture(bool on);
    void resetLayout() { m_layoutReset = true; }
    void rerun() { m_forceRun = true; }
    // A file to use as the input (from a path field or dropped on the window).
    void openInputFile(const std::string& path);
    // Reads a mask file into the custom grid; what went wrong stays in
    // maskFileProblem() (the set-up panel shows it) until the next load.
    Status loadMaskFile(const std::string& path);
    const std::string& maskFileProblem() const { return m_maskFileProblem; }
    // Set by Ctrl+O; the set-up panel focuses its path field and clears it.
    bool takeFocusPathRequest();
    // A problem with the settings or fonts, for the status line.
    const std::string& notice() const { return m_notice; }
    std::span<const Shortcut> shortcuts() const;
    // The trace opened with --open-trace (null: none, or it could not be
    // read, and then openedTraceProblem() says why). The step-through views
    // step through it and the hardware panel shows its hardware record.
    const Trace* openedTrace() const { return m_openedTrace.get(); }
    const std::shared_ptr<const Trace>& openedTraceFile() const { return m_openedTrace; }
    // Back to tracing the set-up (File > Close the trace file).
    void closeOpenedTrace();
    const std::string& openedTraceProblem() const { return m_openedTraceProblem; }
    std::string openedTracePath() const { return m_options.openTrace.string(); }

    // [SECTION] Exports for slides (app_export.cpp)
    // Starts an export of the views as they are now (File > Export..., or
    // `tilescope export` once the trace is in); it runs alongside the frames.
    Status startExport(const ExportRequest& request);
    bool exporting() const { return m_exporter != nullptr; }
    void cancelExport();

    // [SECTION] The student's own kernel file (app_kernel_file.cpp)
    // The kernel compiled last from the file in the editor (null: none).
    std::shared_ptr<const own::OwnKernel> ownKernel() const;
    // Opens the file in the editor and compiles it; `choose` (a user's
    // choice, not the settings') shows the editor and makes the file the
    // set-up's kernel (unless it is already one of the kernels compared).
    void openKernelFile(const std::string& path, bool choose);
    // File > Open kernel...: the editor's path field, focused.
    void requestOpenKernel();
    // File > New from exercise: a copy of the starting file, opened.
    void newFromExercise(const std::string& file);
    // "your conv2d_tiled (conv2d_tiled_student.cu)", for the kernel lists; empty when no file is open.
    std::string ownKernelLabel() const;

    // [SECTION] Lessons and the projector layout (app_lesson.cpp)
    LessonPlayer& lessons() { return *m_lessons; }
    // What the step-through views mark for the lesson (null: no lesson plays).
    const LessonMarks* lessonMarks() const;
    // A click on the grid view while the lesson's question is answered by cells.
    void toggleLessonCell(int x, int y);
    // The panel that fills the window ("grid"; empty: the usual layout).
    const std::string& focusedPanel() const { return m_focus; }
    void setFocus(const std::string& panel);

private:
    struct Rect {
        float x = 0, y = 0, w = 0, h = 0;
        bool operator==(const Rect&) const = default;
    };
    // The default places of the panels. A panel stays in its place (and
    // follows it when the window, the fonts or the legend change size) until
    // the user moves or resizes it; imgui.ini then remembers where.
    // With the step-through views on, the right part holds three columns:
    // grid over problems, counts and hardware; threads, shared memory and
    // output; result, source and device.
    enum class Slot {
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
        Focus,  // a focused panel: the whole room below the menu bar (and the lesson bar)
        Charts,
        Count
    };

    Status open();
    void close();
    void frame();
    void applyThemeIfNeeded();
    void handleShortcuts();
    void updateCheckAndSubmit();
    // A run the CPU executor finished for a failing GPU: says so in the
    // status line, and leaves the GPU for good when its context is lost.
    void noticeGpuFailure(const RunOutcome& outcome);
    void drawMenuBar();
    void drawPanels();
    void placeNextWindow(Slot slot, const char* windowName);
    Rect layoutSlot(Slot slot) const;
    void render();
    bool settled() const;
    bool stepThroughShown() const {
        const PanelVisibility& p = m_settings.panels;
        return p.grid || p.threads || p.shared || p.output || p.source || p.counts || p.hardware || p.problems;
    }
    void saveSettingsIfChanged(bool force);
    int finishScreenshot();
    int finishScreenshot(const std::filesystem::path& png, const std::filesystem::path& layoutJson);
    // The kernel file (app_kernel_file.cpp): made and opened at start; once
    // a frame, a finished compile taken in, what the run says of it; the
    // set-up check and the run's job for it; its menu items.
    void openKernelFileAtStart();
    void showEditor();
    void updateKernelFile();
    void adjustCheckForKernelFile();
    void prepareKernelFileJob(RunJob& job) const;
    void drawKernelFileMenu();
    // Lessons (app_lesson.cpp): the library read at start, a step's
    // configuration applied when the player moves, the lesson bar, the menus.
    Status openLessonsAtStart();
    void updateLesson();
    void applyLessonStep();
    void endLesson();
    void drawLessonMenu();
    void drawFocusMenu();
    bool handleLessonKeys();
    // Draws a panel's window in its slot, or filling the window when it is
    // focused; false when another panel is focused (the panel is not drawn).
    bool placePanel(Slot slot, const char* windowName, const char* key);
    // The lesson's screenshots: answers and reveals, every step into a folder.
    bool advanceLessonScreenshot();
    // The export (app_export.cpp): the Export mode's run; each frame, the
    // frame read back after it is drawn; the menu's item, progress and dialog.
    int runExport();
    void captureExportFrame();
    void endExport(Status status);
    void offerDownloads(const std::filesystem::path& path);
    void drawExportMenu();
    void drawExportDialog();

    AppOptions m_options;
    Settings m_settings;
    std::filesystem::path m_configDir;  // empty: nothing persists
    std::string m_iniPath;              // ImGui keeps the pointer: it must live as long as the context
    std::string m_savedSettingsJson;
    std::future<Status> m_saving;  // settings are written off the UI thread (the write waits for the disk)
    double m_lastSettingsCheck = 0.0;
    std::string m_notice;
    std::string m_maskFileProblem;
    std::shared_ptr<const Trace> m_openedTrace;
    std::string m_openedTraceProblem;

    std::unique_ptr<gfx::Window> m_window;  // first: destroyed last, with the OpenGL context
    std::unique_ptr<gfx::ColorMapper> m_colorMapper;
    std::unique_ptr<gfx::Framebuffer> m_capture;  // screenshots draw here
    std::unique_ptr<FrameRenderer> m_frameRenderer;  // hands each frame's draw lists to OpenGL
    std::unique_ptr<Runner> m_runner;
    bool m_imguiReady = false;

    Theme m_theme;
    bool m_themeLecture = false;
    GpuStatus m_gpu;
    SetupCheck m_check;
    std::optional<SetupState> m_submitted;  // the set-up of the last submission (or refusal)
    std::uint64_t m_submittedId = 0;        // 0: nothing submitted for it (it cannot run)
    std::shared_ptr<const RunOutcome> m_outcome;
    std::shared_ptr<const RunOutcome> m_gpuCheckedOutcome;  // the last outcome looked at for a GPU failure
    bool m_forceRun = false;
    bool m_layoutReset = false;
    std::optional<Rect> m_assigned[static_cast<int>(Slot::Count)];  // where each slot's panel was last put
    bool m_focusPath = false;
    LayoutProbe m_probe;

    std::unique_ptr<SetupPanel> m_setupPanel;
    std::unique_ptr<ResultPanel> m_resultPanel;
    std::unique_ptr<DevicePanel> m_devicePanel;
    std::unique_ptr<LegendPanel> m_legend;
    std::unique_ptr<HelpPanel> m_help;
    std::unique_ptr<TraceSession> m_traceSession;
    std::unique_ptr<GridPanel> m_gridPanel;
    std::unique_ptr<ThreadsPanel> m_threadsPanel;
    std::unique_ptr<SharedPanel> m_sharedPanel;
    std::unique_ptr<OutputPanel> m_outputPanel;
    std::unique_ptr<SourcePanel> m_sourcePanel;
    std::unique_ptr<CountsPanel> m_countsPanel;
    std::unique_ptr<HardwarePanel> m_hardwarePanel;
    std::unique_ptr<ProblemsPanel> m_problemsPanel;
    std::unique_ptr<KernelFile> m_kernelFile;
    std::unique_ptr<EditorPanel> m_editorPanel;
    std::unique_ptr<ChartsPanel> m_chartsPanel;
    // ui-bench --panel-costs: each panel's drawing and rendering timed, in a
    // pass after the frames that give the median (null outside that pass).
    PanelCosts* m_panelCostsNow = nullptr;
    bool m_kernelFileCheckOff = false;  // its check passed the event budget: the kernel file runs without it
    std::unique_ptr<Exporter> m_exporter;
    std::unique_ptr<ExportDialog> m_exportDialog;
    std::string m_exportMessage;  // what the last export wrote, or why it failed
    bool m_exportFailed = false;

    long long m_frame = 0;
    int m_quietFrames = 0;    // frames since the last input (the interactive app sleeps when idle)
    int m_settledFrames = 0;  // frames since the result arrived (screenshots wait for layout)
    bool m_thenOpened = false;  // screenshot --then-open: done

    std::unique_ptr<LessonPlayer> m_lessons;
    std::unique_ptr<LessonPanel> m_lessonPanel;
    std::uint64_t m_lessonSerial = 0;             // the player's step last applied
    std::optional<Settings> m_beforeLesson;       // restored when the lesson ends
    std::string m_focus;                          // the focused panel's key
    bool m_replace[static_cast<int>(Slot::Count)] = {};  // put back in its slot (after a focus)
    bool m_lessonAnswered = false;                // screenshot --answer/--reveal: done
    int m_renderedSteps = 0;                      // lesson --render: steps written
    int m_renderStatus = 0;                       // lesson --render: the exit code
};

}  // namespace tilescope::ui
