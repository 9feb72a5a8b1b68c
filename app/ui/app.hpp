// The App: the window, the frame loop and the table of panels. It owns the
// runner, the settings and the panels (made from the table, panel_table.hpp:
// each panel takes only what it draws, and draws itself), and decides each
// frame which panels are shown and where (the Tracy and ImHex model: one
// object that composes small panels).
//
// One frame:  events -> theme changes (style and font size, between frames) ->
//             check the set-up, submit a run when it changed -> menu bar,
//             shortcuts -> panels -> legend -> help overlay -> render.
//
// run() is the interactive app's loop. The other modes are drivers that open
// an App and call frame() themselves (drivers/): `tilescope screenshot` (draws
// off-screen until the result is in and the layout has settled, then writes
// a PNG), `tilescope lesson --render` (every step of a lesson), `tilescope
// export` (steps through the trace and writes a GIF, an MP4, PNGs or an SVG:
// exporter.hpp) and `tilescope ui-bench` (times frames).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gfx/framebuffer.hpp"
#include "gfx/texture.hpp"
#include "gfx/window.hpp"
#include "model/app_state.hpp"
#include "model/class_results.hpp"
#include "model/panel_table.hpp"
#include "model/runner.hpp"
#include "model/setup_rules.hpp"
#include "ui/exporter.hpp"
#include "ui/grid_diagram.hpp"
#include "ui/layout_probe.hpp"
#include "ui/opened_trace.hpp"
#include "ui/panel.hpp"
#include "ui/run_status.hpp"
#include "ui/theme.hpp"

namespace tilescope {
struct Trace;
namespace own {
class OwnKernel;
}
}  // namespace tilescope

namespace tilescope::ui {

class LegendPanel;
class TraceSession;
class KernelFile;
class ServedClient;
class ClassFollower;
class LessonPlayer;
class LessonPanel;
struct EditorCallbacks;
struct ClassCallbacks;
class ExportDialog;
class ScriptedInput;
class PanelCosts;
class FrameRenderer;

enum class AppMode { Interactive, Screenshot, Bench, Export };

// Lecture-hall mode's layout gives the result's images at least this many
// pixels on their short side (a projector's back row).
inline constexpr float kLectureImagePixels = 240.0f;

// The most events the step-through views record in one traced run.
inline constexpr std::size_t kDefaultEventBudget = 20'000'000;

// What the app opens on, in every mode (a driver adds its own options).
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
    int frames = 0;                    // the interactive app: close after this many frames (0: never)
    bool probe = false;                // record where things were drawn (screenshots' layout JSON, the browser's tests)
    std::filesystem::path openTrace;   // --open-trace FILE: a trace file (tilescope trace --out) to show
    std::filesystem::path kernelFile;  // --kernel-file FILE: the student's kernel, open in the editor
    // --class PATH: a graded class (class.json, or its results folder) in the
    // Class panel; --class-open STUDENT: that student's row clicked.
    std::filesystem::path classResults;
    std::string classOpen;
    std::optional<std::size_t> classPattern;  // --class-pattern K: the K-th pattern of the panel's list chosen
    std::size_t eventBudget = kDefaultEventBudget;  // --event-budget: the step-through views' traces
    std::string focus;                              // --focus PANEL: that panel fills the window
    // Lessons: --lesson FILE|NAME opens it at step `lessonStep` (from 0); a
    // picture of it can answer its question (--answer) and reveal it
    // (--reveal), once the step has settled (answerLessonQuestion).
    std::string lesson;
    int lessonStep = 0;
    std::string lessonAnswer;  // typed numbers, or cells "x,y x,y" for a question answered by cells
    bool lessonReveal = false;
    // The page served by `tilescope serve`: kernel files are compiled and run
    // there (model/served_client.hpp). Null: no server (the desktop, or the
    // page on a static host).
    std::shared_ptr<ServedClient> served;
    std::string servedName;  // what the page calls the server ("labpc:8000, NVIDIA H100")
    // The class followed live from a lab's server, in the Class panel
    // (model/live_class.hpp): --class-server URL#token=TEACHER, or the page
    // opened with the teacher's link. Null: none.
    std::shared_ptr<ClassFollower> classFollower;
    bool classNames = false;     // --class-names: the students' names shown (hidden by default)
    std::string classOpenLive;   // --class-open-live: that student's tile clicked (their id, or number from 1)
    bool classShownLog = false;  // a line on stdout as each new check is drawn (the live test)
};

