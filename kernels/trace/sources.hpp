// The kernel sources, embedded in the binary at build time
// (cmake/EmbedSources.cmake turns kernels/conv/*.cuh into a generated .cpp),
// so the app shows exactly the code that ran and highlights Event::line in it.
#pragma once

#include <span>
#include <string_view>

#include "core/kernel_info.hpp"

namespace tilescope {

struct EmbeddedSource {
    std::string_view path;  // under kernels/, e.g. "conv/conv2d_tiled_in.cuh"
    std::string_view text;  // the file's exact bytes
};

// Every embedded file (the ten kernels and conv/constant_memory.cuh).
std::span<const EmbeddedSource> embeddedSources();

// The text of a file by its path under kernels/; empty when not embedded.
std::string_view embeddedSource(std::string_view path);

// The exact text of the file a kernel is written in: a built-in kernel's
// embedded file (KernelInfo::sourceFile), a student's own text
// (KernelInfo::sourceText).
std::string_view kernelSource(const KernelInfo& kernel);

// Line `line` (1-based, as Event::line counts) of `text`, without its line
// break; empty past the end.
std::string_view sourceLine(std::string_view text, int line);

}  // namespace tilescope
