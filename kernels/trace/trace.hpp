// A trace: everything the threads of one launch did, in each thread's program
// order. The launch is described once (kernel, plan, arrays); events are
// grouped by block, and within a block by thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dim3.hpp"
#include "core/kernel_catalogue.hpp"
#include "core/launch_plan.hpp"
#include "trace/event.hpp"
#include "trace/hardware.hpp"

namespace tilescope {

// Threads of a block, by linear index, run in warps of this many lanes.
constexpr unsigned kWarpSize = 32;

// One of several arrays a kernel declares in shared memory, which the trace
// keeps as one array (the block's shared memory, kArrayShared): its own
// name, where it starts (in elements) and its sizes, so that an element is
// named by the array it is in (`inside[3]`, not `tile, inside[83]`).
struct SharedPart {
    std::string name;
    int offset = 0;
    int planes = 1, rows = 1, cols = 1;
    int dims = 1;  // as declared: s[c] 1, s[r][c] 2, s[p][r][c] 3
    int size() const { return planes * rows * cols; }
};

struct ArrayInfo {
    std::string name;  // as the kernel's source calls it: N, M, F_c, P, N_s, ...
    Space space = Space::Global;
    int width = 0;     // elements per row (for N and P: the image width)
    int height = 1;
    int channels = 1;
    int pitch = 0;     // row stride in elements
    int size = 0;      // elements in all
    // A 3D shared array (`float s[C][T][T]`): the rows of one plane, so that
    // an element is named s[plane][row][col]; 0 for any other array.
    int planeRows = 0;
    // Shared memory only, where the kernel declares two arrays or more: each
    // of them, in the order of their offsets.
    std::vector<SharedPart> parts{};

    // Where element `index` sits: column, row and channel (pixels are
    // interleaved channel by channel inside a row of `pitch` elements).
    struct Coords {
        int x = 0, y = 0, channel = 0;
        friend constexpr bool operator==(const Coords&, const Coords&) = default;
    };
    Coords coords(int index) const {
        const int stride = pitch > 0 ? pitch : (width > 0 ? width * channels : 1);
        const int c = channels > 0 ? channels : 1;
        const int inRow = index % stride;
        return Coords{inRow / c, index / stride, inRow % c};
    }
    int indexOf(int x, int y, int channel = 0) const {
        const int stride = pitch > 0 ? pitch : width * channels;
        return y * stride + x * (channels > 0 ? channels : 1) + channel;
    }
};

struct BlockEvents {
    Dim3 block;
    std::vector<Event> events;  // grouped by thread (ascending), each thread's in program order
};

// The traced blocks of a launch, in linear block order.
using TracedBlocks = std::vector<BlockEvents>;

struct Trace {
    std::string kernel;
    std::string backend;  // "cpu" or "cuda"
    LaunchPlan plan;
    std::array<ArrayInfo, kArrayCount> arrays;
    std::vector<BlockEvents> blocks;  // the traced blocks, in linear block order
    std::vector<BlockHardware> hardware;  // every block, in linear block order (GPU runs only)

    std::size_t eventCount() const {
        std::size_t n = 0;
        for (const BlockEvents& b : blocks) n += b.events.size();
        return n;
    }

    // 1 or 2: how coordinates of threads, blocks and cells are written.
    int dims() const { return kernelOf(plan).dims; }
    // The memory an event touches (Register for multiply-adds and barriers).
    Space space(const Event& e) const { return e.array < kArrayCount ? arrays[e.array].space : Space::Register; }
    Dim3 threadCoords(unsigned linear) const {
        // A side of 0 (a block no launch makes) divides as 1: coordinates, never a fault.
        const unsigned x = plan.block.x > 0 ? plan.block.x : 1, y = plan.block.y > 0 ? plan.block.y : 1;
        return Dim3{linear % x, (linear / x) % y, static_cast<unsigned>(linear / (std::uint64_t{x} * y))};
    }
    unsigned linearBlock(Dim3 b) const { return b.x + plan.grid.x * (b.y + plan.grid.y * b.z); }
};

}  // namespace tilescope
