// What a student's compiled kernel file talks to. The file's launch() runs in
// the worker process (worker_main.cpp); the kernel launch it writes
// (`conv<<<grid, block>>>(N, P, r, width)`) and its cudaMemcpyToSymbol reach
// the worker through this interface, which decides where the kernel runs
// (the CPU executor, or the GPU through NVRTC) and what is recorded.
//
// The generated file includes this header, and so does the worker: both are
// compiled by the same kind of compiler on the same machine, so a C++
// interface is safe across the shared object's boundary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "core/dim3.hpp"

namespace tilescope::own {

// One of the three arrays launch() receives, found by its pointer.
struct ArraySlot {
    std::uint8_t id = 0xff;  // ArrayId (trace/event.hpp); 0xff: not one of N, M and P
    float* data = nullptr;
    int size = 0;            // in floats
};

// One argument of a kernel launch, as launch() passed it.
struct LaunchArg {
    enum Kind : std::uint8_t { Array, Int, Float } kind = Int;
    std::uint8_t array = 0xff;  // for Array: N, M or P (ArrayId)
    std::uint8_t bytes = 4;     // the parameter's size (a number's: 1, 2, 4 or 8)
    long long integer = 0;
    double real = 0.0;
};

constexpr int kMaxLaunchArgs = 16;

struct KernelLaunch {
    const char* kernel = "";        // the __global__ function's name
    unsigned line = 0;              // the line of the launch in the student's file
    Dim3 grid, block;
    std::size_t staticShared = 0;   // bytes of the kernel's __shared__ arrays
    std::size_t dynamicShared = 0;  // the launch's third parameter
    int argCount = 0;
    LaunchArg args[kMaxLaunchArgs];
};

// A message for the student, thrown out of launch() (a bad launch, a copy
// past an array's end) and reported with the line it names.
struct LaunchError {
    std::string message;
    unsigned line = 0;
};

class Runtime {
public:
    virtual ~Runtime() = default;
    virtual ArraySlot find(const void* pointer) = 0;
    // Runs the kernel over the launch's grid. On the CPU, `thread` is one
    // CUDA thread's body (the kernel called with its converted arguments).
    virtual void launch(const KernelLaunch& launch, const std::function<void()>& thread) = 0;
    // cudaMemcpyToSymbol: `symbol` is the __constant__ array in this process
    // (capacity bytes); `source` must be one of the arrays launch() received.
    virtual void copyToSymbol(const char* name, void* symbol, std::size_t capacity, const void* source,
                              std::size_t bytes, std::size_t offset, unsigned line) = 0;
};

// The runtime of the worker; the generated file calls it, the worker defines it.
Runtime& runtime();

}  // namespace tilescope::own
