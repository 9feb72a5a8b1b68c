// One CUDA thread's own stack and registers on the CPU. The executor runs
// every thread of a block as a fiber on one OS thread, so that
// __syncthreads() can suspend a thread mid-kernel and resume it later: a real
// barrier, not a simulation of one.
//
// Four implementations behind one small class, each in a file of its own
// (fiber_switch.hpp lists them), of which CMake compiles the one chosen when
// the build is configured (the option TILESCOPE_FIBERS, whose status line
// names the one in use):
//   - our own switch, the default on x86-64 and AArch64 Linux: a few lines of
//     assembly that save the callee-saved registers of one stack and restore
//     another's, about as cheap as a function call, with no library needed
//     (fiber_switch_own.cpp, and the assembly in fiber_switch_own_x86_64.cpp
//     or fiber_switch_own_aarch64.cpp);
//   - Boost.Context, where its compiled library is installed (as fast)
//     (fiber_switch_boost.cpp);
//   - POSIX ucontext, in every glibc, for other systems: each switch costs a
//     system call (the signal mask) (fiber_switch_ucontext.cpp);
//   - Emscripten's fibers, in the browser build (fiber_switch_emscripten.cpp).
// A build with AddressSanitizer always takes ucontext, whose switches it
// announces to ASan (fiber_switch_ucontext.cpp says why). The stack pool
// that they all draw on is in fiber.cpp.
//
// A fiber's entry must not throw: an exception that leaves it ends the
// program, as at the top of a thread (the executor's entry catches a
// kernel's faults inside the fiber). Exceptions never cross stacks.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace tilescope::cpu {

// Stacks are reused from block to block: a launch creates a fiber per thread
// per block, and allocating a fresh stack each time would dominate.
class StackPool {
public:
    explicit StackPool(std::size_t stackBytes) : m_stackBytes(stackBytes) {}
    ~StackPool();
    StackPool(const StackPool&) = delete;
    StackPool& operator=(const StackPool&) = delete;

    void* take();
    void give(void* stack) { m_free.push_back(stack); }
    std::size_t stackBytes() const { return m_stackBytes; }

private:
    std::size_t m_stackBytes;
    std::vector<void*> m_free;
};

class Fiber {
public:
    using Entry = void (*)(void* argument);

    Fiber();
    ~Fiber();
    Fiber(const Fiber&) = delete;
    Fiber& operator=(const Fiber&) = delete;

    // Prepares the fiber to run entry(argument) on a stack from the pool.
    void start(StackPool& pool, Entry entry, void* argument);
    // Runs the fiber until it yields or its entry returns.
    void resume();
    // Called from inside the fiber: back to whoever resumed it.
    void yield();
    bool finished() const;
    // Abandons a suspended fiber (after a fault in its block) and frees its stack.
    void reset();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// What switches fibers in this build: "own", "boost", "ucontext" or "emscripten" (the browser build).
const char* fiberImplementation();

}  // namespace tilescope::cpu
