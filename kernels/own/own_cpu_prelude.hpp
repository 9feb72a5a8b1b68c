// The start of every student's file as the CPU executor compiles it. The
// translator (translate.cpp) turns the student's CUDA into the traced kernel
// language (Global<...>, SharedArray2D, ConstantArray, Accumulator) and puts
// it after this header, inside namespace tilescope::own_user, with a #line
// directive so that every recorded line and every compiler message is a line
// of the student's file. What remains of CUDA there is defined here:
// threadIdx and friends, __syncthreads(), dim3, the CUDA calls launch() may
// make, and the kernel launch itself.
#pragma once

#define TS_FN inline
#include "exec/traced_types.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <type_traits>

#include "exec/cpu_runtime.hpp"
#include "own/own_runtime.hpp"

#define __global__
#define __constant__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __syncthreads() ::tilescope::cpu::syncthreads(__LINE__)

namespace tilescope::own_user {

using Recorder = cpu::CpuRecorder;
#include "exec/traced_language.inl"

using cpu::blockDim;
using cpu::blockIdx;
using cpu::gridDim;
using cpu::threadIdx;

// CUDA's uint3, the type of threadIdx and blockIdx, and its dim3, the type of
// blockDim and gridDim, whose unset sizes are 1. Here the four built-in
// variables are of the runtime's own type, and either converts from it as
// CUDA's from its own: `uint3 t = threadIdx;`, `dim3 b = blockDim;`.
struct uint3 {
    unsigned x, y, z;
    // As an aggregate's braces fill it (`uint3 t = {threadIdx.x};`): the rest 0.
    uint3(unsigned x_ = 0, unsigned y_ = 0, unsigned z_ = 0) : x(x_), y(y_), z(z_) {}
    uint3(Dim3 d) : x(d.x), y(d.y), z(d.z) {}
};
struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
    dim3(Dim3 d) : x(d.x), y(d.y), z(d.z) {}
    dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    operator Dim3() const { return Dim3{x, y, z}; }
    operator uint3() const { return uint3(x, y, z); }
};

// int32_t and the other fixed-width integers, int2, float4 and the other
// vector types, make_int2 and the other makers: the parser's definitions.
#define TS_CUDA_FN inline
#include "own/cuda_types.inl"
#undef TS_CUDA_FN

// min and max as CUDA's device code has them, for any two numbers (an array
// element is read once), returning a value of their common type. Of
// floating-point values they are fmin and fmax (CUDA's fminf, fmaxf): a NaN
// gives way to the other operand. Of anything else (a row of a 2D array,
// blockDim) there is none, so the compiler names the call, not this body.
template <class A, class B>
concept MinMaxOperands = requires(A a, B b) {
    +a;
    +b;
};
template <class A, class B>
    requires MinMaxOperands<A, B>
inline auto min(A a, B b) {
    using T = decltype(true ? +a : +b);
    const T x = a, y = b;
    if constexpr (std::is_floating_point_v<T>) return std::fmin(x, y);
    else return y < x ? y : x;
}
template <class A, class B>
    requires MinMaxOperands<A, B>
inline auto max(A a, B b) {
    using T = decltype(true ? +a : +b);
    const T x = a, y = b;
    if constexpr (std::is_floating_point_v<T>) return std::fmax(x, y);
    else return x < y ? y : x;
}

// CUDA's math functions as its headers declare them: a float argument picks
// the float overload (`floor(x)`, `abs(x)` and `fmin(x, y)` of floats are
// floats, as floorf, fabsf and fminf), a double one the double overload, an
// int `abs` stays an int.
using std::abs;
using std::ceil;
using std::cos;
using std::exp;
using std::fabs;
using std::floor;
using std::fmax;
using std::fmin;
using std::log;
using std::pow;
using std::round;
using std::sin;
using std::sqrt;
using std::trunc;
#include "own/own_cpu_math.inl"

// [SECTION] The CUDA runtime calls launch() may make.

enum cudaError_t { cudaSuccess = 0 };
enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }
inline const char* cudaGetErrorString(cudaError_t) { return "no error"; }
// Timing with events, as students' launch() often does: the CPU executor's
// run is no GPU time, so the elapsed time is 0 (tilescope bench times the
// kernel on a GPU).
using cudaEvent_t = struct TsEvent*;
using cudaStream_t = struct TsStream*;
inline cudaError_t cudaEventCreate(cudaEvent_t* e) {
    *e = nullptr;
    return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t = nullptr) { return cudaSuccess; }
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
    *ms = 0.0f;
    return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }

// The mask into a __constant__ array. M is a device pointer, so any copy kind
// is accepted (the runtime checks that the source is one of the arrays).
template <class T>
inline cudaError_t cudaMemcpyToSymbol(traced::ConstantArray<T, Recorder>& symbol, const void* source,
                                      std::size_t bytes, std::size_t offset = 0, int = 0,
                                      unsigned line = __builtin_LINE()) {
    own::runtime().copyToSymbol("", symbol.values, sizeof(symbol.values), source, bytes, offset, line);
    return cudaSuccess;
}

