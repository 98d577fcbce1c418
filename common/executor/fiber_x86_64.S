/* Fiber context switch for x86-64 (System V ABI), used by fibers.cpp.
 *
 * A suspended context is just a stack pointer: the callee-saved registers
 * (rbp, rbx, r12-r15) are pushed on the fiber's own stack, followed by the
 * stack pointer being stored in *save. No signal mask is touched (unlike
 * swapcontext, which makes a system call), and the MXCSR / x87 control words
 * are not saved: kernels do not change the floating-point environment.
 *
 * Assembled on every architecture (the build globs fiber_*.S); empty elsewhere. */
#if defined(__x86_64__) && !defined(HIPCPU_USE_UCONTEXT)

    .text

/* void hipcpu_switch(void **save, void *target)
 *   rdi = where to store the current stack pointer
 *   rsi = stack pointer of the context to resume */
    .globl  hipcpu_switch
    .type   hipcpu_switch, @function
    .p2align 4
hipcpu_switch:
    .cfi_startproc
    pushq   %rbp
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    movq    %rsp, (%rdi)
    movq    %rsi, %rsp
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    popq    %rbp
    ret
    .cfi_endproc
    .size   hipcpu_switch, .-hipcpu_switch

/* First code a new fiber runs: hipcpu_switch "returns" here with rbx = the
 * argument and r12 = the function, both placed on the new stack by
 * fibers.cpp. The stack pointer is 16-byte aligned, as a call requires. The
 * function never returns. */
    .globl  hipcpu_fiber_start
    .type   hipcpu_fiber_start, @function
    .p2align 4
hipcpu_fiber_start:
    .cfi_startproc
    .cfi_undefined rip          /* end of the call chain for debuggers */
    xorl    %ebp, %ebp
    movq    %rbx, %rdi
    callq   *%r12
    ud2
    .cfi_endproc
    .size   hipcpu_fiber_start, .-hipcpu_fiber_start

#endif

#if defined(__linux__) && defined(__ELF__)
    .section .note.GNU-stack, "", %progbits
#endif
