#include "model/kernel_file.hpp"

#include <cstdlib>
#include <system_error>

#include "base/atomic_file.hpp"
#include "base/clock.hpp"
#include "io/file_checks.hpp"
#include "io/whole_file.hpp"
#include "model/background_task.hpp"
#include "model/inputs.hpp"
#include "model/served_client.hpp"
#include "own/compile_cache.hpp"
#include "own/own_kernel.hpp"

namespace tilescope::ui {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxKernelFileBytes = 1'000'000;  // what own::compileKernelFile accepts
constexpr double kWatchSeconds = 1.0;

}  // namespace

KernelFile::KernelFile() = default;

KernelFile::~KernelFile() {
    m_waiting = false;
    if (m_cancel)
        m_cancel->store(true);
    if (m_task.valid())
        m_task.wait();
}

std::optional<fs::file_time_type> KernelFile::modifiedTime() const {
    std::error_code error;
    const fs::file_time_type time = fs::last_write_time(m_state.path, error);
    if (error)
        return std::nullopt;
    return time;
}

Status KernelFile::open(const fs::path& path) {
    auto text = io::readFileText(path, kMaxKernelFileBytes);
    if (!text) {
        m_state.fileNote = text.error().message;
        return text.error();
    }
    m_state.path = path.string();
    m_state.text = std::move(*text);
    ++m_state.textVersion;
    m_state.modified = false;
    m_state.changedOnDisk = false;
    m_state.fileNote.clear();
    m_state.errorLine = 0;
    m_state.errorMessage.clear();
    m_state.currentLine = 0;
    m_state.verdict = Verdict::None;
    m_state.verdictText.clear();
    m_state.verdictDetail.clear();
    m_knownTime = modifiedTime();
    m_lastWatch = base::seconds();
    start(false);
    return success();
}

void KernelFile::compile() {
    if (!isOpen())
        return;
    start(m_state.modified);
}

void KernelFile::cancelCompile() {
    m_waiting = false;
    if (m_servedTicket) {  // the server's answer, when it comes, is not taken in
        m_servedTicket.reset();
        m_state.compile = CompileState::Cancelled;
    }
    if (m_cancel)
        m_cancel->store(true);
}

void KernelFile::reload() {
    if (!isOpen())
        return;
    auto text = io::readFileText(m_state.path, kMaxKernelFileBytes);
    if (!text) {
        m_state.fileNote = text.error().message;
        return;
    }
    m_state.text = std::move(*text);
    ++m_state.textVersion;
    m_state.modified = false;
    m_state.changedOnDisk = false;
    m_knownTime = modifiedTime();
    start(false);
}

void KernelFile::start(bool save) {
    if (m_served) {
        // The page: the text saved here, compiled there. A newer compile
        // replaces the one the server is answering (its answer is dropped).
        m_taskStarted = base::seconds();
        m_state.compile = CompileState::Compiling;
        m_state.compileSeconds = 0.0;
        m_state.compileNote.clear();
        if (save) {
            m_state.modified = false;
            if (Status s = io::writeFileAtomic(m_state.path, m_state.text); !s) {
                m_state.fileNote = "not saved: " + s.error().message;
                m_state.modified = true;
            } else {
                m_knownTime = modifiedTime();
                m_state.fileNote.clear();
            }
        }
        m_servedText = m_state.text;
        m_servedTicket = m_served->compile(m_state.path, m_state.text);
        return;
    }
    if (m_task.valid()) {
        // One at a time: stop this one, and start the new one when it has ended.
        m_cancel->store(true);
        m_waiting = true;
        m_waitingSave = m_waitingSave || save;
        return;
    }
    m_waiting = false;
    m_waitingSave = false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_taskStarted = base::seconds();
    m_state.compile = CompileState::Compiling;
    m_state.compileSeconds = 0.0;
    m_state.compileNote.clear();
    if (save)
        m_state.modified = false;  // what is saved is this text; typing from here on modifies it again
    m_task = startTask([path = m_state.path, text = m_state.text, save, cancel = m_cancel, done = m_onDone] {
                            Outcome outcome;
                            outcome.text = text;
                            const double start = base::seconds();
                            if (save) {
                                if (Status s = io::writeFileAtomic(path, text); !s) {
                                    outcome.saveError = s.error();
                                } else {
                                    std::error_code error;
                                    const fs::file_time_type time = fs::last_write_time(path, error);
                                    if (!error)
                                        outcome.savedTime = time;
                                }
                            }
                            own::CompileOptions options;
                            options.cancel = cancel.get();
                            options.sandbox = own::sandboxModeFromEnvironment();
                            options.cache = own::userCompileCache();
                            own::Diagnostic diagnostic;
                            auto kernel = own::compileKernelText(path, text, options, &diagnostic);
                            outcome.seconds = base::seconds() - start;
                            if (cancel->load()) {
                                outcome.cancelled = true;
                            } else if (kernel) {
                                outcome.kernel = std::move(*kernel);
                            } else {
                                outcome.error = kernel.error();
                                outcome.line = diagnostic.line;
                                outcome.column = diagnostic.column;
                                outcome.diagnostic = diagnostic.message;
                            }
                            if (done)
                                done();
                            return outcome;
                        });
}

