// The benchmark behind `tilescope bench`: the plain kernels (cuda_plain.cu)
// timed on the GPU as docs/performance.md ("How it was measured") describes:
//   - random input and mask (never zeros, which can run faster and hide
//     unwritten outputs), made on the GPU from a hash of each element's index
//     so that the host can recompute any input element for the check;
//   - one launch checked against a double-precision reference at sampled
//     outputs, after the output was poisoned with NaN;
//   - warm-up launches, then many launches each between its own pair of CUDA
//     events, and the median; the repetitions fill about
//     BenchOptions::millisPerCase of GPU time;
//   - inputs and outputs rotated among several buffers that together exceed
//     the L2 cache, so no launch reads what the previous one left in L2.
// The kernels are FP32 (FFMA): no tensor cores, so no TF32, are involved.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "core/kernel_catalogue.hpp"
#include "exec/backends.hpp"
#include "exec/cuda_support.hpp"

namespace tilescope::cuda {

namespace {

// A value in [-1, 1) from an element's index: the same on host and device
// (integer arithmetic, then an exact conversion of a 24-bit integer).
__host__ __device__ inline float inputValue(std::uint32_t index, std::uint32_t seed) {
    std::uint32_t x = index * 0x9E3779B9u ^ (seed * 0x85EBCA6Bu + 0x165667B1u);
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return static_cast<float>(x >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

__global__ void fillInput(float* data, std::size_t count, std::uint32_t seed) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        data[i] = inputValue(static_cast<std::uint32_t>(i), seed);
}

__global__ void gather(const float* data, const int* indices, int count, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = data[indices[i]];
}

// FP32 FMA units per SM, by compute capability (CUDA C Programming Guide,
// "Arithmetic Instructions"): 64 on Volta, Turing and A100, 128 from GA10x on,
// Hopper (9.0) and Blackwell included.
int fp32Lanes(int major, int minor) {
    if (major < 8)
        return 64;
    if (major == 8 && minor == 0)
        return 64;
    return 128;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

class Events {
public:
    Events() = default;
    ~Events() {
        for (cudaEvent_t e : m_events)
            cudaEventDestroy(e);
    }
    Events(const Events&) = delete;
    Events& operator=(const Events&) = delete;
    cudaError_t create(std::size_t count) {
        m_events.reserve(count);
        for (std::size_t i = 0; i < count; ++i) {
            cudaEvent_t e{};
            cudaError_t s = cudaEventCreate(&e);
            if (s != cudaSuccess)
                return s;
            m_events.push_back(e);
        }
        return cudaSuccess;
    }
    cudaEvent_t operator[](std::size_t i) const { return m_events[i]; }

private:
    std::vector<cudaEvent_t> m_events;
};

// How many input/output pairs to rotate among.
int bufferCount(std::size_t bytesPerPair, const BenchOptions& o) {
    std::size_t target = o.rotationBytes;
    if (target == 0)
        target = 4 * std::max<std::size_t>(gpuInfo().limits.l2Bytes, 1 << 20);
    std::size_t n = (target + bytesPerPair - 1) / std::max<std::size_t>(bytesPerPair, 1);
    n = std::clamp<std::size_t>(n, 2, 64);
    // Stay well inside the GPU's memory.
    std::size_t freeBytes = 0, totalBytes = 0;
    if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess && bytesPerPair > 0)
        n = std::min<std::size_t>(n, std::max<std::size_t>(1, freeBytes / 2 / bytesPerPair));
    return static_cast<int>(std::max<std::size_t>(n, 1));
}

// Times `launch(i)` (which enqueues the i-th launch, rotating buffers) with
// warm-up, adaptive repetitions and the median.
template <class Launch>
Result<BenchTiming> timeLaunches(const BenchOptions& o, int buffers, Launch&& launch) {
    BenchTiming t;
    t.buffers = buffers;
    int call = 0;
    const int warmup = std::max(1, o.warmup);
    Events probe;
    TS_CUDA_TRY(probe.create(2));
    float probeMs = 0.0f;
    for (int i = 0; i < warmup; ++i) {
        TS_CUDA_TRY(cudaEventRecord(probe[0]));
        TS_CUDA_TRY(launch(call++ % buffers));
        TS_CUDA_TRY(cudaEventRecord(probe[1]));
        TS_CUDA_TRY(cudaEventSynchronize(probe[1]));
        TS_CUDA_TRY(cudaEventElapsedTime(&probeMs, probe[0], probe[1]));
    }
    const double estimate = std::max(1e-3, static_cast<double>(probeMs));
    t.repeats = static_cast<int>(std::clamp(o.millisPerCase / estimate, static_cast<double>(o.minRepeats),
                                            static_cast<double>(std::max(o.minRepeats, o.maxRepeats))));
    Events events;
    TS_CUDA_TRY(events.create(2 * static_cast<std::size_t>(t.repeats)));
    for (int i = 0; i < t.repeats; ++i) {
        TS_CUDA_TRY(cudaEventRecord(events[2 * i]));
        TS_CUDA_TRY(launch(call++ % buffers));
        TS_CUDA_TRY(cudaEventRecord(events[2 * i + 1]));
    }
    TS_CUDA_TRY(cudaDeviceSynchronize());
    std::vector<double> ms(t.repeats);
    for (int i = 0; i < t.repeats; ++i) {
        float m = 0.0f;
        TS_CUDA_TRY(cudaEventElapsedTime(&m, events[2 * i], events[2 * i + 1]));
        ms[i] = m;
    }
    t.medianMs = median(ms);
    t.minMs = *std::min_element(ms.begin(), ms.end());
    t.maxMs = *std::max_element(ms.begin(), ms.end());
    return t;
}

Status fill(float* data, std::size_t count, std::uint32_t seed) {
    fillInput<<<1024, 256>>>(data, count, seed);
    TS_CUDA_TRY(cudaGetLastError());
    return success();
}

}  // namespace

Result<BenchDevice> benchDevice() {
    if (!gpuInfo().available)
        return Error{ExitCode::BackendUnavailable, gpuInfo().reason};
    int device = 0;
    TS_CUDA_TRY(cudaGetDevice(&device));
    BenchDevice d;
    d.name = gpuInfo().limits.name;
    d.l2Bytes = gpuInfo().limits.l2Bytes;
    TS_CUDA_TRY(cudaDeviceGetAttribute(&d.smCount, cudaDevAttrMultiProcessorCount, device));
    TS_CUDA_TRY(cudaDeviceGetAttribute(&d.ccMajor, cudaDevAttrComputeCapabilityMajor, device));
    TS_CUDA_TRY(cudaDeviceGetAttribute(&d.ccMinor, cudaDevAttrComputeCapabilityMinor, device));
    TS_CUDA_TRY(cudaDeviceGetAttribute(&d.clockKHz, cudaDevAttrClockRate, device));
    d.fp32LanesPerSm = fp32Lanes(d.ccMajor, d.ccMinor);
    TS_CUDA_TRY(cudaDriverGetVersion(&d.driverVersion));
    TS_CUDA_TRY(cudaRuntimeGetVersion(&d.runtimeVersion));
    return d;
}

Result<BenchTiming> benchCopy(std::size_t bytes, const BenchOptions& o) {
    if (!gpuInfo().available)
        return Error{ExitCode::BackendUnavailable, gpuInfo().reason};
    const std::size_t count = std::max<std::size_t>(bytes / sizeof(float), 1);
    const int buffers = bufferCount(2 * count * sizeof(float), o);
    std::vector<std::unique_ptr<DeviceBuffer<float>>> src, dst;
    for (int b = 0; b < buffers; ++b) {
        src.push_back(std::make_unique<DeviceBuffer<float>>());
        dst.push_back(std::make_unique<DeviceBuffer<float>>());
        TS_CUDA_TRY(src.back()->allocate(count));
        TS_CUDA_TRY(dst.back()->allocate(count));
        if (Status s = fill(src.back()->get(), count, 1000 + b); !s)
            return s.error();
    }
    return timeLaunches(o, buffers, [&](int b) {
        return cudaMemcpyAsync(dst[b]->get(), src[b]->get(), count * sizeof(float), cudaMemcpyDeviceToDevice);
    });
}

Result<BenchTiming> benchKernel(const LaunchPlan& plan, const BenchOptions& o) {
    if (!gpuInfo().available)
        return Error{ExitCode::BackendUnavailable, gpuInfo().reason};
    if (plan.whatIf)
        return badInput("a what-if configuration cannot run on the GPU: " + plan.whatIfReason);
    const KernelInfo& k = kernelOf(plan);
    const int r = plan.radius, w = plan.maskWidth;
    const std::size_t elements = static_cast<std::size_t>(plan.pitch) * plan.height * std::max(1, plan.channels);
    if (elements > static_cast<std::size_t>(INT32_MAX))
        return badInput("the image is too large for int indices");
    const int size = static_cast<int>(elements);

    // The mask: random values in [-1, 1), in constant memory and in a buffer.
    std::mt19937 random(12345u + static_cast<unsigned>(w));
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> mask(k.dims == 1 ? w : w * w);
    for (float& m : mask)
        m = value(random);
    DeviceBuffer<float> deviceMask;
    TS_CUDA_TRY(deviceMask.allocate(mask.size()));
    TS_CUDA_TRY(deviceMask.upload(mask.data(), mask.size()));
    TS_CUDA_TRY(uploadPlainMask(plan, mask.data()));

    const int buffers = bufferCount(2 * elements * sizeof(float), o);
    std::vector<std::unique_ptr<DeviceBuffer<float>>> N, P;
    for (int b = 0; b < buffers; ++b) {
        N.push_back(std::make_unique<DeviceBuffer<float>>());
        P.push_back(std::make_unique<DeviceBuffer<float>>());
        TS_CUDA_TRY(N.back()->allocate(elements));
        TS_CUDA_TRY(P.back()->allocate(elements));
        if (Status s = fill(N.back()->get(), elements, static_cast<std::uint32_t>(b)); !s)
            return s.error();
        TS_CUDA_TRY(cudaMemset(P.back()->get(), 0, elements * sizeof(float)));
    }
    auto arrays = [&](int b) {
        return DeviceArrays{N[b]->get(), size, deviceMask.get(), static_cast<int>(mask.size()), P[b]->get(), size};
    };

    // The check: one launch on pair 0, its output first poisoned with NaN
    // (all bits set), then sampled outputs against the reference.
    TS_CUDA_TRY(cudaMemset(P[0]->get(), 0xFF, elements * sizeof(float)));
    TS_CUDA_TRY(launchPlain(plan, arrays(0)));
    TS_CUDA_TRY(cudaDeviceSynchronize());
    const int channels = std::max(1, plan.channels);
    std::vector<int> xs, ys, cs;
    auto sample = [&](int x, int y, int c) {
        xs.push_back(std::clamp(x, 0, plan.width - 1));
        ys.push_back(std::clamp(y, 0, plan.height - 1));
        cs.push_back(c % channels);
    };
    for (int y : {0, plan.height / 2, plan.height - 1})
        for (int x : {0, 1, plan.width / 2, plan.width - 2, plan.width - 1})
            sample(x, y, 0);
    std::uniform_int_distribution<int> pickX(0, plan.width - 1), pickY(0, plan.height - 1), pickC(0, channels - 1);
    for (int i = 0; i < 2048; ++i)
        sample(pickX(random), pickY(random), pickC(random));
    std::vector<int> indices(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i)
        indices[i] = ys[i] * plan.pitch + xs[i] * channels + cs[i];
    DeviceBuffer<int> deviceIndices;
    DeviceBuffer<float> gathered;
    TS_CUDA_TRY(deviceIndices.allocate(indices.size()));
    TS_CUDA_TRY(gathered.allocate(indices.size()));
    TS_CUDA_TRY(deviceIndices.upload(indices.data(), indices.size()));
    const int count = static_cast<int>(indices.size());
    gather<<<(count + 255) / 256, 256>>>(P[0]->get(), deviceIndices.get(), count, gathered.get());
    TS_CUDA_TRY(cudaGetLastError());
    std::vector<float> out(indices.size());
    TS_CUDA_TRY(gathered.download(out.data(), out.size()));

    BenchTiming check;
    const int taps = static_cast<int>(mask.size());
    const double tolerance = (taps + 2.0) * 0x1p-23;
    const int rows = k.dims == 1 ? 1 : w;
    const int ry = k.dims == 1 ? 0 : r;
    for (std::size_t i = 0; i < indices.size(); ++i) {
        double sum = 0.0, bound = 0.0;
        for (int fy = 0; fy < rows; ++fy)
            for (int fx = 0; fx < w; ++fx) {
                const int x = xs[i] - r + fx, y = ys[i] - ry + fy;
                if (x < 0 || x >= plan.width || y < 0 || y >= plan.height)
                    continue;
                const double n = inputValue(static_cast<std::uint32_t>(y * plan.pitch + x * channels + cs[i]), 0);
                const double m = mask[static_cast<std::size_t>(fy) * w + fx];
                sum += m * n;
                bound += std::fabs(m * n);
            }
        const double error = std::fabs(out[i] - sum) / std::max(bound, 1e-30);
        if (!(error <= tolerance))
            check.correct = false;  // NaN (unwritten) fails too
        if (std::isnan(error))
            check.maxError = INFINITY;
        else
            check.maxError = std::max(check.maxError, error);
    }
    check.checked = count;

    auto timing = timeLaunches(o, buffers, [&](int b) { return launchPlain(plan, arrays(b)); });
    if (!timing)
        return timing.error();
    timing->checked = check.checked;
    timing->maxError = check.maxError;
    timing->correct = check.correct;
    return timing;
}

}  // namespace tilescope::cuda
