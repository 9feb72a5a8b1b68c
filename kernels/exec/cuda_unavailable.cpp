// The CUDA entry points of a build without CUDA: there is no GPU to ask, and
// every request for one says so.
#include "exec/backends.hpp"

namespace tilescope::cuda {

GpuInfo gpuInfo() {
    return GpuInfo{false, "TileScope was built without CUDA (no CUDA compiler was found)", {}};
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
