// What one CUDA thread did in one step of a trace: a load, a store, a
// multiply-add, a barrier, or an access outside its array. Shared by host and
// device code (a student's kernel is compiled with it, own/).
#pragma once

#include <cstdint>

namespace tilescope {

enum class Op : std::uint8_t {
    Load = 0,      // a read of one array element
    Store = 1,     // a write of one array element
    MultiplyAdd = 2,  // `Pvalue += a * b`: 2 FLOPs
    Barrier = 3,   // __syncthreads()
    // An access outside its array, recorded instead of made (the problem
    // detector names it): `index` is where it pointed, `array` the array it
    // went through; a load outside gives 0, a store outside goes nowhere.
    LoadOutside = 4,
    StoreOutside = 5,
};
constexpr int kOpCount = 6;
inline bool isLoad(Op op) { return op == Op::Load || op == Op::LoadOutside; }
inline bool isStore(Op op) { return op == Op::Store || op == Op::StoreOutside; }
inline bool isOutside(Op op) { return op == Op::LoadOutside || op == Op::StoreOutside; }

}  // namespace tilescope
