// One CUDA thread's own stack and registers on the CPU. The executor runs
// every thread of a block as a fiber on one OS thread, so that
// __syncthreads() can suspend a thread mid-kernel and resume it later: a real
// barrier, not a simulation of one.
//
// Two implementations behind one small class: Boost.Context (fast switches,
// used when CMake finds it) and POSIX ucontext (in every glibc; each switch
// costs a system call, and switches happen only at barriers). A build with
// AddressSanitizer always takes ucontext, whose switches it announces to ASan
// (fiber.cpp says why).
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

}  // namespace tilescope::cpu
