// Where an array lives on the GPU. The trace records it for each array, the
// catalogue for each kernel's mask, and the views colour by it. Shared by
// host and device code (a student's kernel is compiled with it, own/).
#pragma once

#include <cstdint>

namespace tilescope {

enum class Space : std::uint8_t { Global = 0, Shared = 1, Constant = 2, Register = 3 };

}  // namespace tilescope
