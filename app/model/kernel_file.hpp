// The student's own kernel file as the app holds it: its text (what the
// Editor panel shows and edits), saving it, compiling it off the UI thread
// (own::compileKernelText takes a second or two: the C++ compiler runs), and
// watching it on disk, so that a save in another editor reloads the text and
// compiles it again. No ImGui and no App here: the App glues it to the
// set-up and the runs (app_kernel_file.cpp), the Editor panel draws its
// EditorState.
//
// One compile at a time: asking for another while one runs cancels the one
// running (the compiler is stopped) and starts the new one when it has ended.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "model/editor_state.hpp"

namespace tilescope::own {
class OwnKernel;
}

namespace tilescope::ui {

class ServedClient;
struct ServedCompile;

class KernelFile {
public:
    KernelFile();
    ~KernelFile();  // cancels a compile in progress and waits for it (a fraction of a second)
    KernelFile(const KernelFile&) = delete;
    KernelFile& operator=(const KernelFile&) = delete;

    EditorState& state() { return m_state; }
    const EditorState& state() const { return m_state; }

    // Reads the file into the editor and compiles it. What went wrong stays in
    // state().fileNote (and comes back).
    Status open(const std::filesystem::path& path);
    // Saves the text when it was edited here, then compiles it.
    void compile();
    void cancelCompile();
    // Replaces the text with the file's (after it changed on disk while
    // edited here), and compiles it.
    void reload();

    // Once a frame: takes in a finished compile, starts a waiting one, and
    // (once a second) looks at the file's modification time. Returns true
    // when a new kernel compiled since the last call.
    bool poll(double now);

    // The kernel compiled last (null: none has compiled).
    const std::shared_ptr<const own::OwnKernel>& kernel() const { return m_kernel; }
    // A compile in progress, waiting, or finished but not yet taken in.
    bool busy() const { return m_task.valid() || m_waiting || m_servedTicket != nullptr; }
    bool isOpen() const { return !m_state.path.empty(); }
    // Called on the compiling thread when a compile ends (the app wakes its event loop).
    void setOnDone(std::function<void()> callback) { m_onDone = std::move(callback); }
    // The page served by `tilescope serve`: compiles go to the server (the
    // text is still saved here first, in the browser's storage).
    void setServed(std::shared_ptr<ServedClient> client) { m_served = std::move(client); }
    bool served() const { return m_served != nullptr; }

private:
    struct Outcome {
        std::optional<Error> saveError;
        std::optional<std::filesystem::file_time_type> savedTime;
        std::shared_ptr<const own::OwnKernel> kernel;
        std::optional<Error> error;
        unsigned line = 0, column = 0;  // of the error, in the student's file (0: none)
        std::string diagnostic;         // the error without the file and line: "error: expected ';'"
        bool cancelled = false;
        double seconds = 0.0;
        std::string text;  // what was compiled
    };
    void start(bool save);
    void take(Outcome outcome);
    std::optional<std::filesystem::file_time_type> modifiedTime() const;

    EditorState m_state;
    std::shared_ptr<const own::OwnKernel> m_kernel;
    std::future<Outcome> m_task;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    double m_taskStarted = 0.0;
    bool m_waiting = false;                                      // a compile asked for while another ran
    bool m_waitingSave = false;                                  // ...and whether it saves first
    std::optional<std::filesystem::file_time_type> m_knownTime;  // the file's time as last read or written here
    double m_lastWatch = 0.0;
    std::function<void()> m_onDone;
    std::shared_ptr<ServedClient> m_served;
    std::shared_ptr<const ServedCompile> m_servedTicket;  // the compile the server is answering
    std::string m_servedText;                             // ...of this text
};

// [SECTION] Starting files

struct Exercise {
    std::string file;   // "exercise_08.cu"
    std::string label;  // "Exercise 8: 2D convolution, one thread per output"
};
// The starting files of assets/exercises/, in the order of the chapter.
const std::vector<Exercise>& exercises();
// Where "New from exercise" puts its copies: $XDG_DATA_HOME/tilescope, else
// ~/.local/share/tilescope, else the current folder.
std::filesystem::path exerciseCopyFolder();
// Copies `source` into `folder` under its own name, or name-2.cu, name-3.cu,
// ... when that exists: an existing file is never overwritten. Returns the copy.
Result<std::filesystem::path> copyExercise(const std::filesystem::path& source, const std::filesystem::path& folder);

}  // namespace tilescope::ui
