// The pipeline's own check before a class's work is taken (`serve`, `grade`,
// `lab export`): a small right kernel file, built in, translated, compiled and
// run in the sandbox those commands will use and on each backend they will
// use, its output held to the float64 reference and its trace to the problem
// detector. Where any step fails, the class's kernels would fail it too and be
// told "does not compile": the command stops instead, with the reason.
#pragma once

#include <string>

#include "core/result.hpp"
#include "own/sandbox.hpp"

namespace tilescope::request {

struct SelfCheckOptions {
    own::SandboxMode sandbox = own::SandboxMode::Required;
    bool cuda = false;  // also run it on the GPU (the CPU run is always made)
    double timeLimitSeconds = 10.0;
    double compileLimitSeconds = 30.0;
};

// Ok, or an Error of ExitCode::BackendUnavailable (3) saying which step
// failed and why. `said` gets one line for the log: what ran, where, how long.
Status selfCheck(const SelfCheckOptions& options, std::string* said = nullptr);

// The built-in kernel file's text (a tiled 2D convolution with its barrier).
const char* selfCheckKernel();

}  // namespace tilescope::request
