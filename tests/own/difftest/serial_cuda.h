// serial_cuda.h -- just enough of CUDA for a barrier-free kernel file to
// compile as ordinary C++ (g++ -std=c++17 -O1 -ffp-contract=off) and run every
// thread of every block in turn, one after another. The differential test
// (run.py --mode cpu) compiles each generated kernel file against it and
// compares the result with TileScope's CPU execution, bit for bit.
//
// The file is force-included (-include serial_cuda.h) ahead of the kernel
// file; the kernel file's own #include <cuda_runtime.h> finds the empty
// stand-in beside this header (include/). run.py rewrites what C++ cannot
// parse before compiling:
//   k<<<g, b[, s[, stream]]>>>(args)  ->  ts_launch(k, g, b[, s[, stream]])(args)
//   (a template kernel's `k<float><<<...>>>` too: ts_launch(k<float>, ...))
//   (also the spaced forms `k << <g, b >> > (args)` and `k<<< g,b >>>`)
//   extern __shared__ float X[];      ->  float* const X = ts_dynamic_shared;
//   (every extern __shared__ array is the block's dynamic shared memory, as in CUDA)
//
// The rule that makes one array per kernel enough for __shared__: a
// barrier-free kernel's thread reads only the shared elements it wrote itself
// earlier in the same launch (the generator keeps to it). Running the threads
// one at a time, a `static` array per kernel then gives every thread the
// values it would see in its own block's array on a GPU. __syncthreads()
// aborts: a kernel that reaches one does not belong here.
//
// With -DTS_THREADS (run.py --mode threads) the blocks still run one after
// another, but each block's threads run at once, one OS thread each, and
// __syncthreads() is a real barrier among them: kernels with barriers run
// too, the static array being the running block's. threadIdx is then
// thread_local. A race-free kernel (the generator's phases: own slots
// written, barrier, any slot read, barrier, ...) gives one result whatever
// the threads' order.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define __global__
#define __device__
#define __host__
#define __constant__
#define __shared__ static
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)

// [SECTION] CUDA's vector types (vector_types.h) and their makers
// (vector_functions.h): char1 .. double4, plain structs of x, y, z, w.
#define TS_VECTOR_TYPES(T, name)                                                                          \
    struct name##1 {                                                                                      \
        T x;                                                                                              \
    };                                                                                                    \
    struct name##2 {                                                                                      \
        T x, y;                                                                                           \
    };                                                                                                    \
    struct name##3 {                                                                                      \
        T x, y, z;                                                                                        \
    };                                                                                                    \
    struct name##4 {                                                                                      \
        T x, y, z, w;                                                                                     \
    };                                                                                                    \
    inline name##1 make_##name##1(T x) { return name##1{x}; }                                             \
    inline name##2 make_##name##2(T x, T y) { return name##2{x, y}; }                                     \
    inline name##3 make_##name##3(T x, T y, T z) { return name##3{x, y, z}; }                             \
    inline name##4 make_##name##4(T x, T y, T z, T w) { return name##4{x, y, z, w}; }
TS_VECTOR_TYPES(signed char, char)
TS_VECTOR_TYPES(unsigned char, uchar)
TS_VECTOR_TYPES(short, short)
TS_VECTOR_TYPES(unsigned short, ushort)
TS_VECTOR_TYPES(int, int)
TS_VECTOR_TYPES(unsigned, uint)
TS_VECTOR_TYPES(long, long)
TS_VECTOR_TYPES(unsigned long, ulong)
TS_VECTOR_TYPES(long long, longlong)
TS_VECTOR_TYPES(unsigned long long, ulonglong)
TS_VECTOR_TYPES(float, float)
TS_VECTOR_TYPES(double, double)
#undef TS_VECTOR_TYPES

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
    dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};

inline uint3 blockIdx;
inline dim3 blockDim;
inline dim3 gridDim;

#ifdef TS_THREADS
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

inline thread_local uint3 threadIdx;

// The running block's barrier: the last of its threads to arrive releases the others.
struct ts_barrier {
    std::mutex mutex;
    std::condition_variable released;
    unsigned count = 0, waiting = 0, generation = 0;
    void wait() {
        std::unique_lock<std::mutex> lock(mutex);
        const unsigned mine = generation;
        if (++waiting == count) {
            waiting = 0;
            ++generation;
            released.notify_all();
        } else {
            released.wait(lock, [&] { return generation != mine; });
        }
    }
};
inline ts_barrier ts_block_barrier;

inline void __syncthreads() { ts_block_barrier.wait(); }
#else
inline uint3 threadIdx;

inline void __syncthreads() {
    std::fprintf(stderr, "serial_cuda.h: __syncthreads() reached: a kernel with barriers cannot run one thread "
                         "at a time (run.py --mode threads runs it)\n");
    std::abort();
}
#endif

