/* Fiber context switch for AArch64 (AAPCS64), used by fibers.cpp.
 *
 * A suspended context is just a stack pointer: the callee-saved registers
 * x19-x28, the frame pointer x29, the link register x30 and the low halves
 * of v8-v15 (d8-d15) are stored in a 176-byte frame on the fiber's own stack.
 * No signal mask is touched and FPCR is not saved: kernels do not change the
 * floating-point environment.
 *
 * Frame layout (offsets from the saved stack pointer), shared with
 * fibers.cpp's context_init:
 *    0 x19   8 x20  16 x21  24 x22  32 x23  40 x24  48 x25  56 x26
 *   64 x27  72 x28  80 x29  88 x30  96 d8 .. 152 d15  (160-175 padding)
 *
 * Assembled on every architecture (the build globs fiber_*.S); empty elsewhere. */
#if defined(__aarch64__) && !defined(HIPCPU_USE_UCONTEXT)

    .text

/* void hipcpu_switch(void **save, void *target)
 *   x0 = where to store the current stack pointer
 *   x1 = stack pointer of the context to resume */
    .globl  hipcpu_switch
    .type   hipcpu_switch, %function
    .p2align 4
hipcpu_switch:
    .cfi_startproc
    sub     sp, sp, #176
    stp     x19, x20, [sp, #0]
    stp     x21, x22, [sp, #16]
    stp     x23, x24, [sp, #32]
    stp     x25, x26, [sp, #48]
    stp     x27, x28, [sp, #64]
    stp     x29, x30, [sp, #80]
    stp     d8, d9, [sp, #96]
    stp     d10, d11, [sp, #112]
    stp     d12, d13, [sp, #128]
    stp     d14, d15, [sp, #144]
    mov     x2, sp
    str     x2, [x0]
    mov     sp, x1
    ldp     x19, x20, [sp, #0]
    ldp     x21, x22, [sp, #16]
    ldp     x23, x24, [sp, #32]
    ldp     x25, x26, [sp, #48]
    ldp     x27, x28, [sp, #64]
    ldp     x29, x30, [sp, #80]
    ldp     d8, d9, [sp, #96]
    ldp     d10, d11, [sp, #112]
    ldp     d12, d13, [sp, #128]
    ldp     d14, d15, [sp, #144]
    add     sp, sp, #176
    ret
    .cfi_endproc
    .size   hipcpu_switch, .-hipcpu_switch

/* First code a new fiber runs: hipcpu_switch "returns" here (through x30)
 * with x19 = the argument and x20 = the function, both placed in the initial
 * frame by fibers.cpp. The function never returns. */
    .globl  hipcpu_fiber_start
    .type   hipcpu_fiber_start, %function
    .p2align 4
hipcpu_fiber_start:
    .cfi_startproc
    .cfi_undefined x30          /* end of the call chain for debuggers */
    mov     x29, #0
    mov     x0, x19
    blr     x20
    brk     #0
    .cfi_endproc
    .size   hipcpu_fiber_start, .-hipcpu_fiber_start

#endif

#if defined(__linux__) && defined(__ELF__)
    .section .note.GNU-stack, "", %progbits
#endif
