// The four arrays of a convolution launch, by the id every kernel names them
// with; each kernel's catalogue entry says what the array is called in its
// source ("N", "F_c", "N_s", ...), and the trace where it lives. Shared by
// host and device code (a student's kernel is compiled with it, own/).
#pragma once

#include <cstdint>

namespace tilescope {

enum ArrayId : std::uint8_t {
    kArrayInput = 0,   // N, the input
    kArrayMask = 1,    // M or F, the convolution mask (global or constant memory)
    kArrayOutput = 2,  // P, the output
    kArrayShared = 3,  // the block's tile in shared memory (N_ds, N_s, Ns)
    kArrayNone = 0xff, // multiply-adds and barriers touch no array
};
constexpr int kArrayCount = 4;

}  // namespace tilescope
