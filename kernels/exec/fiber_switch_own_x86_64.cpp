// Our own switch on x86-64 Linux: tilescope_fiber_switch,
// tilescope_fiber_start and a new fiber's first frame (fiber_switch.hpp
// declares them; fiber_switch_own.cpp says how the switch works and uses them).
//
// x86-64, System V ABI: rbx, rbp, r12-r15 and rsp are callee-saved, as are
// the control bits of MXCSR (SSE rounding, flush-to-zero, exception masks)
// and the x87 control word. The stack pointer is 16-byte aligned before a
// call, so a function starts with rsp + 8 aligned.
//
// The switch does not take part in x86's CET: it keeps no shadow stack, and
// its jump lands on return sites without endbr64. Linux checks neither unless
// a process asks for shadow stacks (glibc's tunable glibc.cpu.x86_shstk, off
// by default); such a process must be built with -DTILESCOPE_FIBERS=ucontext.
#include <cstdint>

#include "exec/fiber_switch.hpp"

#if !defined(__linux__) || !defined(__x86_64__) || defined(__ILP32__)
#error "this is our own fiber switch for 64-bit x86-64 Linux: configure with -DTILESCOPE_FIBERS=ucontext"
#endif

// The frame tilescope_fiber_switch leaves on a suspended fiber's stack, at
// the saved stack pointer (lowest address first): 8 bytes of floating-point
// control (MXCSR, then the x87 control word), r15, r14, r13, r12, rbx, rbp,
// and the return address, 64 bytes in all.
//
// The switch ends with an indirect jump to the other fiber's return address
// rather than with ret. The processor predicts a ret from the calls it has
// seen on this stack, which is always wrong straight after a switch of
// stacks; an indirect jump it predicts from the jump's own history, and the
// executor's switches go to the same few places again and again (the
// resumer's call in resume(), a barrier's yield(), a new fiber's start).
// On this executor that took a fifth off a barrier-heavy run (cpu_bench).
asm(R"(
    .text
    .globl  tilescope_fiber_switch
    .hidden tilescope_fiber_switch
    .type   tilescope_fiber_switch, @function
    .p2align 4
tilescope_fiber_switch:                 # rdi: where to save this stack's pointer; rsi: the stack to go on with
    .cfi_startproc
    pushq   %rbp
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbp, 0
    pushq   %rbx
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbx, 0
    pushq   %r12
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r12, 0
    pushq   %r13
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r13, 0
    pushq   %r14
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r14, 0
    pushq   %r15
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r15, 0
    subq    $8, %rsp
    .cfi_adjust_cfa_offset 8
    stmxcsr (%rsp)
    fnstcw  4(%rsp)
    movq    %rsp, (%rdi)                # this fiber is now suspended
    movq    %rsi, %rsp                  # and the other one's stack is current: the same frame
    ldmxcsr (%rsp)                      # layout, so the call frame information stays true
    fldcw   4(%rsp)
    addq    $8, %rsp
    .cfi_adjust_cfa_offset -8
    popq    %r15
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r15
    popq    %r14
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r14
    popq    %r13
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r13
    popq    %r12
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r12
    popq    %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbx
    popq    %rbp
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbp
    popq    %rcx                        # the return address, as ret would take it, but
    .cfi_adjust_cfa_offset -8           # jumped to rather than returned to: see below
    .cfi_register %rip, %rcx
    jmpq    *%rcx
    .cfi_endproc
    .size   tilescope_fiber_switch, . - tilescope_fiber_switch

    .globl  tilescope_fiber_start
    .hidden tilescope_fiber_start
    .type   tilescope_fiber_start, @function
    .p2align 4
tilescope_fiber_start:                  # reached by the first switch's ret; rsp + 8 is 16-byte aligned and
    .cfi_startproc                      # (rsp) is a null return address
    .cfi_undefined %rip                 # no caller: unwinders and debuggers stop here
    pushq   %rbp                        # rbp is 0 (the initial frame): the frame-pointer chain ends here,
    .cfi_adjust_cfa_offset 8            # and rsp is 16-byte aligned for the call
    movq    %rsp, %rbp
    movq    %r13, %rdi                  # the argument
    callq   *%r12                       # the entry; it never returns
    ud2
    .cfi_endproc
    .size   tilescope_fiber_start, . - tilescope_fiber_start
)");

namespace tilescope::cpu {

namespace {

// A new fiber's stack as tilescope_fiber_switch expects to find it.
struct InitialFrame {
    std::uint32_t mxcsr;
    std::uint16_t x87Control;
    std::uint16_t unused;
    void* r15;
    void* r14;
    void* r13;  // the entry's argument
    void* r12;  // the entry
    void* rbx;
    void* rbp;            // 0: the end of the frame-pointer chain
    void* returnAddress;  // tilescope_fiber_start
    void* startReturn;    // 0: tilescope_fiber_start's own (null) return address
};
static_assert(sizeof(InitialFrame) == 72);

InitialFrame initialFrame(void (*entry)(void*), void* argument) {
    InitialFrame f{};
    // The new fiber starts with the floating-point modes of whoever starts it.
    asm volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(f.mxcsr), "=m"(f.x87Control));
    f.r13 = argument;
    f.r12 = reinterpret_cast<void*>(entry);
    f.returnAddress = reinterpret_cast<void*>(&tilescope_fiber_start);
    return f;
}

}  // namespace

void* ownInitialFrame(std::uintptr_t top, Fiber::Entry entry, void* argument) {
    auto* frame = reinterpret_cast<InitialFrame*>(top - sizeof(InitialFrame));
    *frame = initialFrame(entry, argument);
    return frame;
}

}  // namespace tilescope::cpu
