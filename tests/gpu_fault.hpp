// What the GPU failure tests do to the GPU (gpu_fault.cu, built with CUDA).
#pragma once

namespace tilescope::test {

// Launches a kernel that stores through a null pointer and waits for it;
// returns the cudaError_t of the wait (cudaErrorIllegalAddress).
int faultTheGpu();

}  // namespace tilescope::test
