/* hip/hip_runtime.h for the CPU platform.
 *
 * Chapters compiled for the CPU get this header instead of the real HIP one
 * (-Icommon/cpu comes first on the include path). It turns the kernel dialect
 * the chapters use into plain C++ (hipcpu_kernel.h, and the atomics here)
 * and declares the runtime (hipcpu_runtime_api.h) of the executor in
 * common/cpu/, which runs every GPU thread as a fiber on the host with real
 * barrier and shuffle semantics. See common/cpu/README.md.
 *
 * Must be compiled as C++17 or later. */
#ifndef HIPCPU_HIP_RUNTIME_H
#define HIPCPU_HIP_RUNTIME_H

#ifndef __cplusplus
#error "the HIP CPU executor needs C++: compile kernel files with a C++ compiler"
#endif

/* Lets code detect this platform: #ifdef __HIPCPU__ */
#define __HIPCPU__ 1

/* Wave (warp) size, fixed at compile time. The runtime and every kernel file
 * of a program must agree: the launch entry point carries the wave size in
 * its name, so a mismatch fails at link time instead of misbehaving. */
#ifndef HIPCPU_WAVE_SIZE
#define HIPCPU_WAVE_SIZE 64
#endif
#if HIPCPU_WAVE_SIZE != 64 && HIPCPU_WAVE_SIZE != 32
#error "HIPCPU_WAVE_SIZE must be 64 or 32"
#endif

/* Included first, so that the macros below (e.g. __expf) cannot disturb the
 * declarations in these headers. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* printf in kernels */
#include <string.h>

#include <type_traits>
#include <utility>

#include "hipcpu_kernel.h" /* qualifiers, coordinates, vector types, barriers, wave operations, math */

/* ---- Atomics --------------------------------------------------------------- */

/* Fibers switch only inside __syncthreads and wave operations, so a plain
 * read-modify-write is atomic here. Each returns the old value.
 *
 * In the trace build the executor is told of each atomic first: it counts
 * it, and lets its read and write through as one atomic access, not as a
 * plain load and store. */
#if defined(HIPCPU_TRACE) && HIPCPU_TRACE /* as trace/hooks.h reads it: -DHIPCPU_TRACE=0 is the plain build */
extern "C" void hipcpu_atomic_begin(const void *address, unsigned size);
extern "C" void hipcpu_atomic_end(void);
#define HIPCPU_ATOMIC_BEGIN(address) hipcpu_atomic_begin(address, sizeof *(address))
#define HIPCPU_ATOMIC_END() hipcpu_atomic_end()
#else
#define HIPCPU_ATOMIC_BEGIN(address) ((void)0)
#define HIPCPU_ATOMIC_END() ((void)0)
#endif
#define HIPCPU_ATOMIC(name, T, expr)                                                      \
    inline T name(T *address, T val) {                                                     \
        HIPCPU_ATOMIC_BEGIN(address);                                                      \
        T old = *address;                                                                  \
        *address = (expr);                                                                 \
        HIPCPU_ATOMIC_END();                                                               \
        return old;                                                                        \
    }
#define HIPCPU_ATOMIC_INTEGER(T)                                                          \
    HIPCPU_ATOMIC(atomicAdd, T, old + val)                                                 \
    HIPCPU_ATOMIC(atomicSub, T, old - val)                                                 \
    HIPCPU_ATOMIC(atomicExch, T, val)                                                      \
    HIPCPU_ATOMIC(atomicMin, T, val < old ? val : old)                                     \
    HIPCPU_ATOMIC(atomicMax, T, val > old ? val : old)                                     \
    HIPCPU_ATOMIC(atomicAnd, T, old & val)                                                 \
    HIPCPU_ATOMIC(atomicOr, T, old | val)                                                  \
    HIPCPU_ATOMIC(atomicXor, T, old ^ val)                                                 \
    inline T atomicCAS(T *address, T compare, T val) {                                     \
        HIPCPU_ATOMIC_BEGIN(address);                                                      \
        T old = *address;                                                                  \
        if (old == compare) *address = val;                                                \
        HIPCPU_ATOMIC_END();                                                               \
        return old;                                                                        \
    }
HIPCPU_ATOMIC_INTEGER(int)
HIPCPU_ATOMIC_INTEGER(unsigned int)
HIPCPU_ATOMIC_INTEGER(unsigned long long)
HIPCPU_ATOMIC(atomicAdd, float, old + val)
HIPCPU_ATOMIC(atomicAdd, double, old + val)
HIPCPU_ATOMIC(atomicSub, float, old - val)
HIPCPU_ATOMIC(atomicExch, float, val)
HIPCPU_ATOMIC(atomicMin, long long, val < old ? val : old)
HIPCPU_ATOMIC(atomicMax, long long, val > old ? val : old)
/* CUDA semantics: wrap to 0 past val / to val below 0 or above val. */
HIPCPU_ATOMIC(atomicInc, unsigned int, old >= val ? 0u : old + 1u)
HIPCPU_ATOMIC(atomicDec, unsigned int, (old == 0u || old > val) ? val : old - 1u)
#undef HIPCPU_ATOMIC_INTEGER
#undef HIPCPU_ATOMIC

#include "hipcpu_runtime_api.h" /* errors, devices, memory, streams, events, symbols, occupancy, launch */

#endif
