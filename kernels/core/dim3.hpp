// Grid and block shapes on the host side (CUDA's dim3, without needing CUDA).
#pragma once

namespace tilescope {

struct Dim3 {
    unsigned x = 1, y = 1, z = 1;
    constexpr unsigned count() const { return x * y * z; }
    friend constexpr bool operator==(const Dim3&, const Dim3&) = default;
};

}  // namespace tilescope
