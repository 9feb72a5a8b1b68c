// The CUDA entry points of a build without CUDA: there is no GPU to ask, and
// every request for one says so.
#include "exec/backends.hpp"

namespace tilescope::cuda {

GpuInfo gpuInfo() {
#if defined(__EMSCRIPTEN__)
    return GpuInfo{false, "this is TileScope in a web browser, which cannot reach a GPU through CUDA: every launch runs "
                          "on the CPU executor (the desktop app runs the real kernels on an NVIDIA GPU)",
                   {}};
#else
    return GpuInfo{false, "TileScope was built without CUDA (no CUDA compiler was found)", {}};
#endif
}

Result<double> executePlain(const LaunchPlan&, const HostArrays&, const BarrierDrop&) {
    return Error{ExitCode::BackendUnavailable, gpuInfo().reason};
}

Result<InstrumentedRun> executeInstrumented(const LaunchPlan&, const HostArrays&, const TraceOptions&) {
    return Error{ExitCode::BackendUnavailable, gpuInfo().reason};
}

Result<BenchDevice> benchDevice() { return Error{ExitCode::BackendUnavailable, gpuInfo().reason}; }

Result<BenchTiming> benchCopy(std::size_t, const BenchOptions&) {
    return Error{ExitCode::BackendUnavailable, gpuInfo().reason};
}

Result<BenchTiming> benchKernel(const LaunchPlan&, const BenchOptions&) {
    return Error{ExitCode::BackendUnavailable, gpuInfo().reason};
}

}  // namespace tilescope::cuda
