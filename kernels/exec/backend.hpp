// Which execution runs a launch (the CPU executor or CUDA), and whether the
// GPU is there to take one: the choice every run makes, built-in kernel or a
// student's.
#pragma once

#include <string>

#include "core/device_limits.hpp"

namespace tilescope {

enum class Backend { Auto, Cpu, Cuda };

const char* backendName(Backend b);

// The limits the plan is checked against: the GPU's when there is one.
DeviceLimits currentLimits();
// Whether the CUDA backend can run, and if not, why.
bool gpuAvailable(std::string* reason = nullptr, std::string* name = nullptr);

}  // namespace tilescope
