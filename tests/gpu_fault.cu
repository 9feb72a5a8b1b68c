// A kernel that faults on purpose, for the tests of what TileScope does when
// the GPU fails: the library's own (cuda_support.hpp), which stores through a
// null pointer, an illegal address that costs the process its CUDA context (a
// "sticky" error).
#include <cuda_runtime.h>

#include "exec/cuda_support.hpp"
#include "gpu_fault.hpp"

namespace tilescope::test {

int faultTheGpu() {
    cuda::launchFaultingKernel();
    return static_cast<int>(cudaDeviceSynchronize());
}

}  // namespace tilescope::test
