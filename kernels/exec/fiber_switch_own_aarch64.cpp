// Our own switch on AArch64 Linux: tilescope_fiber_switch,
// tilescope_fiber_start and a new fiber's first frame (fiber_switch.hpp
// declares them; fiber_switch_own.cpp says how the switch works and uses them).
//
// AArch64, AAPCS64: x19-x28, the frame pointer x29, the link register x30
// (the return address: saved, since the switch returns through it), sp,
// the low 64 bits of v8-v15 (d8-d15) and FPCR's rounding, flush-to-zero and
// default-NaN bits are callee-saved; sp is always 16-byte aligned.
#include <cstdint>

#include "exec/fiber_switch.hpp"

#if !defined(__linux__) || !defined(__aarch64__) || defined(__ILP32__)
#error "this is our own fiber switch for 64-bit AArch64 Linux: configure with -DTILESCOPE_FIBERS=ucontext"
#endif

// The frame tilescope_fiber_switch leaves on a suspended fiber's stack, at
// the saved stack pointer (lowest address first): x19-x28, x29, x30 (the
// return address), d8-d15, FPCR and 8 bytes of padding, 176 bytes in all (a
// multiple of 16, as sp must be). Unlike x86-64's, this switch ends with ret:
// a `br` to the return address would land, where branch target
// identification is on, on a return site that has no landing pad.
asm(R"(
    .text
    .globl  tilescope_fiber_switch
    .hidden tilescope_fiber_switch
    .type   tilescope_fiber_switch, %function
    .p2align 4
tilescope_fiber_switch:                 // x0: where to save this stack's pointer; x1: the stack to go on with
    .cfi_startproc
    hint    #34                         // bti c: a landing pad where branch target identification is on
    sub     sp, sp, #176
    .cfi_def_cfa_offset 176
    stp     x19, x20, [sp, #0]
    stp     x21, x22, [sp, #16]
    stp     x23, x24, [sp, #32]
    stp     x25, x26, [sp, #48]
    stp     x27, x28, [sp, #64]
    stp     x29, x30, [sp, #80]
    .cfi_offset x19, -176
    .cfi_offset x20, -168
    .cfi_offset x21, -160
    .cfi_offset x22, -152
    .cfi_offset x23, -144
    .cfi_offset x24, -136
    .cfi_offset x25, -128
    .cfi_offset x26, -120
    .cfi_offset x27, -112
    .cfi_offset x28, -104
    .cfi_offset x29, -96
    .cfi_offset x30, -88
    stp     d8, d9, [sp, #96]
    stp     d10, d11, [sp, #112]
    stp     d12, d13, [sp, #128]
    stp     d14, d15, [sp, #144]
    mrs     x9, fpcr
    str     x9, [sp, #160]
    mov     x9, sp
    str     x9, [x0]                    // this fiber is now suspended
    mov     sp, x1                      // and the other one's stack is current: the same frame
    ldp     x19, x20, [sp, #0]          // layout, so the call frame information stays true
    ldp     x21, x22, [sp, #16]
    ldp     x23, x24, [sp, #32]
    ldp     x25, x26, [sp, #48]
    ldp     x27, x28, [sp, #64]
    ldp     x29, x30, [sp, #80]
    ldp     d8, d9, [sp, #96]
    ldp     d10, d11, [sp, #112]
    ldp     d12, d13, [sp, #128]
    ldp     d14, d15, [sp, #144]
    ldr     x9, [sp, #160]
    mrs     x10, fpcr
    cmp     x9, x10                     // writing FPCR may stall the pipeline: only when it differs
    b.eq    1f
    msr     fpcr, x9
1:
    add     sp, sp, #176
    .cfi_def_cfa_offset 0
    .cfi_restore x19
    .cfi_restore x20
    .cfi_restore x21
    .cfi_restore x22
    .cfi_restore x23
    .cfi_restore x24
    .cfi_restore x25
    .cfi_restore x26
    .cfi_restore x27
    .cfi_restore x28
    .cfi_restore x29
    .cfi_restore x30
    ret
    .cfi_endproc
    .size   tilescope_fiber_switch, . - tilescope_fiber_switch

    .globl  tilescope_fiber_start
    .hidden tilescope_fiber_start
    .type   tilescope_fiber_start, %function
    .p2align 4
tilescope_fiber_start:                  // reached by the first switch's ret, sp at the stack's (aligned) top
    .cfi_startproc
    .cfi_undefined x30                  // no caller: unwinders and debuggers stop here
    hint    #34                         // bti c
    stp     xzr, xzr, [sp, #-16]!       // a frame record of zeros, null frame and null return address:
    mov     x29, sp                     // the end of the frame chain
    mov     x0, x20                     // the argument
    blr     x19                         // the entry; it never returns
    brk     #0
    .cfi_endproc
    .size   tilescope_fiber_start, . - tilescope_fiber_start
)");

namespace tilescope::cpu {

namespace {

// A new fiber's stack as tilescope_fiber_switch expects to find it.
struct InitialFrame {
    void* x19;  // the entry
    void* x20;  // the entry's argument
    void* x21to28[8];
    void* x29;  // 0: the end of the frame chain
    void* x30;  // tilescope_fiber_start
    double d8to15[8];
    std::uint64_t fpcr;
    std::uint64_t unused;
};
static_assert(sizeof(InitialFrame) == 176);

InitialFrame initialFrame(void (*entry)(void*), void* argument) {
    InitialFrame f{};
    // The new fiber starts with the floating-point modes of whoever starts it.
    asm volatile("mrs %0, fpcr" : "=r"(f.fpcr));
    f.x19 = reinterpret_cast<void*>(entry);
    f.x20 = argument;
    f.x30 = reinterpret_cast<void*>(&tilescope_fiber_start);
    return f;
}

}  // namespace

void* ownInitialFrame(std::uintptr_t top, Fiber::Entry entry, void* argument) {
    auto* frame = reinterpret_cast<InitialFrame*>(top - sizeof(InitialFrame));
    *frame = initialFrame(entry, argument);
    return frame;
}

}  // namespace tilescope::cpu
