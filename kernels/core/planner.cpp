#include "core/planner.hpp"

#include <string>

#include "core/kernel_catalogue.hpp"

namespace tilescope {

namespace {

std::string str(int v) { return std::to_string(v); }

unsigned ceilDiv(int a, int b) { return static_cast<unsigned>((a + b - 1) / b); }

}  // namespace

int pitchFor(int width, int channels) {
    int row = width * channels;
    return (row + 31) / 32 * 32;
}

FastShape modelShape(const KernelInfo& kernel, int radius) {
    FastShape s;
    const ThreadPatch& patch = correctedKernel(kernel).patch;
    if (kernel.tiles != TileShape::ThreadPatch) return s;
    s.staged = patch.stages(radius);
    s.registers = radius <= patch.limitRegistersTo ? (s.staged ? patch.stagedRegisters : patch.directRegisters) : 0;
    return s;
}

PatchStaging patchStaging(const KernelInfo& kernel, const LaunchPlan& plan) {
    PatchStaging f;
    const ThreadPatch& patch = correctedKernel(kernel).patch;
    if (kernel.tiles != TileShape::ThreadPatch || !plan.fast.staged) return f;
    f.bands = patch.bands;
    f.haloColumns = 4 * ((plan.radius + 3) / 4);
    f.tileWidth = patch.outputs * static_cast<int>(plan.block.x) + 2 * f.haloColumns;
    f.bandRows = patch.outputs * static_cast<int>(plan.block.y);
    f.tileHeight = f.bandRows + 2 * plan.radius;
    return f;
}

int defaultBlock(const KernelInfo& kernel) { return kernel.dims == 1 ? 256 : 16; }

int defaultBlock(const KernelInfo& kernel, int radius) {
    if (radius < 0 || radius > kMaxRadius) return defaultBlock(kernel);
    const int measured = kernel.patch.blockByRadius[static_cast<std::size_t>(radius)];
    return measured > 0 ? measured : defaultBlock(kernel);
}

Result<LaunchPlan> planLaunch(const KernelInfo& k, const Problem& p, const DeviceLimits& limits, bool allowWhatIf) {
    const std::string name(k.name);
    // A listing as printed is planned as its corrected kernel: same block,
    // tiles and shared memory, and the same refusals. Where the listing
    // fixes a size with a #define (TILE_DIM, FILTER_RADIUS, O_TILE_WIDTH),
    // the kernel derives it from this launch, as the corrected kernel does.
    const KernelId id = correctedKernel(k).id;
    if (p.width <= 0 || p.height <= 0 || p.channels <= 0)
        return badInput(name + ": the input is empty (" + str(p.width) + "x" + str(p.height) + ")");
    if (k.dims == 1 && (p.rank != 1 || p.height != 1))
        return badInput(name + " is a 1D kernel but the input is " + str(p.width) + "x" + str(p.height) +
                        (p.channels > 1 ? "x" + str(p.channels) : "") + "; give it a 1D array");
    if (k.dims == 2 && p.rank == 1)
        return badInput(name + " is a 2D kernel but the input is a 1D array of " + str(p.width) +
                        " elements; give it an image or a 2D array");
    if (p.maskWidth <= 0 || p.maskHeight <= 0) return badInput("the mask is empty");
    if (k.dims == 1 && p.maskHeight != 1)
        return badInput(name + " needs a 1D mask (one row); got " + str(p.maskHeight) + "x" + str(p.maskWidth));
    if (k.dims == 2 && p.maskHeight != p.maskWidth)
        return badInput(name + " needs a square mask; got " + str(p.maskHeight) + "x" + str(p.maskWidth));
    if (p.maskWidth % 2 == 0)
        return badInput("mask width " + str(p.maskWidth) +
                        " is even: the book's kernels centre the mask on the output element, so its width must "
                        "be odd (2r+1)");
    const int r = p.maskWidth / 2;
    if (r > kMaxRadius)
        return badInput("mask radius " + str(r) + " (width " + str(p.maskWidth) + ") is over the maximum " +
                        str(kMaxRadius) + ": constant memory is sized for masks up to 15x15");

    LaunchPlan plan;
    plan.kernel = k.id;
    plan.entry = &k;
    plan.radius = r;
    plan.maskWidth = p.maskWidth;
    plan.width = p.width;
    plan.height = p.height;
    plan.channels = k.multiChannel ? p.channels : 1;
    plan.pitch = k.multiChannel ? pitchFor(p.width, p.channels) : p.width;

    const int edge = p.block > 0 ? p.block : defaultBlock(k, r);
    if (p.block < 0) return badInput("block size " + str(p.block) + " is negative");
    // A ThreadPatch kernel's shape: the model's, or the one asked for. Staged, its block is edge x edge / bands.
    const ThreadPatch& patch = correctedKernel(k).patch;
    if (k.tiles == TileShape::ThreadPatch) {
        plan.fast = modelShape(k, r);
        if (p.staged >= 0) plan.fast.staged = p.staged == 1;
        if (p.registers >= 0) plan.fast.registers = p.registers;
        if (plan.fast.staged && r == 0)
            return badInput(name + " stages no input at 1x1: a mask of one tap has no halo to share");
        // The shapes beyond the model's are built for rows that start 16-byte aligned (float4 loads).
        if (plan.fast != modelShape(k, r) && p.width % 4 != 0)
            return badInput(name + ": a shape other than its model's needs a width that is a multiple of 4 (got " +
                            str(p.width) + ")");
    } else if (p.staged >= 0 || p.registers >= 0) {
        return badInput(name + " has no shape to choose beyond its block (staging and registers are conv2d_fast's)");
    }
    const bool banded = k.tiles == TileShape::ThreadPatch && plan.fast.staged;
    if (banded && edge % patch.bands != 0)
        return badInput(name + " stages its input at " + str(p.maskWidth) + "x" + str(p.maskWidth) + " with blocks of " +
                        "N x N/" + str(patch.bands) + " threads, so the block edge must be even (got " + str(edge) +
                        "); use --block " + str(edge + 1));
    const int edgeY = banded ? edge / patch.bands : edge;

    long long threads = k.dims == 1 ? edge : static_cast<long long>(edge) * edgeY;
    if (threads > kMaxWhatIfThreads)
        return badInput("block " + (k.dims == 1 ? str(edge) : str(edge) + "x" + str(edgeY)) + " has " +
                        std::to_string(threads) + " threads; even --what-if stops at " + str(kMaxWhatIfThreads));

    std::string whatIf;
    if (threads > limits.maxThreadsPerBlock)
        whatIf = "a block of " + std::to_string(threads) + " threads is over the limit of " +
                 str(limits.maxThreadsPerBlock) + " threads per block";

    if (k.dims == 1) {
        plan.block = Dim3{static_cast<unsigned>(edge), 1, 1};
        if (k.tiles != TileShape::None) {
            if (id == KernelId::Conv1dTiled && r > edge)
                return badInput(name + ": the " + str(r) + " halo cells on each side are loaded by " + str(r) +
                                " threads of the block, but blockDim.x is " + str(edge) +
                                "; use --block " + str(r) + " or more");
            plan.inTile = id == KernelId::Conv1dTiled ? edge + 2 * r : edge;
            plan.outTile = edge;
        }
        plan.grid = Dim3{ceilDiv(p.width, edge), 1, 1};
    } else {
        plan.block = Dim3{static_cast<unsigned>(edge), static_cast<unsigned>(edgeY), 1};
        int out = edge;
        switch (k.tiles) {
        case TileShape::None:
            break;
        case TileShape::BlockIsTile:
            plan.inTile = plan.outTile = edge;
            break;
        case TileShape::BlockIsInputTile:
            out = edge - 2 * r;
            if (out <= 0) {
                const char* in = id == KernelId::Conv2dTiledPitched ? "BLOCK_WIDTH " : "IN_TILE_DIM ";
                const char* outName = id == KernelId::Conv2dTiledPitched ? "O_TILE_WIDTH" : "OUT_TILE_DIM";
                return badInput(name + ": " + in + str(edge) + " with radius " + str(r) + " leaves no output tile (" +
                                outName + " = " + str(edge) + " - 2*" + str(r) + " = " + str(out) +
                                "); use --block " + str(2 * r + 1) + " or more");
            }
            plan.inTile = edge;
            plan.outTile = out;
            break;
        case TileShape::BlockIsOutputTile:
            plan.inTile = edge + 2 * r;
            plan.outTile = edge;
            break;
        case TileShape::ThreadPatch: {
            // inTile is the footprint the block reads: through the caches, or
            // at the staged radii from the tiles it stages (patchStaging).
            out = patch.outputs * edge;
            plan.outTile = out;
            plan.inTile = out + 2 * r;
            const PatchStaging f = patchStaging(k, plan);
            plan.sharedBytes = static_cast<std::size_t>(f.bands) * f.tileWidth * f.tileHeight * sizeof(float);
            break;
        }
        }
        plan.grid = Dim3{ceilDiv(p.width, out), ceilDiv(p.height, out), 1};
    }

    if (k.usesShared && k.tiles != TileShape::ThreadPatch) {
        long long floats = k.dims == 1 ? plan.inTile : static_cast<long long>(plan.inTile) * plan.inTile;
        plan.sharedBytes = static_cast<std::size_t>(floats) * sizeof(float);
        if (plan.sharedBytes > limits.sharedPerBlockOptin && whatIf.empty())
            whatIf = "the tile needs " + std::to_string(plan.sharedBytes) + " bytes of shared memory, over the " +
                     std::to_string(limits.sharedPerBlockOptin) + " bytes a block can have";
    }
    if (k.tiles == TileShape::ThreadPatch && plan.sharedBytes > limits.sharedPerBlockOptin && whatIf.empty())
        whatIf = "the staged tiles need " + std::to_string(plan.sharedBytes) + " bytes of shared memory, over the " +
                 std::to_string(limits.sharedPerBlockOptin) + " bytes a block can have";

    if (!whatIf.empty()) {
        if (!allowWhatIf) return badInput(name + ": " + whatIf + " (add --what-if to run it on the CPU executor)");
        plan.whatIf = true;
        plan.whatIfReason = whatIf;
    }
    return plan;
}

}  // namespace tilescope