// [SECTION] CUDA's overloads of the maths functions, as nvcc's headers give
// them to device code: floor(float), abs(float), fmin(float, float), ...
// return float (std's overloads, brought into the global namespace as
// CUDA's math_functions.h does); min and max exist for these pairs only
// (crt/math_functions.h), the float ones being fminf and fmaxf.
using std::abs;
using std::ceil;
using std::fabs;
using std::floor;
using std::fmax;
using std::fmin;
using std::round;
using std::sqrt;
using std::trunc;

// isnan, isinf, isfinite, signbit of a float, as CUDA declares them.
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;

// The single-precision intrinsics that are correctly rounded (round to
// nearest even): one IEEE operation each, as C++ computes it with
// -ffp-contract=off; __fmaf_rn is the fused multiply-add, rounded once.
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __frcp_rn(float a) { return 1.0f / a; }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }

inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned min(int a, unsigned b) { return min(static_cast<unsigned>(a), b); }
inline unsigned min(unsigned a, int b) { return min(a, static_cast<unsigned>(b)); }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline float min(float a, float b) { return fminf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double min(float a, double b) { return fmin(static_cast<double>(a), b); }
inline double min(double a, float b) { return fmin(a, static_cast<double>(b)); }

inline int max(int a, int b) { return a < b ? b : a; }
inline unsigned max(unsigned a, unsigned b) { return a < b ? b : a; }
inline unsigned max(int a, unsigned b) { return max(static_cast<unsigned>(a), b); }
inline unsigned max(unsigned a, int b) { return max(a, static_cast<unsigned>(b)); }
inline long long max(long long a, long long b) { return a < b ? b : a; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a < b ? b : a; }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
inline double max(float a, double b) { return fmax(static_cast<double>(a), b); }
inline double max(double a, float b) { return fmax(a, static_cast<double>(b)); }

// [SECTION] The runtime calls launch() may make.

enum cudaError_t { cudaSuccess = 0 };
enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};
typedef struct CUstream_st* cudaStream_t;

inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }
inline const char* cudaGetErrorString(cudaError_t) { return "no error"; }

// The mask into a __constant__ array: flat, from the array's first byte (plus offset).
template <class T>
inline cudaError_t cudaMemcpyToSymbol(T& symbol, const void* source, std::size_t bytes, std::size_t offset = 0,
                                      cudaMemcpyKind = cudaMemcpyHostToDevice) {
    if (offset + bytes > sizeof(T)) {
        std::fprintf(stderr, "serial_cuda.h: cudaMemcpyToSymbol of %zu bytes at %zu into a symbol of %zu\n", bytes,
                     offset, sizeof(T));
        std::abort();
    }
    std::memcpy(reinterpret_cast<char*>(&symbol) + offset, source, bytes);
    return cudaSuccess;
}

// [SECTION] The launch: every block in order, and in each block every thread
// in order (x fastest), each one call of the kernel.

inline std::size_t ts_dynamic_shared_bytes = 0;
inline float ts_dynamic_shared[48 * 1024 / sizeof(float)];  // the launch's third value, at most 48 KB

template <class... Params>
struct ts_launcher {
    void (*kernel)(Params...);
    dim3 grid, block;

    template <class... Args>
    void operator()(Args... args) const {
        static_assert(sizeof...(Args) == sizeof...(Params), "the launch passes a different number of arguments");
        gridDim = grid;
        blockDim = block;
#ifdef TS_THREADS
        for (unsigned bz = 0; bz < grid.z; ++bz)
            for (unsigned by = 0; by < grid.y; ++by)
                for (unsigned bx = 0; bx < grid.x; ++bx) {
                    blockIdx = uint3{bx, by, bz};
                    ts_block_barrier.count = block.x * block.y * block.z;
                    std::vector<std::thread> threads;
                    for (unsigned tz = 0; tz < block.z; ++tz)
                        for (unsigned ty = 0; ty < block.y; ++ty)
                            for (unsigned tx = 0; tx < block.x; ++tx)
                                threads.emplace_back([=] {
                                    threadIdx = uint3{tx, ty, tz};
                                    kernel(args...);
                                });
                    for (std::thread& t : threads) t.join();
                }
        return;
#endif
        for (unsigned bz = 0; bz < grid.z; ++bz)
            for (unsigned by = 0; by < grid.y; ++by)
                for (unsigned bx = 0; bx < grid.x; ++bx)
                    for (unsigned tz = 0; tz < block.z; ++tz)
                        for (unsigned ty = 0; ty < block.y; ++ty)
                            for (unsigned tx = 0; tx < block.x; ++tx) {
                                blockIdx = uint3{bx, by, bz};
                                threadIdx = uint3{tx, ty, tz};
                                kernel(args...);  // each argument converts as in a call
                            }
    }
};

template <class... Params>
ts_launcher<Params...> ts_launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t dynamicShared = 0,
                                 cudaStream_t = nullptr) {
    ts_dynamic_shared_bytes = dynamicShared;
    return ts_launcher<Params...>{kernel, grid, block};
}
// `<<<g, b, bytes, 0>>>`: a literal 0 as the stream.
template <class... Params>
ts_launcher<Params...> ts_launch(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t dynamicShared,
                                 int) {
    return ts_launch(kernel, grid, block, dynamicShared, nullptr);
}
