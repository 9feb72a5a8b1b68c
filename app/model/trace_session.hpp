// The step-through state: the trace of the current set-up (and, in compare
// mode, of a second kernel on the same input and mask), the selected block
// and thread, the replay cursor, playing and its speed, the granularity.
//
// Traces come from a Runner of their own (a traced run is slower than the
// plain run the result panel shows, and must not hold it up): from the
// instrumented CUDA kernels when the GPU is chosen, else from the CPU
// executor; the two record the same events. The TraceModel
// is built in the runner's publish callback, on its background thread; the
// UI thread only swaps a finished model in. Small inputs are traced whole
// (the heat map covers every block); larger ones only the selected block,
// traced again when the selection moves to another block. A whole trace
// that would pass the event budget falls back to the selected block, and
// says so; a block that alone passes it is reported in the panels.
//
// A trace file opened with --open-trace (recorded anywhere, a GPU machine
// included) takes the place of the set-up's trace until it is closed: its
// events give back N, P and the mask (trace/trace_arrays.hpp), so every
// step-through panel draws it as it draws a trace of its own.
//
// The panels (grid, threads, shared memory, output, source, counts) read
// from here and change the selection and the cursor through it. The session
// knows nothing of the App: it reads the set-up, the view and the rest
// through TraceSessionInputs, and wakes the window loop through a callback.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "model/app_state.hpp"
#include "model/memory_view.hpp"
#include "model/runner.hpp"
#include "model/setup_rules.hpp"
#include "trace/trace_index.hpp"

namespace tilescope {
struct Trace;
namespace own {
class OwnKernel;
}
}  // namespace tilescope

namespace tilescope::ui {

// What the session reads, each frame, of the state that its owner keeps.
// Each reference must outlive the session; the set-up, the check and the
// opened trace change between frames and are read as they are.
struct TraceSessionInputs {
    const SetupState& setup;
    const SetupCheck& check;  // nothing is traced while the set-up cannot run
    // --select, --step, --problem, --request and --granularity, read at
    // start; the selection is written back as it changes.
    ViewState& view;
    std::size_t eventBudget;  // the most events one traced run records
    // A trace file (--open-trace) shown instead of the set-up's trace (null:
    // none), and the path it was read from.
    const std::shared_ptr<const Trace>& openedTraceFile;
    const std::filesystem::path& openedTracePath;
    const Runner& runner;  // the result's runner: the input's size, once it has read the input
    // The student's kernel compiled last (null: none), for a set-up that runs it.
    std::function<std::shared_ptr<const own::OwnKernel>()> ownKernel;
};

// What the session may do beyond itself.
struct TraceSessionCallbacks {
    // Called on a runner's thread when a trace is in: the window loop,
    // asleep while nothing happens, draws it.
    std::function<void()> wake;
};

// One traced kernel: the primary one, or the one it is compared with.
struct TracedRun {
    std::unique_ptr<Runner> runner;
    std::string kernel;                       // what it traces
    std::shared_ptr<const TraceModel> model;  // null until the first trace is in
    // The warps' requests counted and the caches replayed, once per trace
    // (with the model, off the UI thread); null while model is.
    std::shared_ptr<const MemoryFigures> memory;
    std::shared_ptr<const RunOutcome> outcome;
    std::optional<Error> problem;         // the traced run failed
    // The whole launch passed the event budget for this set-up (submitted
    // as a whole trace): trace the selected block only until it changes.
    std::optional<RunJob> overBudget;
    const BlockReplay* replay = nullptr;  // the selected block, when traced
    Cursor cursor = 0;
    unsigned thread = 0;  // selected thread (linear index in the block)
    // The selection and block the thread was chosen for: while they stay,
    // the thread stays (a thread that writes no output can be selected).
    std::optional<std::array<int, 2>> threadFor;
    const BlockReplay* threadReplay = nullptr;
    // The selected block's requests, made when it is first shown (for the
    // model it belongs to), and the request the cursor was stepped to.
    std::shared_ptr<const TraceModel> requestsModel;
    std::unique_ptr<BlockRequests> requests;
    std::optional<std::uint32_t> request;

    // Built on the runner's thread, picked up by the UI.
    std::mutex mutex;
    std::shared_ptr<const TraceModel> built;
    std::shared_ptr<const MemoryFigures> builtMemory;
    std::shared_ptr<const RunOutcome> builtOutcome;
    std::uint64_t submittedId = 0;
    std::optional<RunJob> submitted;
};

class TraceSession {
public:
    TraceSession(TraceSessionInputs inputs, TraceSessionCallbacks callbacks);
    ~TraceSession();
    TraceSession(const TraceSession&) = delete;
    TraceSession& operator=(const TraceSession&) = delete;

    // Once a frame, before the panels: submits traces, takes in finished
    // models, resolves the selection, advances playing.
    void update();
    // In a build without threads (the browser's), runs the traces waiting,
    // between two frames (Runner::runPending); elsewhere nothing.
    void runPending();
    // An answer came from a server that runs a kernel file (ServedClient).
    void answerArrived();

