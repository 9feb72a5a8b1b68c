// A kernel's run as a command (run, check, stats, trace) or a request to
// `tilescope serve` asks for it: the options that choose the kernel, its
// input and mask (KernelOptions), read into the runner's request (load), and
// the JSON its reports begin with. No command-line parsing here (the
// commands' options bind to these fields: cli/options.hpp).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "api/runner.hpp"
#include "core/image.hpp"
#include "core/result.hpp"
#include "own/own_kernel.hpp"

namespace tilescope::request {

struct KernelOptions {
    std::string kernel;
    std::string kernelFile;   // a student's own CUDA file, instead of --kernel
    double timeLimit = 10.0;  // seconds a kernel file may run
    std::string sandbox;      // off, auto or required (own/sandbox.hpp); empty: $TILESCOPE_SANDBOX, else auto
    std::string input;        // a file
    std::string size;         // "N" or "WxH" instead of a file
    std::string mask;         // a file
    int radius = -1;          // instead of a mask file; -1: not given
    int block = 0;
    std::string backend = "auto";
    bool whatIf = false;
    unsigned seed = 7;
    std::string dropBarrier;  // "all" or "LINE[,LINE...]"; empty: keep every barrier
    std::string schedule;     // empty: in-order, or reverse when a barrier is dropped
    bool asIs = false;        // a listing as printed: run the plain CUDA kernel as it is (run --as-is)
    // The kernel file's text when it comes from elsewhere than the disk (a
    // request to `tilescope serve`): kernelFile then only names it.
    std::optional<std::string> kernelText;
    // A mask given as its values (a request to `tilescope serve`), instead of --mask or --radius.
    std::optional<Mask> maskValues;
    // An input given as its values (the page's input, sent to `tilescope serve`), instead of --input or --size.
    std::optional<Image> inputValues;
    own::CompileOptions compile;  // how the kernel file is compiled (its time limit, a cancel flag)
};

struct Loaded {
    Image input;
    Mask mask;
    std::string maskText;  // which mask: "blur5.txt, 5x5", or the generated one's words (generatedMaskText)
    std::shared_ptr<const own::OwnKernel> own;  // --kernel-file, compiled
    own::Diagnostic diagnostic;                 // where the kernel file was refused (line 0: not at a line of it)
    KernelPrintout printout;                    // what the kernel file printed, once it has run
    RunRequest request;                         // points at input, mask and printout above: keep Loaded in place
};

// Reads or generates the input and the mask and fills the request.
Status load(const KernelOptions& options, Loaded& loaded);

// The sandbox of a command that runs a class's code (`grade`, `serve`): the
// mode --sandbox names (`text`; empty: `fallback`), refused before anything
// runs where it is required and cannot be had, the reason followed by `why`
// (why this command needs it).
Result<own::SandboxMode> classSandbox(const std::string& text, const char* fallback, const std::string& why);

// The mask --radius R generates for a kernel of `dims` dimensions: the
// weights 1, 2, ..., n in reading order, scaled to add up to 1. No two are
// equal, so no flip of the mask (left-right, top-bottom, both) and no
// transpose of it equals it: a kernel that reads the mask flipped, or with
// its row and column swapped, gives wrong outputs. All are positive, so an
// output is a weighted average of its inputs, well within float32's rounding
// of the float64 reference.
Mask generatedMask(int dims, int radius);
// "generated 5x5, asymmetric (no flip or transpose of it is equal to it)"
std::string generatedMaskText(int dims, int radius);

// Which blocks a traced command records, and how many events it may keep
// (--trace-blocks, --event-budget).
struct TraceSelection {
    std::string blocks = "all";
    std::size_t eventBudget = 20'000'000;
};

// Loads the input and mask, checks the block list against the launch, and
// runs the kernel with tracing on; the result always holds a trace.
Result<RunResult> runTraced(const KernelOptions& options, const TraceSelection& selection, Loaded& loaded);

// The JSON that `stats` and `trace` print, with its keys in the order set.
using Json = nlohmann::ordered_json;
// The keys every traced command's report begins with: kernel, backend (and
// why), what-if (and why), grid, block_dim.
Json launchJson(const RunResult& run);

}  // namespace tilescope::request
