// How the caller and the worker (tilescope-worker) talk: files in a job
// folder. The caller writes job.json, N.f32 and M.f32; the worker writes
// result.json, P.f32 and events.bin, and, when it is stopped or crashes,
// where.txt: the block, thread and line it was in.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/dim3.hpp"
#include "core/result.hpp"
#include "own/translate.hpp"
#include "trace/fault.hpp"
#include "trace/trace.hpp"

namespace tilescope::own {

constexpr const char* kWhereFile = "where.txt";
constexpr int kCrashExit = 70;  // the worker's exit status after a crash it reported

struct WorkerJob {
    std::string library;
    int dims = 2;
    int radius = 0;
    int maskWidth = 1;
    int width = 0, height = 1;
    bool trace = false;
    std::size_t eventBudget = 20'000'000;
    bool dropAll = false;
    std::vector<unsigned> dropLines;
    std::string schedule = "in-order";
    unsigned seed = 1;
    // How the kernel and its arrays are named, for the worker's own messages.
    std::string kernel;
    std::string path;
    std::array<std::string, kArrayCount> arrayNames;
    std::vector<std::string> sharedParts;  // KernelInfo::sharedParts
    bool constantMask = false;
    std::string backend = "cpu";  // or "cuda": NVRTC, plain and instrumented
    int benchRepeats = 0;         // cuda: time the plain kernel this often (the median is kept)
    std::vector<Dim3> traceBlocks;  // the blocks to trace (empty: all); block (0,0) is always among them
    // The sandbox (sandbox.hpp): the system-call filter installed before
    // launch(), and the address space the CPU executor may take (0: no limit).
    bool filter = false;
    std::uint64_t addressSpaceBytes = 8ull << 30;
};

struct WorkerResult {
    bool ok = false;
    std::string message;  // what went wrong, for the student
    unsigned line = 0;    // the student's line it names (0: none)
    std::string kernel;   // the kernel launch() launched
    Dim3 grid, block;
    std::size_t sharedBytes = 0;
    double millis = 0.0;
    LaunchFaults faults;
    std::vector<float> output;
    TracedBlocks blocks;
    std::string backend = "cpu";
    bool unavailable = false;   // the GPU could not be used (the caller may run the CPU instead)
    bool plainSkipped = false;  // the instrumented kernel found accesses outside an array: the plain one did not run
};

// What the caller knows of the run beyond its job: the worker's answer is
// checked against both (readResult).
struct ResultBounds {
    std::vector<std::string> kernels;  // the file's kernels: the one launched is one of them (empty: any)
    unsigned lines = 0;                // the file's lines: no line named is past them (0: not checked)
    int maskElements = 0;              // the mask as the kernel reads it (0: maskWidth, squared in 2D)
};

// What a result may hold at most: result.json's bytes, and a message's once
// made printable (printableText).
constexpr std::uint64_t kMaxResultJsonBytes = 1 << 20;
constexpr std::size_t kMaxMessageBytes = 4096;

// Text from a process TileScope does not trust (a message of the worker's,
// a line the kernel printed, where.txt's words), made safe to show on a
// terminal, in JSON, on the page and in the app: valid UTF-8 kept; a control
// character (below 0x20 but a tab, DEL, the C1 range, line and paragraph
// separators, bidirectional overrides) or an invalid byte shows as '?'; cut
// at a character past `maxBytes`, with " [...]".
std::string printableText(std::string_view text, std::size_t maxBytes = kMaxMessageBytes);

Status writeJob(const std::filesystem::path& dir, const WorkerJob& job, const std::vector<float>& N,
                const std::vector<float>& M);
Status readJob(const std::filesystem::path& dir, WorkerJob& job, std::vector<float>& N, std::vector<float>& M);
Status writeResult(const std::filesystem::path& dir, const WorkerResult& result);
// Reads what the worker wrote. Its files are the kernel's to tamper with:
// one that is not a plain file (a link to a file outside, say) is refused,
// and no count in them is believed past the file's size. Every field is
// checked against the job it was asked (and `bounds`): a launch launch()
// could make, an output of width x height floats, traced blocks inside the
// grid and among those asked for, events whose threads, ops, arrays,
// indices and lines are in range, the messages made printable. Anything
// else is refused (ExitCode::BadInput): "FILE: the kernel's process
// returned a result TileScope did not ask for (WHAT)". A missing result is
// an ExitCode::Internal error "no result ...".
Result<WorkerResult> readResult(const std::filesystem::path& dir, const WorkerJob& job,
                                const ResultBounds& bounds = {});

// Whether `path` is a plain file (not a link, not a folder) of at most
// `maxBytes`; false when it is missing too.
bool plainFile(const std::filesystem::path& path, std::uint64_t maxBytes = ~0ull);

// The translation in a process of its own (tilescope-worker --translate
// FOLDER): translate.json in, translation.json out.
struct TranslateRequest {
    std::string path;   // the student's file, as named
    std::string text;   // its bytes
    std::string probe;  // a path whose visibility the translator reports (the tests' proof of its view)
};
struct TranslateReply {
    bool ok = false;
    Translation translation;
    std::string message;  // on failure: the Error's message
    int code = 2;         // and its ExitCode
    Diagnostic diagnostic;
    int pid = 0;  // the translator's process id, as it saw it
    bool probeVisible = false;
};
Status writeTranslateRequest(const std::filesystem::path& dir, const TranslateRequest& request);
Status readTranslateRequest(const std::filesystem::path& dir, TranslateRequest& request);
Status writeTranslateReply(const std::filesystem::path& dir, const TranslateReply& reply);
Result<TranslateReply> readTranslateReply(const std::filesystem::path& dir);

}  // namespace tilescope::own
