// The API of `tilescope serve` (docs/serve.md): a request to check or trace
// a student's kernel file, read from its JSON, and the job that answers it
// (the kernel compiled and run through kernels/own, in the worker, under the
// server's time limit and event budget).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/image.hpp"
#include "own/compile_cache.hpp"
#include "own/sandbox.hpp"

namespace tilescope::serve {

constexpr std::size_t kMaxKernelBytes = 64 * 1024;
// A request's body: the kernel, and an input given as its values (the page's).
constexpr std::size_t kMaxBodyBytes = 2 * 1024 * 1024;
constexpr std::size_t kMaxInputValues = 256 * 1024;

// What the server allows every job.
struct JobSettings {
    std::string backend = "auto";  // the server's --backend: auto, cpu or cuda
    std::size_t eventBudget = 20'000'000;
    double timeLimitSeconds = 10.0;     // a run in the worker
    double compileLimitSeconds = 30.0;  // the translation and the compiler
    // The sandbox each job's translation, compile and run go in (own/sandbox.hpp).
    own::SandboxMode sandbox = own::SandboxMode::Required;
    // Libraries compiled before; none: each job runs the compiler.
    std::shared_ptr<const own::CompileCache> compileCache;
};

struct ApiRequest {
    std::string kernel;  // the .cu file's text
    std::string size;    // "45x37" or "1000"
    int radius = -1;     // or a mask:
    std::optional<Mask> mask;
    int block = 0;
    std::string backend = "auto";
    std::string dropBarrier;  // "" , "all" or "23,31"
    std::string schedule;     // "", "in-order", "reverse" or "random" (the CPU executor's warp order)
    unsigned seed = 7;
    std::optional<Image> input;  // the input's values (else generated from `size` and `seed`)
};

// What a request asks for: the check's report, the trace, the run as the page
// takes it (own/served_run.hpp), or the compile alone.
enum class Job { Check, Trace, Run, Compile };

// A response: its HTTP status, type and body, and the verdict for the log.
struct Answer {
    int status = 200;
    std::string contentType = "application/json";
    std::string body;
    std::string verdict;       // clean, problems, refused, backend, bad_request, ...
    std::uint64_t events = 0;  // a trace's events
    // What the lab's record keeps of a job's answer (lab/lab_db.hpp): the
    // problem groups with their lines, or the refusal's line and reason (a
    // JSON array); where the kernel ran, and its own time (-1: it did not run).
    std::string problems = "[]";
    std::string backend;
    double kernelMs = -1;
};

// What a request asked besides the kernel's text, as JSON (the lab's record).
std::string requestJson(const ApiRequest& request, Job job);

// Reads the request's JSON. On failure, `error` holds the answer: 400 for
// JSON that is not a request, 413 for a kernel over kMaxKernelBytes or a
// size whose run would pass the event budget.
// A compile request needs the kernel alone.
std::optional<ApiRequest> parseApiRequest(std::string_view body, const JobSettings& settings, Answer& error,
                                          Job job = Job::Check);

// An answer of JSON {"status": status, "error": message}.
Answer errorAnswer(int httpStatus, const std::string& status, const std::string& message);

// Compiles and runs the kernel (check on; with `trace`, the trace is the
// answer, in the binary form of kernels/trace/trace_io.hpp). The check's
// answer is `tilescope check --json`'s report with "status" ahead of it:
// "clean" or "problems"; "refused" (with "line", "column" and "reason") when
// the kernel file is refused or its run fails; "backend" when the backend
// asked for is unavailable.
//
// Job::Run answers the run as own/served_run.hpp encodes it (the page's
// Runner takes it as its own run's result). Job::Compile translates and
// compiles the file only, and answers {"status": "compiled", "kernel":
// {"name", "dims", "mask_space", "uses_shared", "array_names"},
// "barrier_lines": [...], "compile_ms"}, or the refusal.
Answer runJob(const ApiRequest& request, const JobSettings& settings, Job job);

}  // namespace tilescope::serve