// [SECTION] The kernel launch. The translator writes `conv<<<g, b, s>>>(args)`
// as `::tilescope::own_user::launchKernel(conv, "conv", STATIC, g, b, s)(args)`,
// STATIC being the bytes of conv's __shared__ arrays.

template <class Param>
struct ArgOf {
    static Param convert(const own::ArraySlot&, const char* kernel, int position, unsigned line) {
        throw own::LaunchError{std::string("argument ") + std::to_string(position + 1) + " of " + kernel +
                                   " is an array, but the parameter is not",
                               line};
    }
};
template <>
struct ArgOf<Global<const float>> {
    static Global<const float> convert(const own::ArraySlot& s, const char*, int, unsigned) {
        return Global<const float>{s.data, s.size, s.id};
    }
};
template <>
struct ArgOf<Global<float>> {
    static Global<float> convert(const own::ArraySlot& s, const char*, int, unsigned) {
        return Global<float>{s.data, s.size, s.id};
    }
};

template <class Param, class Arg>
Param convertArg(const Arg& arg, own::LaunchArg& raw, const char* kernel, int position, unsigned line) {
    raw.bytes = static_cast<std::uint8_t>(sizeof(Param));
    if constexpr (std::is_pointer_v<Arg>) {
        const own::ArraySlot slot = own::runtime().find(static_cast<const void*>(arg));
        if (slot.id == 0xff)
            throw own::LaunchError{std::string("argument ") + std::to_string(position + 1) + " of " + kernel +
                                       " is a pointer that is none of N, M and P: pass launch()'s own pointers as "
                                       "they are (no offsets)",
                                   line};
        raw.kind = own::LaunchArg::Array;
        raw.array = slot.id;
        return ArgOf<Param>::convert(slot, kernel, position, line);
    } else {
        static_assert(std::is_arithmetic_v<Arg> || std::is_enum_v<Arg>, "a kernel argument must be a number or an array");
        // The value the parameter receives, converted as C++ converts it (3
        // passed to a bool is true, 1; 2.7 passed to an int is 2): the GPU
        // runtime copies these bytes into the parameter as they are.
        if constexpr (std::is_floating_point_v<Param>) {
            raw.kind = own::LaunchArg::Float;
            raw.real = static_cast<double>(static_cast<Param>(arg));
        } else if constexpr (std::is_arithmetic_v<Param>) {
            raw.kind = own::LaunchArg::Int;
            raw.integer = static_cast<long long>(static_cast<Param>(arg));
        } else {
            raw.kind = own::LaunchArg::Int;
            raw.integer = static_cast<long long>(arg);
        }
        if constexpr (std::is_arithmetic_v<Param>) {
            return static_cast<Param>(arg);
        } else {
            throw own::LaunchError{std::string("argument ") + std::to_string(position + 1) + " of " + kernel +
                                       " is a number, but the parameter is an array",
                                   line};
        }
    }
}

template <class... Params>
struct Launcher {
    void (*kernel)(Params...);
    own::KernelLaunch launch;

    template <class... Args>
    void operator()(Args... args) {
        static_assert(sizeof...(Args) == sizeof...(Params), "the launch passes a different number of arguments "
                                                            "than the kernel takes");
        static_assert(sizeof...(Params) <= own::kMaxLaunchArgs, "a kernel takes at most 16 arguments here");
        launch.argCount = static_cast<int>(sizeof...(Params));
        convertAll(std::index_sequence_for<Params...>{}, args...);
    }

private:
    template <std::size_t... I, class... Args>
    void convertAll(std::index_sequence<I...>, Args... args) {
        std::tuple<Params...> params{
            convertArg<Params>(args, launch.args[I], launch.kernel, static_cast<int>(I), launch.line)...};
        own::runtime().launch(launch, [&] { std::apply(kernel, params); });
    }
};

template <class... Params>
Launcher<Params...> launchKernel(void (*kernel)(Params...), const char* name, std::size_t staticShared, dim3 grid,
                                 dim3 block, std::size_t dynamicShared = 0, cudaStream_t /*stream*/ = nullptr,
                                 unsigned line = __builtin_LINE()) {
    Launcher<Params...> l{kernel, {}};
    l.launch.kernel = name;
    l.launch.line = line;
    l.launch.grid = grid;
    l.launch.block = block;
    l.launch.staticShared = staticShared;
    l.launch.dynamicShared = dynamicShared;
    return l;
}

#include "own/own_language.inl"

// extern __shared__ float x[]: the launch's dynamic shared memory, after the static arrays.
inline SharedArray<float> tsDynamicShared(int offset, unsigned line = __builtin_LINE()) {
    const int count = static_cast<int>(cpu::t_block->shared.size()) - offset;
    return SharedArray<float>(tsSharedAt(offset, count < 0 ? 0 : count, 0, line), count < 0 ? 0 : count);
}

}  // namespace tilescope::own_user
