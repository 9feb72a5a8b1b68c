// A student's kernel file read as text, before any parser reads it: the
// preprocessor's directives found as the preprocessor finds them (comments,
// `\` line splices, `%:` for `#`), and what a kernel file may not hold
// refused with its line, naming only what the student wrote. No libclang:
// nothing here opens a file or expands a macro.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "own/translate.hpp"

namespace tilescope::own {

// The headers a kernel file may include. They add nothing: what they would
// declare is in the prelude, for the parser and for the executions alike.
constexpr const char* kAllowedHeaders[] = {
    "cuda_runtime.h", "cuda.h",   "cuda_runtime_api.h", "device_launch_parameters.h",
    "stdio.h",        "cstdio",   "math.h",             "cmath",
    "stdlib.h",       "cstdlib",  "math_constants.h",   "assert.h",
};
bool allowedHeader(const std::string& name);

// A compiler's own names: builtins and intrinsics that read and write memory
// no trace sees (`__builtin_memcpy`, `__sync_fetch_and_add`), and the
// preprocessor's ways to reach a file or a pragma from an expression.
bool compilerName(const std::string& name);
std::string whyNotCompilerName(const std::string& name);

// The first directive or name of the file a kernel file may not hold, with
// its line, or nothing.
std::optional<Diagnostic> refusedPreprocessing(const std::string& path, const std::string& text);

}  // namespace tilescope::own