class App {
public:
    explicit App(AppOptions options);
    ~App();
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    // The interactive app: opens the window and runs until it closes.
    // Returns the process exit code.
    int run();
    // Opens the window, the runner and the panels (a driver's first call;
    // run() makes it itself). Closed again by the destructor.
    Status open();
    // One frame: input, the set-up checked and submitted, the panels drawn
    // and rendered.
    void frame();
    // The interactive app in a loop that someone else runs (the browser
    // build's page, app/web/main.cpp): open once, then one frame per call,
    // false once the window should close.
    Status openForHost();
    bool hostFrame();
    // The layout probe's record of the last frame (AppOptions::probe), as
    // `tilescope screenshot --layout` writes it, with "settled": true once
    // the result, the trace and the charts are in.
    std::string hostLayoutJson() const;

    // [SECTION] What drivers use
    gfx::Window& window() { return *m_window; }
    const FrameRenderer& frameRenderer() const { return *m_frameRenderer; }
    long long frameCount() const { return m_frame; }
    // Whether what is drawn is what will stay: the result in, and the
    // trace, the lesson's step and every panel shown (the charts' sweep).
    bool settled() const;
    // Every panel drawn has settled (the charts' sweep runs meanwhile); a
    // panel focused away is not drawn, and holds nothing back.
    bool panelsSettled() const;
    // The picture drawn off-screen last, into a PNG, and where things were
    // drawn into `layoutJson` (empty: not written). Returns its size.
    Result<std::array<int, 2>> savePicture(const std::filesystem::path& png, const std::filesystem::path& layoutJson);
    // --answer and --reveal, once the lesson's step has settled: true when
    // they changed the step (the picture waits for it to settle again).
    bool answerLessonQuestion();
    // Input as a user would give it (`screenshot --do`, ui/scripted_input.hpp),
    // played over the next frames; the first step that cannot be played ends it
    // with inputError() said.
    Status playInput(const std::vector<std::string>& steps);
    bool playingInput() const;
    const std::string& inputError() const;
    // ui-bench --panel-costs: each panel's drawing and rendering timed (null: not).
    void timePanels(PanelCosts* costs) { m_panelCostsNow = costs; }

    // [SECTION] The state, as the drivers read it
    SetupState& setup() { return m_settings.setup; }
    TraceSession& traceSession() { return *m_traceSession; }
    LessonPlayer& lessons() { return *m_lessons; }
    // The latest published outcome.
    const std::shared_ptr<const RunOutcome>& outcome() const { return m_run.outcome; }
    bool lecture() const { return m_settings.lecture; }

    // A file to use as the input (from a path field or dropped on the window).
    void openInputFile(const std::string& path);
    // Starts an export of the views as they are now (File > Export..., or
    // `tilescope export` once the trace is in); it runs alongside the frames
    // (app_export.cpp).
    Status startExport(const ExportRequest& request);
    bool exporting() const { return m_exporter != nullptr; }
    // What the last export wrote, or why it failed.
    const std::string& exportMessage() const { return m_exportMessage; }
    bool exportFailed() const { return m_exportFailed; }

private:
    struct Rect {
        float x = 0, y = 0, w = 0, h = 0;
        bool operator==(const Rect&) const = default;
    };

    void close();

