// Classification of a block's cells and threads: see classify.hpp.
#include "trace/classify.hpp"

#include <algorithm>

#include "core/kernel_catalogue.hpp"
#include "core/planner.hpp"

namespace tilescope {

Rect Rect::intersect(const Rect& o) const {
    Rect r{std::max(x0, o.x0), std::max(y0, o.y0), std::min(x1, o.x1), std::min(y1, o.y1)};
    return r.empty() ? Rect{} : r;
}

const char* cellKindName(CellKind kind) {
    switch (kind) {
        case CellKind::Outside:
            return "outside";
        case CellKind::Internal:
            return "internal";
        case CellKind::Halo:
            return "halo";
        case CellKind::Ghost:
            return "ghost";
        case CellKind::PastEnd:
            return "past the end";
    }
    return "?";
}

const char* threadRoleName(ThreadRole role) {
    switch (role) {
        case ThreadRole::LoadsAndComputes:
            return "loads and computes";
        case ThreadRole::ComputesOnly:
            return "computes";
        case ThreadRole::LoadsOnly:
            return "loads, switched off for the output";
        case ThreadRole::ComputesWithoutOutput:
            return "computes, writes no output";
        case ThreadRole::Idle:
            return "does nothing";
        case ThreadRole::IdleLane:
            return "idle lane";
    }
    return "?";
}

BlockGeometry blockGeometry(const LaunchPlan& plan, Dim3 block) {
    const KernelInfo& k = kernelOf(plan);
    BlockGeometry g;
    g.block = block;
    g.dims = k.dims;
    g.radiusX = plan.radius;
    g.radiusY = k.dims == 2 ? plan.radius : 0;
    g.array = Rect{0, 0, plan.width, k.dims == 2 ? plan.height : 1};

    // Every kernel assigns outputs in tiles of outEdge, starting at block * outEdge;
    // the basic kernels' "tile" is the block itself. A student's kernel has
    // the tiles its run showed (own/own_kernel.cpp), or none.
    const bool untiled = k.tiles == TileShape::None && !(plan.kernel == KernelId::Own && plan.outTile > 0);
    const int outEdgeX = untiled ? static_cast<int>(plan.block.x) : plan.outTile;
    const int outEdgeY = k.dims == 2 ? (untiled ? static_cast<int>(plan.block.y) : plan.outTile) : 1;
    const int ox = static_cast<int>(block.x) * outEdgeX;
    const int oy = k.dims == 2 ? static_cast<int>(block.y) * outEdgeY : 0;
    g.outputTile = Rect{ox, oy, ox + outEdgeX, oy + outEdgeY};
    g.computed = g.outputTile.intersect(g.array);
    g.footprint = g.outputTile.grown(g.radiusX, g.radiusY);
    const PatchStaging staged = patchStaging(k, plan);
    if (staged.bands > 0) {
        // A ThreadPatch kernel's band tiles: together they cover the footprint, widened to whole float4s.
        g.inputTile = Rect{ox - staged.haloColumns, oy - plan.radius, ox + outEdgeX + staged.haloColumns,
                           oy + outEdgeY + plan.radius};
        g.sharedBands = staged.bands;
        g.sharedBandFloats = staged.tileWidth * staged.tileHeight;
        g.sharedBandRows = staged.bandRows;
    } else if (k.usesShared && k.tiles != TileShape::ThreadPatch && plan.inTile > 0) {
        // The input tile is centred on the output tile: (inTile - outTile) / 2
        // is r for the kernels that stage their halo and 0 for those that
        // leave it to the caches.
        const int shift = (plan.inTile - plan.outTile) / 2;
        const int ix = ox - shift;
        const int iy = k.dims == 2 ? oy - shift : 0;
        g.inputTile = Rect{ix, iy, ix + plan.inTile, k.dims == 2 ? iy + plan.inTile : 1};
    }
    g.interior = g.footprint.intersect(g.array) == g.footprint;
    return g;
}

CellKind BlockGeometry::classify(int x, int y) const {
    if (!footprint.contains(x, y))
        return CellKind::Outside;
    if (array.contains(x, y))
        return computed.contains(x, y) ? CellKind::Internal : CellKind::Halo;
    return computed.grown(radiusX, radiusY).contains(x, y) ? CellKind::Ghost : CellKind::PastEnd;
}

CellCounts BlockGeometry::counts() const {
    CellCounts c;
    const Rect reach = computed.grown(radiusX, radiusY);
    c.internal = computed.area();
    c.halo = footprint.intersect(array).area() - c.internal;
    c.ghost = reach.area() - reach.intersect(array).area();
    c.pastEnd = footprint.area() - footprint.intersect(array).area() - c.ghost;
    return c;
}

void BlockGeometry::sharedCell(int sharedIndex, int& x, int& y) const {
    const int w = std::max(1, inputTile.width());
    int band = 0;
    if (sharedBands > 1 && sharedBandFloats > 0) {
        band = std::clamp(sharedIndex / sharedBandFloats, 0, sharedBands - 1);
        sharedIndex -= band * sharedBandFloats;
    }
    x = inputTile.x0 + sharedIndex % w;
    y = inputTile.y0 + band * sharedBandRows + sharedIndex / w;
}

namespace {
int inside1D(int c, int r, int size) {
    return std::min(c + r, size - 1) - std::max(c - r, 0) + 1;
}
}  // namespace

int tapsInside(const LaunchPlan& plan, int x, int y) {
    const int r = plan.radius;
    if (kernelOf(plan).dims == 1)
        return std::max(0, inside1D(x, r, plan.width));
    return std::max(0, inside1D(x, r, plan.width)) * std::max(0, inside1D(y, r, plan.height));
}

int tapsTotal(const LaunchPlan& plan) {
    const int w = 2 * plan.radius + 1;
    return kernelOf(plan).dims == 1 ? w : w * w;
}

ThreadRole classifyThread(std::span<const Event> events) {
    bool stages = false, multiplies = false, writes = false;
    for (const Event& e : events) {
        if (e.op == Op::Store && e.array == kArrayShared)
            stages = true;
        if (e.op == Op::Store && e.array == kArrayOutput)
            writes = true;
        if (e.op == Op::MultiplyAdd)
            multiplies = true;
    }
    if (writes)
        return stages ? ThreadRole::LoadsAndComputes : ThreadRole::ComputesOnly;
    if (multiplies)
        return ThreadRole::ComputesWithoutOutput;
    if (stages)
        return ThreadRole::LoadsOnly;
    return ThreadRole::Idle;
}

Activity eventActivity(std::span<const Event> events, std::size_t i) {
    const Event& e = events[i];
    if (e.op == Op::Barrier)
        return Activity::Barrier;
    if (e.op == Op::Store && e.array == kArrayShared)
        return Activity::TileLoad;
    if (e.op == Op::Load && e.array == kArrayInput && i + 1 < events.size()) {
        const Event& next = events[i + 1];
        if (next.op == Op::Store && next.array == kArrayShared && next.line == e.line)
            return Activity::TileLoad;
    }
    return Activity::Compute;
}

long long storeSource(std::span<const Event> events, std::size_t i) {
    const Event& e = events[i];
    auto sameLine = [&](std::size_t j, Op op) {
        return events[j].op == op && events[j].line == e.line && (op != Op::Load || events[j].array == kArrayInput);
    };
    // The stores of this line just before this one, then the loads of N just before those: the k-th store of
    // the run stores the k-th load (one load and one store, `N_s[i] = N[j]`; or copyAsync4's four and four).
    std::size_t stores = 0;
    while (stores < i && sameLine(i - 1 - stores, Op::Store)) ++stores;
    std::size_t loads = 0;
    while (loads + stores < i && sameLine(i - 1 - stores - loads, Op::Load)) ++loads;
    if (loads <= stores)
        return -1;
    return static_cast<long long>(i - loads);  // (i - stores - loads) + stores
}

}  // namespace tilescope
