// A student's kernel file read as text, before any parser reads it: the
// preprocessor's directives found as the preprocessor finds them (comments,
// `\` line splices, `%:` for `#`), and what a kernel file may not hold
// refused with its line, naming only what the student wrote. No libclang:
// nothing here opens a file or expands a macro.
//
// After the parse, the same reading makes the text the compilers get equal
// to the text the parser read: what the parser skipped and every
// conditional directive blanked, and every name the file uses freed of any
// meaning a compiler's own headers gave it (docs/own-kernel.md, "What is
// compiled").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "own/translate.hpp"

namespace tilescope::own {

// The headers a kernel file may include. They add nothing: what they would
// declare is in the prelude, for the parser and for the executions alike.
constexpr const char* kAllowedHeaders[] = {
    "cuda_runtime.h", "cuda.h",   "cuda_runtime_api.h", "device_launch_parameters.h",
    "stdio.h",        "cstdio",   "math.h",             "cmath",
    "stdlib.h",       "cstdlib",  "math_constants.h",   "assert.h",
    "stdint.h",       "cstdint",  "vector_types.h",     "vector_functions.h",
};
bool allowedHeader(const std::string& name);

// A compiler's own names: builtins and intrinsics that read and write memory
// no trace sees (`__builtin_memcpy`, `__sync_fetch_and_add`), and the
// preprocessor's ways to reach a file or a pragma from an expression.
bool compilerName(const std::string& name);
std::string whyNotCompilerName(const std::string& name);

// The bounds of a kernel file, checked on its text before the parser runs.
constexpr std::size_t kMaxFileBytes = 1'000'000;
constexpr unsigned kMaxFileLines = 65535;  // a trace event's line is 16 bits
constexpr int kMaxTextNesting = 256;       // brackets, and prefix operators in a row
constexpr double kMaxMacroTokens = 100'000;  // what one macro may expand to
constexpr double kMaxFileTokens = 200'000;   // the whole file, its macros expanded

// A name that tells one compiler from another or is reserved to them
// (`__clang__`, `__GNUC__`, `__cplusplus`, `__CUDA_ARCH__`, `_Bool`): a
// kernel file may not write it. CUDA's keywords and functions (`__global__`,
// `__syncthreads`, `__expf`), `__LINE__`, `__FILE__` and `__func__` are not.
bool compilersOwnName(const std::string& name);
std::string whyNotCompilersOwnName(const std::string& name);

// Why `#define name` (or `#undef`, as `directive` says) is refused: a
// keyword, one of CUDA's names, a name of the prelude or of the translation,
// a reserved name; "" when the file may define it.
std::string whyNotMacroName(const std::string& name, const std::string& directive = "define");

// The first directive or name of the file a kernel file may not hold, with
// its line, or nothing. Bounds what the parser will be given: the file's
// size and lines, how deep its brackets nest, and how large its macros
// could expand, each estimated from the text alone.
std::optional<Diagnostic> refusedPreprocessing(const std::string& path, const std::string& text);

// [begin, end) of each conditional directive of the text (#if, #ifdef,
// #ifndef, #elif, #elifdef, #elifndef, #else, #endif): from its `#` to the
// end of its line, `\` splices and comments that continue it included.
std::vector<std::pair<std::size_t, std::size_t>> conditionalDirectives(const std::string& text);

// Makes the text the parser read into the text the compilers compile: each
// range the parser skipped ([begin, end), as libclang reports them: from the
// `#` of one directive to the name of the next) and every conditional
// directive become spaces, every line break kept. A skipped range whose ends
// are not conditional directives (a reading that differs from the parser's)
// is refused rather than guessed at.
std::optional<Diagnostic> blankWhatWasNotRead(const std::string& path, std::string& text,
                                              const std::vector<std::pair<std::size_t, std::size_t>>& skipped);

// `#undef` lines, one a name: `used`, for every name the text uses that is
// not a compiler's or CUDA's (so that a macro of the C library's headers,
// `alloca(n)`, means nothing in the file's text); `defined`, for every macro
// the text defines (so that none reaches what the translation writes after it).
std::string undefineUsedNames(const std::string& text);
std::string undefineDefinedNames(const std::string& text);

}  // namespace tilescope::own