    // [SECTION] Actions the menus, the keys and the panels (through their callbacks) ask for
    // Lecture-hall mode on or off: each mode shows its own panels.
    void setLecture(bool on);
    // Lecture-hall mode's F2: its three panels (kLecturePanels), or the everyday ones.
    void toggleLecturePanels();
    bool lecturePanelsShown() const;
    void resetLayout() { m_layoutReset = true; }
    void rerun() { m_forceRun = true; }
    // Reads a mask file into the custom grid; what went wrong stays in
    // m_maskFileProblem (the set-up panel shows it) until the next load.
    Status loadMaskFile(const std::string& path);
    // Back to tracing the set-up (File > Close the trace file).
    void closeOpenedTrace();
    void cancelExport();
    // The student's own kernel file (app_kernel_file.cpp). Opens the file in
    // the editor and compiles it; `choose` (a user's choice, not the
    // settings') shows the editor and makes the file the set-up's kernel
    // (unless it is already one of the kernels compared).
    void openKernelFile(const std::string& path, bool choose);
    // File > Open kernel...: the editor's path field, focused.
    void requestOpenKernel();
    // File > New from exercise: a copy of the starting file, opened.
    void newFromExercise(const std::string& file);
    // The kernel compiled last from the file in the editor (null: none).
    std::shared_ptr<const own::OwnKernel> ownKernel() const;
    // "your conv2d_tiled (conv2d_tiled_student.cu)", for the kernel lists; empty when no file is open.
    std::string ownKernelLabel() const;
    // The catalogue entry of the kernel compiled last (null: none), which the
    // set-up's rules resolve the set-up name "own" to (setupKernel).
    const KernelInfo* ownKernelInfo() const;
    // The panel that fills the window ("grid"; empty: the usual layout).
    void setFocus(const std::string& panel);
    // A graded class (app_class.cpp): class.json read into the Class panel
    // (what went wrong stays in the panel, and comes back); a row's click:
    // the student's kernel file opened, set up for the case of its first
    // problem, and (once its trace is in) the step-through at that problem.
    Status openClass(const std::string& path);
    void openSubmission(std::size_t index);
    void requestOpenClass();
    ClassCallbacks classCallbacks();
    void openClassAtStart();
    void updateClassJump();
    // The class followed live (app_class_live.cpp): the follower started,
    // each frame its newest answer taken into the panel, a tile's click:
    // that student's latest kernel fetched, opened and set up as it was
    // checked, and (once its trace is in) the step-through at its first
    // problem; the projector's layout.
    void startLiveClass();
    void updateLiveClass();
    void openLiveStudent(std::size_t index);
    void showClassNow();

    // open()'s steps: the settings to start from (saved, or the command
    // line's); the window and ImGui; the models the panels draw from, and
    // the panels; what the command line asked to open (a kernel file, a
    // class, lessons, a mask, a trace).
    void chooseStartSettings();
    Status openWindow();
    void makeModels();
    Status openWhatWasAsked();
    // The panels of the table, made from what each draws (make_panel.hpp).
    void makePanels();
    Panel& panel(PanelId id) { return *m_panels[static_cast<std::size_t>(id)]; }
    void applyThemeIfNeeded();
    void handleShortcuts();
    void updateCheckAndSubmit();
    // A run the CPU executor finished for a failing GPU: says so in the
    // status line, and leaves the GPU for good when its context is lost.
    void noticeGpuFailure(const RunOutcome& outcome);
    void drawMenuBar();
    void drawViewMenu();
    void drawPanels();
    // The default layout (app_layout.cpp): where each place
    // (PanelInfo::place) is for the panels shown. A panel stays in its place
    // (and follows it when the window, the fonts or the legend change size)
    // until the user moves or resizes it; imgui.ini then remembers where.
    // With the step-through views on, the right part holds three columns:
    // grid over problems, counts and hardware; threads, shared memory and
    // output; result, source and device.
    Rect layoutPlace(PanelPlace place) const;
    // Lecture-hall mode's own layout, while only its panels (kLecturePanels)
    // are shown: the grid of N on the left, the result over the source on
    // the right, the result's images at least kLectureImagePixels on a side.
    bool lectureLayoutShown() const;
    Rect lecturePlace(PanelPlace place) const;
    // A focused panel: the whole room below the menu bar (and the lesson bar).
    Rect focusRect() const;
    void placeNextWindow(const PanelInfo& panel);
    void render();
    bool stepThroughShown() const { return m_settings.panels.stepThrough(); }
    void saveSettingsIfChanged(bool force);
    // The kernel file (app_kernel_file.cpp): made and opened at start; once
    // a frame, a finished compile taken in, what the run says of it; the
    // set-up check and the run's job for it; its menu items.
    void openKernelFileAtStart();
    EditorCallbacks editorCallbacks();
    void showEditor();
    void updateKernelFile();
    void updateKernelFileMarkers(const RunOutcome* outcome, bool main);
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
    // Draws a panel's window in its place, or filling the window when it is
    // focused; false when another panel is focused (the panel is not drawn).
    bool placePanel(const PanelInfo& panel);
    // The export (app_export.cpp): each frame, the frame read back after it
    // is drawn; the menu's item, progress and dialog.
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
    OpenedTrace m_openedTrace;