    // [SECTION] What panels read
    bool comparing() const { return m_compareOn; }
    int runCount() const { return m_compareOn ? 2 : 1; }
    TracedRun& run(int i = 0) { return *m_runs[static_cast<std::size_t>(i)]; }
    const BlockReplay* replay(int i = 0) const { return m_runs[static_cast<std::size_t>(i)]->replay; }
    Cursor cursor(int i = 0) const { return m_runs[static_cast<std::size_t>(i)]->cursor; }
    unsigned selectedThread(int i = 0) const { return m_runs[static_cast<std::size_t>(i)]->thread; }
    std::optional<std::array<int, 2>> selectedOutput() const { return m_selected; }
    // [SECTION] The memory the hardware moves (memory_view.hpp)
    // Run i's selected block's requests (made on first use); null without a trace.
    const BlockRequests* requests(int i = 0);
    // The request of the selected thread's warp the views show: the one
    // stepped to (warp-request granularity), else its latest by the cursor
    // that `wanted` accepts, in the barrier phase the cursor is in; nullopt when none.
    std::optional<std::uint32_t> currentRequest(int i = 0,
                                                const std::function<bool(const WarpRequest&)>& wanted = {});
    const MemoryFigures* memory(int i = 0) const { return m_runs[static_cast<std::size_t>(i)]->memory.get(); }
    // Run i's cursor after each whole unit of `by` from the start, as the > button moves it (exports).
    std::vector<Cursor> cursorPositions(int i, Granularity by);
    bool busy() const;
    // Every trace asked for is in (or failed): screenshots wait for this.
    bool settled() const;
    std::string status() const;  // "tracing...", a problem, or empty
    // Why only the selected block is traced, when the whole launch was too
    // large for the event budget; or which trace file is shown (empty otherwise).
    std::string note() const;
    // The step-through views show a trace file, not a trace of the set-up.
    bool showingFile() const { return m_file != nullptr; }

    // [SECTION] Problems (of run 0: the set-up's kernel, or the trace file)
    // What the problem detector found in run 0's trace; null before the first trace.
    const ProblemSet* problems() const;
    // Every block was traced and checked, and the output against the
    // reference; otherwise only the traced block(s), without wrong results.
    bool problemsOfWholeLaunch() const;
    // What was checked, when it is not the whole launch (empty otherwise).
    std::string problemsScope() const;
    // The problem selected last (an index into problems()->items), while
    // run 0 still shows the trace it was found in; nullopt otherwise.
    std::optional<std::size_t> selectedProblemIndex() const;
    const ProblemReport* selectedProblem() const;

    // [SECTION] What panels change
    void selectOutput(int x, int y);       // selects the block and thread that compute P(x, y)
    void selectThread(int i, unsigned t);  // in run i's selected block
    // Run i's block `block` (an index into its trace's blocks) and thread
    // `thread` of it, whether or not the thread writes an output.
    void selectBlockThread(int i, std::size_t block, unsigned thread);
    // Jumps to problem `index` of problems(), as a click in the Problems
    // panel does: its block, the thread of its second access (or of its only
    // one), the cursor just after the later access; the views then mark it.
    void selectProblem(std::size_t index);
    void stepForward();
    void stepBack();
    void nextPhase();
    void previousPhase();
    void home();
    void end();
    void nextOfThread();  // the selected thread's next event
    void setCursor(int i, Cursor c);
    // Selects the output (when given) and shows the trace after `step`
    // lockstep steps (-1: the end), now if the set-up's trace is in, else
    // when it arrives (a lesson step).
    void requestView(std::optional<std::array<int, 2>> select, long long step);
    // The cursor after `step` lockstep steps of a block (-1: its end).
    static Cursor stepCursor(const BlockReplay& replay, long long step);
    // The cursor after each whole unit of `by`: 0, then each next(), up to
    // the end (not WarpRequest, which needs the selected warp: the
    // cursorPositions above).
    static std::vector<Cursor> cursorPositions(const BlockReplay& replay, Granularity by);
    // While a lesson plays the arrows and page keys belong to it.
    void setNavigationKeysTaken(bool taken) { m_navigationKeysTaken = taken; }
    bool navigationKeysTaken() const { return m_navigationKeysTaken; }
    bool playing() const { return m_playing; }
    void setPlaying(bool on) { m_playing = on; }
    float& speed() { return m_speed; }  // steps per second
    Granularity& granularity() { return m_granularity; }

private:
    // The student's kernel compiled last, as the inputs give it (null: none).
    std::shared_ptr<const own::OwnKernel> ownKernel() const {
        return m_inputs.ownKernel ? m_inputs.ownKernel() : nullptr;
    }
    void submitIfNeeded(int i, const std::string& kernel);
    void takeBuilt(int i);
    // A new model and the outcome it came with, for run i: the cursor and
    // the selection carry over where they can (and --step applies).
    void install(int i, std::shared_ptr<const TraceModel> model, std::shared_ptr<const RunOutcome> outcome);
    // Compare mode: the second run's cursor at the first's step.
    void alignSecondRun();
    void showFile(const std::shared_ptr<const Trace>& file);
    void leaveFile();
    void resolveSelection(int i);
    // One unit of the granularity forward or back, for run i.
    void stepRun(int i, bool forward);

    TraceSessionInputs m_inputs;
    TraceSessionCallbacks m_callbacks;
    std::array<std::unique_ptr<TracedRun>, 2> m_runs;
    std::shared_ptr<const Trace> m_file;  // the trace file run 0 shows (null: the set-up's own trace)
    std::string m_fileNote;
    bool m_compareOn = false;
    std::optional<std::array<int, 2>> m_selected;
    std::optional<long long> m_pendingStep;  // --step, applied when the trace arrives
    std::optional<std::size_t> m_pendingProblem;     // --problem, likewise
    std::optional<long long> m_pendingRequest;       // --request K, likewise
    std::optional<std::size_t> m_problem;            // the selected problem...
    std::shared_ptr<const ProblemSet> m_problemSet;  // ...of this set
    bool m_playing = false;
    float m_speed = 8.0f;
    double m_playCarry = 0.0;
    double m_lastTime = 0.0;
    Granularity m_granularity = Granularity::Step;
    bool m_navigationKeysTaken = false;
};

}  // namespace tilescope::ui
