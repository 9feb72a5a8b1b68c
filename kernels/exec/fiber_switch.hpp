// Inside the CPU executor's fibers (exec/fiber.hpp): what a context-switch
// implementation provides, and the little its files share. The executor and
// the tests include exec/fiber.hpp only.
//
// Each implementation is a file of its own, and CMake compiles only the one
// chosen (kernels/CMakeLists.txt, the option TILESCOPE_FIBERS):
//   fiber_switch_own.cpp         our own switch, x86-64 and AArch64 Linux,
//     with its architecture's assembly in fiber_switch_own_x86_64.cpp or
//     fiber_switch_own_aarch64.cpp (declared below);
//   fiber_switch_boost.cpp       Boost.Context;
//   fiber_switch_ucontext.cpp    POSIX ucontext, which every build with
//                                AddressSanitizer takes;
//   fiber_switch_emscripten.cpp  Emscripten's fibers with Asyncify (the
//                                browser build).
// That file defines Fiber::Impl, Fiber's constructor, destructor, start(),
// resume(), yield(), finished() and reset() (exec/fiber.hpp), and
// fiberImplementation(). Fiber's resume() and yield() are each
// implementation's own rather than shared code calling into it: a call in
// between would add a return after every switch of stacks, and a return just
// after a switch is always mispredicted (fiber_switch_own_x86_64.cpp). What
// every implementation shares, the pool of stacks, is in fiber.cpp.
#pragma once

#include <cstdint>

#include "exec/fiber.hpp"

// [SECTION] AddressSanitizer
//
// Whether this file is compiled with AddressSanitizer. Only the ucontext
// switch announces its switches to ASan (fiber_switch_ucontext.cpp says why
// that matters); CMake takes it for every build with ASan (TILESCOPE_SANITIZE,
// TILESCOPE_FUZZ), and the other switches refuse to compile with it.
#if defined(__SANITIZE_ADDRESS__)  // GCC
#define TILESCOPE_FIBER_ASAN 1
#elif defined(__has_feature)  // Clang
#if __has_feature(address_sanitizer)
#define TILESCOPE_FIBER_ASAN 1
#endif
#endif
#ifndef TILESCOPE_FIBER_ASAN
#define TILESCOPE_FIBER_ASAN 0
#endif

// [SECTION] Our own switch: what each architecture's file provides
//
// fiber_switch_own.cpp keeps a suspended fiber as its stack pointer and
// switches with these; fiber_switch_own_x86_64.cpp and
// fiber_switch_own_aarch64.cpp write them in their assembly.

extern "C" {
// Saves the running fiber's callee-saved registers on its stack and its stack
// pointer in *save, then continues the fiber whose stack pointer is `next`.
// Returns when some other fiber switches back to *save.
__attribute__((visibility("hidden"))) void tilescope_fiber_switch(void** save, void* next);
// A new fiber's first frame: calls entry(argument) with the two values that
// the initial frame put in callee-saved registers. Never returns.
__attribute__((visibility("hidden"))) void tilescope_fiber_start();
}

namespace tilescope::cpu {

// Writes a new fiber's first frame just below `top` (16-byte aligned, the top
// of its stack), made to look as though the fiber had been suspended in
// tilescope_fiber_switch, so that the first switch to the stack pointer it
// returns calls entry(argument) through tilescope_fiber_start.
__attribute__((visibility("hidden"))) void* ownInitialFrame(std::uintptr_t top, Fiber::Entry entry, void* argument);

}  // namespace tilescope::cpu
