// A kernel that faults on purpose, for the tests of what TileScope does when
// the GPU fails: it stores through a null pointer, an illegal address, which
// costs the process its CUDA context (a "sticky" error).
#include <cuda_runtime.h>

#include "gpu_fault.hpp"

namespace tilescope::test {

namespace {
__global__ void storeThroughNull(float* p) {
    p[threadIdx.x] = 1.0f;
}
}  // namespace

int faultTheGpu() {
    storeThroughNull<<<1, 32>>>(nullptr);
    return static_cast<int>(cudaDeviceSynchronize());
}

}  // namespace tilescope::test
