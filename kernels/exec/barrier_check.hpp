// A barrier drop (--drop-barrier, the Source panel's check boxes) checked
// against the kernel's source before anything runs: every line named must
// hold a __syncthreads().
#pragma once

#include <vector>

#include "core/barrier_drop.hpp"
#include "core/kernel_info.hpp"
#include "core/result.hpp"

namespace tilescope {

// Checks a barrier drop against the kernel's source: every line named must
// hold a __syncthreads().
Status checkBarrierDrop(const KernelInfo& kernel, const BarrierDrop& drop);
// The lines of the kernel's source that hold a __syncthreads().
std::vector<unsigned> barrierLines(const KernelInfo& kernel);

}  // namespace tilescope
