#include "request/self_check.hpp"

#include <chrono>
#include <cstdio>

#include "request/request.hpp"
#include "trace/problems.hpp"

namespace tilescope::request {

namespace {

constexpr const char* kFileName = "self_check.cu";

// Shared memory, a barrier, ghost cells, the mask in constant memory and a
// launch of its own: the constructs a class's kernels use.
constexpr const char* kKernel = R"cu(// The self-check's kernel: a tiled 2D convolution (PMPP Figure 7.12's
// strategy), the block the output tile, the halo loaded by the same threads.
#include <cuda_runtime.h>

#define TILE 8
#define MAX_R 3

__constant__ float Mc[(2 * MAX_R + 1) * (2 * MAX_R + 1)];

__global__ void self_check_tiled(const float* N, float* P, int r, int width, int height)
{
    __shared__ float N_s[TILE + 2 * MAX_R][TILE + 2 * MAX_R];
    int col = blockIdx.x * TILE + threadIdx.x;
    int row = blockIdx.y * TILE + threadIdx.y;
    int side = TILE + 2 * r;
    for (int y = threadIdx.y; y < side; y += TILE) {
        for (int x = threadIdx.x; x < side; x += TILE) {
            int inRow = blockIdx.y * TILE + y - r;
            int inCol = blockIdx.x * TILE + x - r;
            bool inside = inRow >= 0 && inRow < height && inCol >= 0 && inCol < width;
            N_s[y][x] = inside ? N[inRow * width + inCol] : 0.0f;
        }
    }
    __syncthreads();  // the tile and its halo are loaded before any thread reads them
    if (row < height && col < width) {
        float Pvalue = 0.0f;
        for (int i = 0; i <= 2 * r; i++)
            for (int j = 0; j <= 2 * r; j++)
                Pvalue += Mc[i * (2 * r + 1) + j] * N_s[threadIdx.y + i][threadIdx.x + j];
        P[row * width + col] = Pvalue;
    }
}

void launch(const float* N, const float* M, float* P, int r, int width, int height)
{
    cudaMemcpyToSymbol(Mc, M, (2 * r + 1) * (2 * r + 1) * sizeof(float));
    dim3 block(TILE, TILE);
    dim3 grid((width + TILE - 1) / TILE, (height + TILE - 1) / TILE);
    self_check_tiled<<<grid, block>>>(N, P, r, width, height);
}
)cu";

Error failed(const std::string& step, const std::string& why) {
    return Error{ExitCode::BackendUnavailable,
                 "self-check failed: a right kernel file (built in) " + step + ": " + why};
}

}  // namespace

const char* selfCheckKernel() {
    return kKernel;
}

Status selfCheck(const SelfCheckOptions& options, std::string* said) {
    const auto started = std::chrono::steady_clock::now();
    KernelOptions o;
    o.kernelFile = kFileName;
    o.kernelText = kKernel;
    o.size = "21x13";  // several blocks, a partial one at each far edge
    o.radius = 2;
    o.backend = "cpu";
    o.timeLimit = options.timeLimitSeconds;
    o.compile.timeLimitSeconds = options.compileLimitSeconds;
    o.compile.sandbox = options.sandbox;
    Loaded loaded;
    if (Status s = load(o, loaded); !s) {
        const own::Diagnostic& d = loaded.diagnostic;
        return failed(loaded.own ? "could not be set up" : "was refused or did not compile",
                      d.line > 0 ? d.text() : s.error().message);
    }
    auto runOn = [&](Backend backend, const char* where) -> Status {
        loaded.request.backend = backend;
        loaded.request.check = true;
        loaded.printout = {};
        auto result = runKernel(loaded.request);
        if (!result)
            return failed(std::string("did not run ") + where, result.error().message);
        if (backend == Backend::Cuda && result->backend != Backend::Cuda)
            return failed(std::string("did not run ") + where, result->backendReason);
        if (!result->problems)
            return failed(std::string("ran ") + where + " but gave no trace", "the run returned no problems");
        if (!result->problems->clean())
            return failed(std::string("ran ") + where + " with problems it does not have", result->problems->summary());
        return success();
    };
    if (Status s = runOn(Backend::Cpu, "on the CPU"); !s)
        return s;
    if (options.cuda)
        if (Status s = runOn(Backend::Cuda, "on the GPU"); !s)
            return s;
    if (said) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        char text[256];
        std::snprintf(text, sizeof text,
                      "self-check: a right kernel file translated, compiled and ran clean (%s) in %.1f s",
                      options.cuda ? "on the CPU and the GPU" : "on the CPU", seconds);
        *said = text;
    }
    return success();
}

}  // namespace tilescope::request