    std::unique_ptr<gfx::Window> m_window;  // first: destroyed last, with the OpenGL context
    std::unique_ptr<gfx::ColorMapper> m_colorMapper;
    std::unique_ptr<gfx::Framebuffer> m_capture;     // screenshots draw here
    std::unique_ptr<FrameRenderer> m_frameRenderer;  // hands each frame's draw lists to OpenGL
    std::unique_ptr<Runner> m_runner;
    bool m_imguiReady = false;

    Theme m_theme;
    bool m_themeLecture = false;
    RunStatus m_run;
    std::optional<SetupState> m_submitted;                  // the set-up of the last submission (or refusal)
    std::shared_ptr<const RunOutcome> m_gpuCheckedOutcome;  // the last outcome looked at for a GPU failure
    bool m_forceRun = false;
    bool m_layoutReset = false;
    bool m_focusPath = false;
    LayoutProbe m_probe;
    std::unique_ptr<ScriptedInput> m_input;  // --do (tests)

    // The table's panels, by PanelId; each panel's place as it was last
    // assigned, and whether it goes back there (after a focus).
    std::array<std::unique_ptr<Panel>, kPanelCount> m_panels;
    std::array<std::optional<Rect>, kPanelCount> m_assigned;
    std::array<bool, kPanelCount> m_replace{};
    std::unique_ptr<LegendPanel> m_legend;
    std::unique_ptr<TraceSession> m_traceSession;
    GridOverlays m_gridOverlays;  // the grid view's switches, which the SVG export draws too
    std::unique_ptr<KernelFile> m_kernelFile;
    // ui-bench --panel-costs: each panel's drawing and rendering timed, in a
    // pass after the frames that give the median (null outside that pass).
    PanelCosts* m_panelCostsNow = nullptr;
    ClassView m_classView;
    // Where a clicked row's step-through goes once its kernel's trace is in.
    struct ClassJump {
        std::size_t submission = 0;
        FirstProblem at;
    };
    std::optional<ClassJump> m_classJump;
    std::uint64_t m_liveSerial = 0;     // the follower's answer taken in last
    std::int64_t m_liveLogged = -1;     // the newest check said drawn (classShownLog)
    bool m_liveJump = false;            // a live student's kernel opened: its first problem once the trace is in
    bool m_liveFetching = false;        // a tile clicked: its kernel on its way from the server
    bool m_kernelFileCheckOff = false;  // its check passed the event budget: the kernel file runs without it
    std::unique_ptr<Exporter> m_exporter;
    std::unique_ptr<ExportDialog> m_exportDialog;
    std::string m_exportMessage;  // what the last export wrote, or why it failed
    bool m_exportFailed = false;

    long long m_frame = 0;
    int m_quietFrames = 0;  // frames since the last input (the interactive app sleeps when idle)

    std::unique_ptr<LessonPlayer> m_lessons;
    std::unique_ptr<LessonPanel> m_lessonPanel;
    std::uint64_t m_lessonSerial = 0;        // the player's step last applied
    std::optional<Settings> m_beforeLesson;  // restored when the lesson ends
    std::string m_focus;                     // the focused panel's key
    bool m_lessonAnswered = false;           // --answer/--reveal: done
};

}  // namespace tilescope::ui
