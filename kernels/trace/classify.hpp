// Classification: what a teacher points at in one block of a chapter-7 launch.
//
// Answers, from the launch plan and a block index alone (no events needed):
// which input cells form the block's output tile, its input tile (what it
// stages in shared memory), its halo (needed, inside the array, outside the
// output tile) and its ghost cells (needed, outside the array), and whether
// the block is interior (touches no ghost cell). And, from one thread's
// events: the thread's role (loads and computes, loads but is switched off
// for the output, does nothing, ...) and what each of its events is part of
// (loading the tile, computing, a barrier).
//
// Coordinates are those of the input array N in elements (pixels for the
// pitched multi-channel kernel): x along a row, y down the rows; 1D kernels
// use y = 0 only. Rectangles are half-open.
#pragma once

#include <cstdint>
#include <span>

#include "trace/trace.hpp"

namespace tilescope {

struct Rect {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // [x0, x1) x [y0, y1)

    int width() const { return x1 > x0 ? x1 - x0 : 0; }
    int height() const { return y1 > y0 ? y1 - y0 : 0; }
    long long area() const { return static_cast<long long>(width()) * height(); }
    bool empty() const { return width() == 0 || height() == 0; }
    bool contains(int x, int y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
    Rect grown(int rx, int ry) const { return empty() ? Rect{} : Rect{x0 - rx, y0 - ry, x1 + rx, y1 + ry}; }
    Rect intersect(const Rect& o) const;
    friend constexpr bool operator==(const Rect&, const Rect&) = default;
};

// What one input cell is to one block.
enum class CellKind : std::uint8_t {
    Outside,   // not needed by the block
    Internal,  // in the block's output tile and in the array (the book's "internal cells")
    Halo,      // needed, in the array, outside the output tile: loaded by this block and its neighbour
    Ghost,     // needed by a computing thread, outside the array (0 by definition)
    PastEnd,   // outside the array and needed by no output: only tiled kernels touch these (storing 0)
};
const char* cellKindName(CellKind kind);  // "internal", "halo", "ghost", "past the end", "outside"

struct CellCounts {
    long long internal = 0, halo = 0, ghost = 0, pastEnd = 0;
};

struct BlockGeometry {
    Dim3 block;
    int dims = 1;
    int radiusX = 0, radiusY = 0;  // radiusY is 0 for 1D kernels
    Rect array;                    // [0, width) x [0, height)
    Rect outputTile;               // the outputs the block is responsible for; may reach past the array
    Rect computed;                 // outputTile inside the array: the outputs the block writes
    Rect inputTile;                // what the block stages in shared memory; empty when it uses none
    // A block that stages several tiles, one per band of output rows (conv2d_fast at 7x7 and 9x9): band b's
    // tile is sharedBandFloats elements from b * sharedBandFloats, and holds the rows from b * sharedBandRows
    // below inputTile's top. One tile: sharedBands is 1.
    int sharedBands = 1;
    int sharedBandFloats = 0;
    int sharedBandRows = 0;
    Rect footprint;                // every input cell its outputs need: the output tile grown by r
    bool interior = false;         // the footprint holds no ghost cell (the book's internal tile)

    CellKind classify(int x, int y) const;
    CellCounts counts() const;  // over the footprint
    // Which input cell element `sharedIndex` of the shared tile holds (row-major, inputTile-wide rows; band by band).
    void sharedCell(int sharedIndex, int& x, int& y) const;
};

BlockGeometry blockGeometry(const LaunchPlan& plan, Dim3 block);

// The mask taps of the output at (x, y) that fall inside / outside the
// array: the loads the basic kernel makes for it and the ghost references.
int tapsInside(const LaunchPlan& plan, int x, int y);
int tapsTotal(const LaunchPlan& plan);  // (2r+1) in 1D, (2r+1)^2 in 2D

// What a thread does over the whole launch.
enum class ThreadRole : std::uint8_t {
    LoadsAndComputes,       // stages tile cells and writes an output
    ComputesOnly,           // writes an output without staging anything (basic kernels)
    LoadsOnly,              // stages tile cells, then is switched off for the output
    ComputesWithoutOutput,  // multiplies but writes nothing (pitched kernel past the image edge)
    Idle,                   // does nothing (past the end of the array)
    IdleLane,               // not a thread: an unused lane of the block's last warp
};
const char* threadRoleName(ThreadRole role);

ThreadRole classifyThread(std::span<const Event> threadEvents);

// What an event is part of.
enum class Activity : std::uint8_t { TileLoad, Compute, Barrier };

// `i` indexes the thread's own events (program order).
Activity eventActivity(std::span<const Event> threadEvents, std::size_t i);

// For a store to shared memory at `i`: the index (within threadEvents) of the
// global load whose value it stores, or -1 when it stores a constant (a ghost
// zero, or a zero past the end). The load is a Load of N on the same line
// just before: the thread's preceding event for `N_s[i] = N[j]`, or for the
// k-th of copyAsync4's four stores the k-th of the four loads before them.
long long storeSource(std::span<const Event> threadEvents, std::size_t i);

}  // namespace tilescope
