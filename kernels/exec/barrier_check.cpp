#include "exec/barrier_check.hpp"

#include <algorithm>
#include <string>
#include <string_view>

#include "trace/sources.hpp"

namespace tilescope {

std::vector<unsigned> barrierLines(const KernelInfo& kernel) {
    std::vector<unsigned> lines;
    const std::string_view text = kernelSource(kernel);
    unsigned line = 1;
    for (std::size_t begin = 0; begin < text.size(); ++line) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view body = text.substr(begin, end - begin);
        const std::size_t at = body.find("__syncthreads()");
        const std::size_t comment = body.find("//");
        if (at != std::string_view::npos && (comment == std::string_view::npos || at < comment)) lines.push_back(line);
        begin = end + 1;
    }
    return lines;
}

Status checkBarrierDrop(const KernelInfo& kernel, const BarrierDrop& drop) {
    if (drop.lines.empty()) return success();
    const std::vector<unsigned> lines = barrierLines(kernel);
    auto list = [&] {
        std::string s;
        for (std::size_t i = 0; i < lines.size(); ++i)
            s += (i == 0 ? "" : i + 1 == lines.size() ? " and " : ", ") + std::to_string(lines[i]);
        return s;
    };
    for (unsigned line : drop.lines) {
        if (std::find(lines.begin(), lines.end(), line) != lines.end()) continue;
        const std::string file = std::string(kernel.sourceFile);
        if (lines.empty())
            return badInput("--drop-barrier " + std::to_string(line) + ": " + std::string(kernel.name) +
                            " has no __syncthreads() to drop");
        return badInput("--drop-barrier " + std::to_string(line) + ": line " + std::to_string(line) + " of " + file +
                        " holds no __syncthreads(); its barriers are on line" + (lines.size() > 1 ? "s " : " ") +
                        list());
    }
    return success();
}

}  // namespace tilescope