void KernelFile::take(Outcome outcome) {
    m_state.compileSeconds = outcome.seconds;
    if (outcome.saveError) {
        m_state.fileNote = "not saved: " + outcome.saveError->message;
        m_state.modified = true;
    } else if (outcome.savedTime) {
        m_knownTime = outcome.savedTime;  // our own save: the watcher must not take it for someone else's
        m_state.changedOnDisk = false;
        m_state.fileNote.clear();
    }
    if (outcome.cancelled) {
        m_state.compile = CompileState::Cancelled;
        return;
    }
    m_state.errorFromRun = false;
    if (outcome.kernel) {
        m_kernel = std::move(outcome.kernel);
        m_state.compile = CompileState::Compiled;
        m_state.errorLine = 0;
        m_state.errorColumn = 0;
        m_state.errorMessage.clear();
        m_state.verdict = Verdict::Running;
        m_state.verdictText.clear();
        m_state.verdictDetail.clear();
        return;
    }
    m_state.compile = CompileState::Failed;
    m_state.verdict = Verdict::None;
    m_state.verdictText.clear();
    m_state.verdictDetail.clear();
    m_state.errorLine = outcome.line;
    m_state.errorColumn = outcome.column;
    m_state.errorMessage =
        outcome.line > 0 && !outcome.diagnostic.empty() ? outcome.diagnostic : outcome.error->message;
}

bool KernelFile::poll(double now) {
    bool fresh = false;
    if (m_servedTicket) {
        m_state.compileSeconds = now - m_taskStarted;
        if (m_servedTicket->done.load(std::memory_order_acquire)) {
            Outcome outcome;
            outcome.text = m_servedText;
            outcome.seconds = m_state.compileSeconds;
            outcome.kernel = m_servedTicket->kernel;
            outcome.error = m_servedTicket->error;
            outcome.line = m_servedTicket->line;
            outcome.column = m_servedTicket->column;
            outcome.diagnostic = m_servedTicket->diagnostic;
            m_servedTicket.reset();
            fresh = outcome.kernel != nullptr;
            take(std::move(outcome));
        }
    }
    if (m_task.valid()) {
        m_state.compileSeconds = now - m_taskStarted;
        if (taskReady(m_task)) {
            Outcome outcome = m_task.get();
            fresh = outcome.kernel != nullptr && !m_waiting;
            take(std::move(outcome));
            if (m_waiting)
                start(m_waitingSave && m_state.modified);
        }
    }
    // The file watched: once a second, its modification time. A compile in
    // flight may be saving it: its own time comes back with it.
    if (!isOpen() || m_task.valid() || now - m_lastWatch < kWatchSeconds)
        return fresh;
    m_lastWatch = now;
    const auto time = modifiedTime();
    if (!time) {
        if (m_knownTime)
            m_state.fileNote = "the file is gone from disk; Ctrl+S writes it again";
        m_knownTime.reset();
        return fresh;
    }
    if (m_knownTime && *time == *m_knownTime)
        return fresh;
    m_knownTime = time;
    auto text = io::readFileText(m_state.path, kMaxKernelFileBytes);
    if (!text) {
        m_state.fileNote = text.error().message;
        return fresh;
    }
    if (*text == m_state.text) {
        m_state.changedOnDisk = false;
        if (m_state.fileNote.find("gone from disk") != std::string::npos)
            m_state.fileNote.clear();
        return fresh;
    }
    if (m_state.modified) {
        // Edited here and there: the user chooses.
        m_state.changedOnDisk = true;
        m_state.fileNote = "the file changed on disk while you edited it here";
        return fresh;
    }
    m_state.text = std::move(*text);
    ++m_state.textVersion;
    m_state.changedOnDisk = false;
    m_state.fileNote = "reloaded: the file changed on disk";
    start(false);
    return fresh;
}

// [SECTION] Starting files

const std::vector<Exercise>& exercises() {
    static const std::vector<Exercise> list = {
        {"warmup_1d.cu", "Warm-up: 1D convolution (Figure 7.6)"},
        {"exercise_08.cu", "Exercise 8: 2D convolution, one thread per output"},
        {"exercise_09.cu", "Exercise 9: 2D, the mask in constant memory"},
        {"exercise_10.cu", "Exercise 10: 2D tiled, the halo in shared memory"},
    };
    return list;
}

fs::path exerciseCopyFolder() {
#if defined(__EMSCRIPTEN__)
    return "/persist/kernels";  // the browser's storage (app/web/page.js)
#endif
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return fs::path(xdg) / "tilescope";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".local" / "share" / "tilescope";
    return fs::current_path();
}

Result<fs::path> copyExercise(const fs::path& source, const fs::path& folder) {
    auto text = io::readFileText(source, kMaxKernelFileBytes);
    if (!text)
        return text.error();
    std::error_code error;
    fs::create_directories(folder, error);
    if (error)
        return io::fileError(folder, "cannot create the folder: " + error.message());
    const std::string stem = source.stem().string(), extension = source.extension().string();
    // A name of its own: a file of that name, there already or made meanwhile, is left alone.
    base::AtomicWriteOptions options;
    options.replace = false;
    options.sync = false;
    options.mode = 0644;
    for (int n = 1; n < 1000; ++n) {
        const fs::path target = folder / (n == 1 ? stem + extension : stem + "-" + std::to_string(n) + extension);
        const auto failure = base::writeFileAtomic(target, *text, options);
        if (!failure)
            return target;
        switch (failure->kind) {
            case base::FileError::Kind::Exists:
            case base::FileError::Kind::IsDirectory:
            case base::FileError::Kind::NotRegularFile:
                continue;
            case base::FileError::Kind::CreateTemporary:
                return io::fileError(target, "cannot be created: " + failure->detail);
            default:
                return io::fileError(target, "cannot be written: " + failure->detail);
        }
    }
    return io::fileError(folder, "holds 999 copies of " + source.filename().string() + " already");
}

}  // namespace tilescope::ui
