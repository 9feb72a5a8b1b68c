// The kernel language of the plain CUDA build: every name a kernel uses is
// the raw CUDA thing, so the kernels compile to exactly what the book's
// listings would (with their errata corrected). Compare traced_types.hpp,
// where the same names record what each thread does.
#pragma once

#define TS_KERNEL __global__
// A helper function that kernels call (the traced builds define it for themselves).
#define TS_FN __device__ __forceinline__

namespace tilescope::plain {

// Global<const float> N  is  const float* N;  Global<float> P  is  float* P.
template <class T>
using Global = T*;
// The book's `const float * __restrict__ M`: read-only and not aliased, so the
// compiler may load it through the read-only data cache.
template <class T>
using Restrict = const T* __restrict__;
// A constant-memory array declared as ConstantArray<float[15][15]> is float[15][15],
// placed at a multiple of 16 bytes in the constant bank. conv2d_fast reads
// F_c[fRow][fCol] with an fRow known only at run time in its row loop: with
// F_c at a multiple of 8 bytes the compiler reads those values into the
// warp's uniform registers, as it does those at a constant address; where
// F_c fell after M, 4 bytes off a multiple of 8, it read them into ordinary
// registers instead, and the 15x15 kernel took 103 registers a thread, not 64.
template <class T>
struct AlignedConstant {
    typedef T type __attribute__((aligned(16)));
};
template <class T>
using ConstantArray = typename AlignedConstant<T>::type;
using Accumulator = float;

// All shared arrays of a kernel live in the launch's dynamic shared memory,
// whose size the launcher computes from the tile size.
extern __shared__ __align__(16) float dynamicShared[];  // 16-byte aligned for load4 and copyAsync4

template <class T>
class SharedArray {
public:
    __device__ explicit SharedArray(int) : m_data(dynamicShared) {}
    __device__ T& operator[](int i) const { return m_data[i]; }

private:
    T* m_data;
};

template <class T>
class SharedArray2D {
public:
    __device__ SharedArray2D(int, int cols) : m_data(dynamicShared), m_cols(cols) {}
    __device__ T* operator[](int row) const { return m_data + row * m_cols; }

private:
    T* m_data;
    int m_cols;
};

// Four neighbouring floats moved by one 16-byte instruction (LDG.E.128 and
// STG.E.128 in the machine code) instead of four 4-byte ones: a quarter of the
// memory instructions, and a warp asks for 512 contiguous bytes at once. `i`
// must be a multiple of 4 so that the address is 16-byte aligned (cudaMalloc
// returns 256-byte aligned memory). The traced builds record the same access
// as four loads or stores of single elements (traced_types.hpp).
//
// The load goes through the read-only data cache (as __ldg does), and from
// compute capability 8.0 on it also asks L2 to fetch the whole 256-byte
// block around the address from DRAM (the .L2::256B prefetch-size hint of
// ld.global): fewer, larger DRAM requests for rows that neighbouring threads
// and blocks read anyway. On an H100 that made conv2d_fast up to 1.6% faster
// at the blocks its launcher picks (docs/performance.md); the values loaded
// are the same.
using Float4 = float4;
__device__ __forceinline__ Float4 load4(Global<const float> a, int i) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    Float4 v;
    asm("ld.global.nc.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
        : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
        : "l"(a + i));
    return v;
#else
    return __ldg(reinterpret_cast<const float4*>(a + i));  // through the read-only data cache
#endif
}
__device__ __forceinline__ void store4(Global<float> a, int i, Float4 v) { *reinterpret_cast<float4*>(a + i) = v; }
// The same 16-byte load from shared memory (LDS.128): `i` a multiple of 4,
// and the launch's dynamic shared memory starts 16-byte aligned.
__device__ __forceinline__ Float4 load4(const SharedArray<float>& a, int i) {
    return *reinterpret_cast<const float4*>(&a[i]);
}

// Asynchronous copies from global to shared memory (cp.async, compute
// capability 8.0 and up): copyAsync4(N_s, s, N, i, inside) copies N[i..i+3]
// into N_s[s..s+3] without passing through a register, and the thread goes
// on at once; where `inside` is false it writes four zeros instead and reads
// nothing (the copy's ignore-src operand). copyAsync copies one float. The
// copies a thread issued since its last commitCopies() form a group;
// waitCopies<n>() waits until at most n of its groups are still in flight.
// Like any store to shared memory, the copied values are for the other
// threads of the block only after a __syncthreads().
// The traced builds make the same copies at once, as loads and stores
// (traced_types.hpp), and waitCopies does nothing there.
__device__ __forceinline__ unsigned sharedAddress(const float& element) {
    return static_cast<unsigned>(__cvta_generic_to_shared(&element));
}
__device__ __forceinline__ void copyAsync4(const SharedArray<float>& dst, int s, Global<const float> src, int i,
                                           bool inside) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "{ .reg .pred outside; setp.eq.u32 outside, %2, 0;"
        " cp.async.cg.shared.global.L2::256B [%0], [%1], 16, outside; }" ::"r"(sharedAddress(dst[s])),
        "l"(src + i), "r"(static_cast<unsigned>(inside))
        : "memory");
#else
    *reinterpret_cast<float4*>(&dst[s]) = inside ? __ldg(reinterpret_cast<const float4*>(src + i)) : float4{};
#endif
}
__device__ __forceinline__ void copyAsync(const SharedArray<float>& dst, int s, Global<const float> src, int i,
                                          bool inside) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "{ .reg .pred outside; setp.eq.u32 outside, %2, 0;"
        " cp.async.ca.shared.global [%0], [%1], 4, outside; }" ::"r"(sharedAddress(dst[s])),
        "l"(src + i), "r"(static_cast<unsigned>(inside))
        : "memory");
#else
    dst[s] = inside ? __ldg(src + i) : 0.0f;
#endif
}
__device__ __forceinline__ void commitCopies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
template <int n>
__device__ __forceinline__ void waitCopies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(n) : "memory");
#endif
}

}  // namespace tilescope::plain

// `TS_UNROLL for (...)`: unroll the loop completely. With every trip count a
// compile-time constant, each index into a small array becomes a constant, so
// the array lives in registers and each mask element F_c[i][j] becomes an
// operand of the multiply-add instruction itself. The traced builds keep such
// loops rolled (traced_types.hpp): unrolled, their recording code would grow
// with every iteration.
#define TS_UNROLL _Pragma("unroll")
// `TS_KEEP_LOOP for (...)`: keep this loop a loop, even where its trip count
// is a small constant that the compiler would unroll on its own (a kernel
// uses it where unrolled code would grow too large for the instruction cache).
#define TS_KEEP_LOOP _Pragma("unroll 1")
// `TS_UNROLL_BY(n) for (...)`: unroll the loop n trips at a time (its trip
// count known only at run time).
#define TS_PRAGMA(text) _Pragma(#text)
#define TS_UNROLL_BY(n) TS_PRAGMA(unroll n)
// `TS_KERNEL void TS_MAX_REGISTERS(n) kernel(...)`: at most n registers a
// thread (__maxnreg__), so that more warps fit on an SM; the traced builds
// leave the choice to their compiler.
#define TS_MAX_REGISTERS(n) __maxnreg__(n)
