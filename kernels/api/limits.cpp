#include "api/limits.hpp"

#include <algorithm>
#include <cmath>

namespace tilescope {

namespace {

std::string str(long long v) {
    return std::to_string(v);
}

long long ceilDiv(long long a, long long b) {
    return b > 0 ? (a + b - 1) / b : 0;
}

// The largest square edge whose area is at most `area`.
int squareEdgeWithin(long long area) {
    int e = static_cast<int>(std::sqrt(static_cast<double>(area)));
    while (static_cast<long long>(e + 1) * (e + 1) <= area)
        ++e;
    while (e > 0 && static_cast<long long>(e) * e > area)
        --e;
    return e;
}

std::string threadsSentence(const KernelInfo& k, const LaunchPlan* plan, const DeviceLimits& limits) {
    const int maxThreads = limits.maxThreadsPerBlock;
    const int r = plan ? plan->radius : 0;
    if (k.dims == 1) {
        const std::string base = "blockDim.x: at most " + str(maxThreads) + " threads";
        switch (k.tiles) {
            case TileShape::None:
                return base + "; one thread per output, so a longer array takes more blocks.";
            default:
                if (correctedKernel(k).id == KernelId::Conv1dTiled)
                    return base + ", so the output tile is at most " + str(maxThreads) +
                           " elements and the input tile " + "(tile + 2r) at most " + str(maxThreads + 2 * r) + ".";
                return base + ", so the tile is at most " + str(maxThreads) + " elements.";
        }
    }
    const int edge = squareEdgeWithin(maxThreads);
    const std::string base =
        "The block edge: " + str(edge) + " x " + str(edge) + " = " + str(edge * edge) + " threads at most";
    switch (k.tiles) {
        case TileShape::None:
            return base + "; one thread per output pixel, so a larger image takes more blocks.";
        case TileShape::BlockIsTile:
            return base + ", so TILE_DIM <= " + str(edge) + "; the halo comes from the caches.";
        case TileShape::BlockIsInputTile: {
            const bool pitched = correctedKernel(k).id == KernelId::Conv2dTiledPitched;
            const std::string in = pitched ? "BLOCK_WIDTH" : "IN_TILE_DIM",
                              out = pitched ? "O_TILE_WIDTH" : "OUT_TILE_DIM";
            const std::string bound = plan ? str(edge - 2 * r) + " at r = " + str(r) : str(edge) + " - 2r";
            return base + ". The block is the input tile, so " + in + " <= " + str(edge) + " and " + out + " = " + in +
                   " - 2r <= " + bound + ".";
        }
        case TileShape::BlockIsOutputTile:
            return base + ". The block is the output tile, so OUT_TILE_DIM <= " + str(edge) + "; the input tile (" +
                   "OUT_TILE_DIM + 2r) is loaded in several passes and may be larger.";
        case TileShape::ThreadPatch: {
            const ThreadPatch& patch = correctedKernel(k).patch;
            const int outputs = patch.outputs;
            if (plan && plan->fast.staged) {
                const int wide = squareEdgeWithin(maxThreads * patch.bands) / patch.bands * patch.bands;
                return "The block: N x N/" + str(patch.bands) + " threads, at most " + str(maxThreads) +
                       "; each thread computes a " + str(outputs) + " x " + str(outputs) + " patch in each of " +
                       str(patch.bands) + " bands, so an output tile is at most " + str(outputs * wide) + " x " +
                       str(outputs * wide) + ".";
            }
            return base + "; each thread computes " + str(outputs) + " x " + str(outputs) +
                   " outputs, so an output tile is at most " + str(outputs * edge) + " x " + str(outputs * edge) + ".";
        }
    }
    return base + ".";
}

std::string sharedSentence(const KernelInfo& k, const LaunchPlan* plan, std::size_t limit) {
    if (k.tiles == TileShape::ThreadPatch) {
        const PatchStaging f = plan ? patchStaging(k, *plan) : PatchStaging{};
        if (f.bands == 0) {
            const ThreadPatch& patch = correctedKernel(k).patch;
            auto square = [](int r) { return str(2 * r + 1) + "x" + str(2 * r + 1); };
            std::string staged;
            for (int r = patch.stageFrom; r <= patch.stageTo; ++r)
                staged += (r == patch.stageFrom ? "" : r == patch.stageTo ? " and " : ", ") + square(r);
            return "Nothing here at this mask: the block reads its inputs through the caches (" + staged +
                   " stage them in shared memory).";
        }
        return "The staged tiles: " + str(f.bands) + " bands, each " + str(f.tileWidth) + " x " +
               str(f.tileHeight) + " floats = " + byteSize(plan->sharedBytes) + " in all, at most " +
               byteSize(limit) + ".";
    }
    if (!k.usesShared)
        return "Nothing here: this kernel keeps no tile in shared memory.";
    const long long floats = static_cast<long long>(limit / sizeof(float));
    if (k.dims == 1) {
        std::string s = "The tile in shared memory: at most " + str(floats) + " floats";
        if (plan)
            s += "; this one holds " + str(plan->inTile) + " (" + byteSize(plan->sharedBytes) + ")";
        return s + ".";
    }
    const int edge = squareEdgeWithin(floats);
    std::string s = "The tile in shared memory: the input tile's edge is at most " + str(edge) + " (" + str(edge) +
                    " x " + str(edge) + " floats)";
    if (plan)
        s += "; this one is " + str(plan->inTile) + " x " + str(plan->inTile) +
             " x 4 B = " + byteSize(plan->sharedBytes);
    return s + ".";
}

}  // namespace

std::string byteSize(std::size_t n) {
    if (n >= 1024 * 1024 && n % (1024 * 1024) == 0)
        return std::to_string(n / (1024 * 1024)) + " MiB";
    if (n >= 1024 && n % 1024 == 0)
        return std::to_string(n / 1024) + " KiB";
    return std::to_string(n) + " B";
}

int residentBlocksPerSm(const LaunchPlan& plan, const DeviceLimits& limits) {
    const long long threads = static_cast<long long>(plan.block.x) * plan.block.y * plan.block.z;
    if (limits.maxThreadsPerSm <= 0 || threads <= 0)
        return 0;
    long long blocks = limits.maxThreadsPerSm / threads;
    if (limits.maxBlocksPerSm > 0)
        blocks = std::min<long long>(blocks, limits.maxBlocksPerSm);
    if (plan.sharedBytes > 0 && limits.sharedPerSm > 0)
        blocks = std::min<long long>(blocks, static_cast<long long>(limits.sharedPerSm / plan.sharedBytes));
    return static_cast<int>(blocks);
}

std::vector<LimitUse> describeLimits(const KernelInfo& k, const LaunchPlan* plan, const DeviceLimits& limits,
                                     int maskWidth) {
    std::vector<LimitUse> rows;
    const long long threads = plan ? static_cast<long long>(plan->block.x) * plan->block.y * plan->block.z : 0;
    const long long blocks = plan ? static_cast<long long>(plan->grid.x) * plan->grid.y * plan->grid.z : 0;

    rows.push_back({"threads per block", str(limits.maxThreadsPerBlock), plan ? str(threads) : "-",
                    plan && threads > limits.maxThreadsPerBlock, threadsSentence(k, plan, limits)});

    std::string sharedLimit = byteSize(limits.sharedPerBlock);
    if (limits.sharedPerBlockOptin > limits.sharedPerBlock)
        sharedLimit += " (" + byteSize(limits.sharedPerBlockOptin) + " opt-in)";
    rows.push_back({"shared memory per block", sharedLimit, plan ? byteSize(plan->sharedBytes) : "-",
                    plan && plan->sharedBytes > limits.sharedPerBlockOptin,
                    sharedSentence(k, plan, limits.sharedPerBlockOptin)});

    if (limits.sharedPerSm > 0 && limits.maxThreadsPerSm > 0) {
        std::string s;
        if (plan && !plan->whatIf) {
            const int resident = residentBlocksPerSm(*plan, limits);
            const long long byThreads = limits.maxThreadsPerSm / std::max<long long>(threads, 1);
            s = "How many blocks share an SM: " + str(resident) + " of this launch at once (" +
                str(limits.maxThreadsPerSm) + " threads per SM allow " + str(byThreads);
            if (plan->sharedBytes > 0)
                s += ", " + byteSize(limits.sharedPerSm) + " of shared memory allows " +
                     str(static_cast<long long>(limits.sharedPerSm / plan->sharedBytes));
            s += "; registers not counted).";
        } else {
            s = "How many blocks share an SM: a bigger tile leaves room for fewer blocks.";
        }
        rows.push_back(
            {"shared memory per SM", byteSize(limits.sharedPerSm), plan ? byteSize(plan->sharedBytes) : "-", false, s});
    }

    const std::size_t maskBytes = static_cast<std::size_t>(maskWidth) * (k.dims == 2 ? maskWidth : 1) * sizeof(float);
    std::string constant;
    if (k.maskSpace == Space::Constant) {
        const int reserved = 2 * kMaxRadius + 1;
        const std::size_t reservedBytes =
            static_cast<std::size_t>(reserved) * (k.dims == 2 ? reserved : 1) * sizeof(float);
        constant = "The mask: " + std::string(k.dims == 2 ? "(2r+1)^2" : "2r+1") + " floats, read by every thread " +
                   "at once through the constant cache; " + (k.dims == 2 ? "F_c" : "M") +
                   " is sized for r <= " + str(kMaxRadius) + " (" + byteSize(reservedBytes) + " of " +
                   byteSize(limits.constantBytes) + ").";
    } else {
        constant = "Nothing here: this kernel reads the mask from global memory (through the caches).";
    }
    rows.push_back({"constant memory", byteSize(limits.constantBytes),
                    maskWidth > 0 ? byteSize(maskBytes) + " (mask)" : "-", false, constant});

    if (limits.smCount > 0) {
        std::string s = "How many blocks run at once";
        if (plan && !plan->whatIf) {
            const int resident = residentBlocksPerSm(*plan, limits);
            if (resident > 0) {
                const long long atOnce = static_cast<long long>(limits.smCount) * resident;
                const long long waves = ceilDiv(blocks, atOnce);
                s += ": " + str(limits.smCount) + " SMs x " + str(resident) + " = " + str(atOnce) + "; the grid's " +
                     str(blocks) + " blocks take " + str(waves) + (waves == 1 ? " wave" : " waves");
                if (blocks < limits.smCount)
                    s += ", and " + str(limits.smCount - blocks) + " SMs have nothing to do";
            }
        }
        rows.push_back(
            {"streaming multiprocessors", str(limits.smCount), plan ? str(blocks) + " blocks" : "-", false, s + "."});
    }

    if (limits.l2Bytes > 0) {
        const std::size_t input =
            plan ? static_cast<std::size_t>(plan->pitch) * static_cast<std::size_t>(plan->height) * sizeof(float) : 0;
        std::string s =
            "Whether the halo can be left to the caches: neighbouring blocks read the same halo cells, "
            "and the second read is cheap while they are in L2";
        if (plan)
            s += std::string("; the input (") + byteSize(input) + ") " +
                 (input <= limits.l2Bytes ? "fits in L2." : "does not fit in L2, so a halo may come from DRAM twice.");
        else
            s += ".";
        rows.push_back({"L2 cache", byteSize(limits.l2Bytes), plan ? byteSize(input) + " (input)" : "-", false, s});
    }
    return rows;
}

}  // namespace tilescope
