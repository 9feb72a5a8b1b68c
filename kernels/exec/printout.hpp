// What a kernel file printed: `printf` in its kernel or in its launch(). The
// worker's standard output is the kernel's alone (the worker talks to its
// caller through files, and writes its own messages on stderr); the caller
// reads it back with limits (own_kernel.cpp), so that a kernel that prints
// gigabytes costs no memory: the first kMaxLines lines, each cut at
// kMaxLineBytes, and a count of the rest.
//
// On the CPU executor the threads print in the order the executor runs them
// (block by block, warp by warp between barriers); on a GPU, the instrumented
// kernel's device printf, in the order the hardware flushed it (the plain
// kernel's, the same kernel run again, is left out).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace tilescope {

struct KernelPrintout {
    static constexpr std::size_t kMaxLines = 100;
    static constexpr std::size_t kMaxLineBytes = 1000;
    static constexpr std::uint64_t kMaxReadBytes = 1 << 20;       // read into memory at most
    static constexpr std::uint64_t kMaxCountBytes = 256ull << 20;  // scanned for line breaks at most

    std::vector<std::string> lines;  // the first lines, without their line breaks (control characters as '?')
    std::uint64_t moreLines = 0;     // the lines after those
    bool uncounted = false;          // and more: the output was too large to count to its end
    std::uint64_t bytes = 0;         // all it printed
    std::string note;                // where it comes from, when that needs saying

    bool empty() const { return bytes == 0; }
    std::uint64_t lineCount() const { return lines.size() + moreLines; }

    // "printf output of the kernel (3 lines)"
    std::string heading() const {
        const std::uint64_t n = lineCount();
        return std::string("printf output of the kernel (") + (uncounted ? "more than " : "") + std::to_string(n) +
               (n == 1 && !uncounted ? " line" : " lines") + (note.empty() ? "" : ", " + note) + ")";
    }
    // "... and 1234 more lines (5.2 MB in all)", or "" when every line is kept.
    std::string rest() const {
        if (moreLines == 0 && !uncounted) return {};
        std::string s = "... and " + std::string(uncounted ? "more than " : "") + std::to_string(moreLines) +
                        (moreLines == 1 && !uncounted ? " more line" : " more lines");
        if (bytes >= 1'000'000) {
            char size[32];
            std::snprintf(size, sizeof size, " (%.1f MB in all)", static_cast<double>(bytes) / 1e6);
            s += size;
        }
        return s;
    }
};

}  // namespace tilescope
