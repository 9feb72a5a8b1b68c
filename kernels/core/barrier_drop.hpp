// Which __syncthreads() a run leaves out: the classroom race demonstration
// (`--drop-barrier all|LINE[,LINE...]`, the Source panel's check boxes). A
// dropped barrier is not executed and not recorded, so the trace is the
// trace of the kernel without it, and the problem detector finds the races
// it leaves behind. The three executions drop the same barriers.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace tilescope {

// Lines are those of the kernel's own file, as Event::line counts them.
constexpr unsigned kMaxBarrierLine = 255;

struct BarrierDrop {
    bool all = false;
    std::vector<unsigned> lines;  // each at most kMaxBarrierLine

    bool any() const { return all || !lines.empty(); }
    bool drops(unsigned line) const { return all || std::find(lines.begin(), lines.end(), line) != lines.end(); }
    // One bit per line 0..255, as the CUDA builds keep it in constant memory.
    std::array<std::uint32_t, 8> bits() const {
        std::array<std::uint32_t, 8> b{};
        for (unsigned line = 0; line <= kMaxBarrierLine; ++line)
            if (drops(line)) b[line / 32] |= 1u << (line % 32);
        return b;
    }
    bool operator==(const BarrierDrop&) const = default;
};

// The order in which the fibers of a block are resumed after each barrier.
// A correct kernel gives the same result and the same trace under every
// order; with a barrier dropped, the order decides which values a thread
// sees. Warps are taken whole (a warp's lanes run in lane order), as a warp
// scheduler issues them.
enum class Schedule {
    InOrder,  // warp 0, 1, 2, ...
    Reverse,  // the last warp first: the race demonstration's default
    Random,   // a shuffle of the warps, from the seed and the block's index
};
inline const char* scheduleName(Schedule s) {
    switch (s) {
    case Schedule::InOrder: return "in-order";
    case Schedule::Reverse: return "reverse";
    case Schedule::Random: return "random";
    }
    return "in-order";
}
inline bool scheduleFromName(std::string_view name, Schedule& s) {
    for (Schedule c : {Schedule::InOrder, Schedule::Reverse, Schedule::Random})
        if (name == scheduleName(c)) {
            s = c;
            return true;
        }
    return false;
}

}  // namespace tilescope
