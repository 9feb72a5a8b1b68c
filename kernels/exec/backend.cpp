#include "exec/backend.hpp"

#include "exec/backends.hpp"

namespace tilescope {

const char* backendName(Backend b) {
    switch (b) {
    case Backend::Auto: return "auto";
    case Backend::Cpu: return "cpu";
    case Backend::Cuda: return "cuda";
    }
    return "?";
}

bool gpuAvailable(std::string* reason, std::string* name) {
    const cuda::GpuInfo gpu = cuda::gpuInfo();
    if (reason) *reason = gpu.reason;
    if (name) *name = gpu.limits.name;
    return gpu.available;
}

DeviceLimits currentLimits() {
    const cuda::GpuInfo gpu = cuda::gpuInfo();
    return gpu.available ? gpu.limits : DeviceLimits{};
}

}  // namespace tilescope
