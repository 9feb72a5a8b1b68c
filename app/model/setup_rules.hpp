// The rules of the set-up panel, kept apart from its widgets so that they
// can be tested and reused by the command line: which mask, input and block go
// with which kernel, and whether a combination can run (and if not, why, in
// the words planLaunch uses).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"
#include "core/image.hpp"
#include "model/app_state.hpp"

namespace tilescope::ui {

// The set-up's name for the student's own kernel file (kernels/own/):
// SetupState::kernel and the compare kernel hold it instead of a catalogue
// name (a student's kernel may well be called conv2d_basic too).
inline constexpr std::string_view kOwnKernelKey = "own";
inline bool isOwnKernel(std::string_view name) {
    return name == kOwnKernelKey;
}
// A kernel by its set-up name: the catalogue's, or for kOwnKernelKey `own`,
// the entry of the kernel file the app runs now (null while none has
// compiled). The rules below that read the set-up's kernel take `own` too:
// whoever holds the kernel file says which it is.
const KernelInfo* setupKernel(std::string_view name, const KernelInfo* own);
// What the app calls a compiled kernel file in its texts: "your conv2d_tiled".
std::string ownKernelName(const KernelInfo& kernel);

struct GpuStatus {
    bool available = false;
    std::string name;    // "NVIDIA H100 80GB HBM3"
    std::string reason;  // why not, when unavailable
};

// Asks the runner once (cheap afterwards).
GpuStatus queryGpu();

// The built-in demo: the book's 2D tiled kernel (Fig 7.12) on the photograph
// with the mask of Figure 7.4; CUDA when there is a GPU.
SetupState demoSetup(const GpuStatus& gpu);

// After the kernel changes: a 1D kernel gets the book's 1D array and mask, a
// 2D kernel the photograph and Figure 7.4's mask, when what was chosen does
// not exist for it; the block edge goes to the kernel's default when the
// number of dimensions changes. Files and compatible choices stay.
void adaptToKernel(SetupState& setup, const KernelInfo& previous, const KernelInfo& next);

// The barriers the set-up drops: those of its list that are lines of its
// kernel's __syncthreads(), in the order of the source.
BarrierDrop barrierDropOf(const SetupState& setup, const KernelInfo* own);

// The mask the set-up describes, or why there is none.
Result<Mask> currentMask(const SetupState& setup, const KernelInfo* own);

// Whether the set-up can run, section by section; each problem is a sentence
// to show next to the control it concerns.
struct SetupCheck {
    const KernelInfo* kernel = nullptr;
    std::optional<Mask> mask;
    std::optional<InputShape> shape;  // known before running (or after the file was read)
    std::optional<LaunchPlan> plan;   // when the shape is known and planLaunch agrees
    std::string kernelProblem;
    std::string maskProblem;
    std::string inputProblem;  // filled by the app from the runner (a file that cannot be read)
    std::string planProblem;   // planLaunch's message
    std::string backendProblem;

    // Nothing known to be wrong (the shape may still be unknown: a file not yet read).
    bool runnable() const {
        return kernel && mask && kernelProblem.empty() && maskProblem.empty() && planProblem.empty() &&
               backendProblem.empty();
    }
    // The first problem, for the result panel.
    std::string firstProblem() const;
};

SetupCheck checkSetup(const SetupState& setup, const std::optional<InputShape>& knownShape, const GpuStatus& gpu,
                      const KernelInfo* own);

// The launch planner speaks to the command line ("use --block 7 or more");
// the app says the same with the names of its controls.
std::string inAppWords(std::string message);

// Whether `compare` can be compared with `kernel`: another known kernel of
// the same dimension. The kernel file before it has compiled fits any
// catalogue kernel (its dimension is not known yet).
bool compareFits(const std::string& kernel, const std::string& compare, const KernelInfo* own);

// "64 x 64", "7 elements", "640 x 480 x 3 channels"
std::string describeShape(const InputShape& shape);

}  // namespace tilescope::ui
