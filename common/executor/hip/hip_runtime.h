/* hip/hip_runtime.h for the CPU platform: the executor's. Two headers here
 * have this name, and the include path picks one: with HIP_PLATFORM=cpu
 * (TRACE=1 too, and make profile's own programs) the compile has
 * -Icommon/executor and gets this one; nvcc (HIP_PLATFORM=nvidia) has
 * -Icommon/gpu/nvidia and gets the NVIDIA mapping there; hipcc (amd) has
 * neither, and gets ROCm's.
 *
 * Chapters compiled for the CPU get this header instead of the real HIP one.
 * It turns the kernel dialect the chapters use into plain C++ and declares
 * the runtime of the executor in common/executor/, which runs every GPU
 * thread as a fiber on the host with real barrier and shuffle semantics. See
 * common/executor/README.md.
 *
 * Here is all a launch runs on the fibers: the kernel dialect, the atomics
 * and the launch's templates, so that the trace build, which skips this
 * file's lines, names a kernel's own line for an access or a basic block
 * (tracer/trace_symbols.cpp). The host's side of the runtime, which runs
 * outside launches, is in hipcpu_runtime_api.h, included below.
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
#include "../wave_size.h"

/* Included first, so that the macros below (e.g. __expf) cannot disturb the
 * declarations in these headers. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* printf in kernels */
#include <string.h>
#include <time.h> /* clock() and clock64() in kernels */

#include <type_traits>
#include <utility>

/* ---- Qualifiers ------------------------------------------------------------ */

/* The trace build names a launch after the kernel it runs, not the launch's
 * text (tracer/trace_symbols.cpp): each kernel is a function of its own, never
 * inlined into its launch, in a section of its own, so the first basic block
 * a launch enters there is the kernel's entry, and the functions there are
 * the program's kernels. */
#if defined(HIPCPU_TRACE) && HIPCPU_TRACE
#define __global__ __attribute__((noinline, section("hipcpu_kernels")))
#else
#define __global__
#endif
#define __device__
#define __host__
#define __constant__
#define __forceinline__ inline
#define __launch_bounds__(...)
/* Blocks of a launch run one after another on one OS thread, so a
 * function-static array is private to the running block. They all live in
 * one linker section, which the executor fills with 0xFF bytes when each
 * block starts (a GPU leaves garbage there too) and which the trace build
 * tells apart from global memory. */
#define __shared__ static __attribute__((section("hipcpu_shared")))
/* Dynamic shared memory: one area in the same section, as large as a CU's
 * LDS, sized per launch by its shared_bytes. `extern __shared__ T x[];` is
 * not C++ (static and extern): the front end (common/executor/front/) rewrites it
 * to this macro. */
extern "C" unsigned char hipcpu_dynamic_shared[];
#define HIP_DYNAMIC_SHARED(type, var) type *var = reinterpret_cast<type *>(hipcpu_dynamic_shared);
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#define __align__(n) alignas(n)

/* ---- Thread coordinates ---------------------------------------------------- */

struct dim3 {
    uint32_t x, y, z;
    constexpr dim3(uint32_t x_ = 1, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
};

/* The part of a fiber's record that kernels see. */
struct hipcpu_thread_view {
    dim3 index;
};

extern "C" {
extern const hipcpu_thread_view *hipcpu_current_thread; /* the running fiber */
extern dim3 hipcpu_block_idx, hipcpu_block_dim, hipcpu_grid_dim;
}

/* Read-only, like on the GPU. threadIdx follows the running fiber. */
#define threadIdx (hipcpu_current_thread->index)
#define blockIdx (static_cast<const dim3 &>(hipcpu_block_idx))
#define blockDim (static_cast<const dim3 &>(hipcpu_block_dim))
#define gridDim (static_cast<const dim3 &>(hipcpu_grid_dim))

#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

/* A constant, not a macro, so that hipDeviceProp_t can have a warpSize field. */
constexpr int warpSize = HIPCPU_WAVE_SIZE;

/* ---- Vector types ---------------------------------------------------------- */

/* float4 and friends as plain aggregates (trivially copyable, standard
 * layout, public x y z w), so that brace initialisation and
 * reinterpret_cast<const float4 *>(p)[i] work as in CUDA code. Alignment is
 * the GPU's: a float4 is one 16-byte load there, and one 16-byte access in
 * the trace build. No arithmetic operators: CUDA has none, and code written
 * against them would not build for NVIDIA. Three-component types have no
 * extra alignment (12 bytes), as in CUDA. */
#define HIPCPU_VECTOR2(name, T, align)                                                    \
    struct alignas(align) name {                                                          \
        T x, y;                                                                           \
    };                                                                                    \
    inline name make_##name(T x, T y) {                                                   \
        name v = {x, y};                                                                  \
        return v;                                                                         \
    }
#define HIPCPU_VECTOR3(name, T)                                                           \
    struct name {                                                                         \
        T x, y, z;                                                                        \
    };                                                                                    \
    inline name make_##name(T x, T y, T z) {                                              \
        name v = {x, y, z};                                                               \
        return v;                                                                         \
    }
#define HIPCPU_VECTOR4(name, T, align)                                                    \
    struct alignas(align) name {                                                          \
        T x, y, z, w;                                                                     \
    };                                                                                    \
    inline name make_##name(T x, T y, T z, T w) {                                         \
        name v = {x, y, z, w};                                                            \
        return v;                                                                         \
    }
HIPCPU_VECTOR4(char4, signed char, 4)
HIPCPU_VECTOR4(uchar4, unsigned char, 4)
HIPCPU_VECTOR2(int2, int, 8)
HIPCPU_VECTOR3(int3, int)
HIPCPU_VECTOR4(int4, int, 16)
HIPCPU_VECTOR2(uint2, unsigned int, 8)
HIPCPU_VECTOR3(uint3, unsigned int)
HIPCPU_VECTOR4(uint4, unsigned int, 16)
HIPCPU_VECTOR2(float2, float, 8)
HIPCPU_VECTOR3(float3, float)
HIPCPU_VECTOR4(float4, float, 16)
HIPCPU_VECTOR2(double2, double, 16)
#undef HIPCPU_VECTOR2
#undef HIPCPU_VECTOR3
#undef HIPCPU_VECTOR4

/* ---- Synchronisation ------------------------------------------------------- */

extern "C" void __syncthreads(void);
/* A call names its own line, for the message when only part of a block reaches it. */
extern "C" void hipcpu_syncthreads_at(const char *file, int line);
#define __syncthreads() hipcpu_syncthreads_at(__FILE__, __LINE__)

/* One OS thread runs everything, so fences only need to stop the compiler. */
inline void __threadfence(void) { __asm__ __volatile__("" ::: "memory"); }
inline void __threadfence_block(void) { __asm__ __volatile__("" ::: "memory"); }

/* ---- Wave operations ------------------------------------------------------- */

/* Every wave operation is a wave-wide sync point: all lanes of the wave must
 * call it (the runtime aborts otherwise). The value travels as 64 bits. */
enum {
    HIPCPU_SHFL_IDX,
    HIPCPU_SHFL_UP,
    HIPCPU_SHFL_DOWN,
    HIPCPU_SHFL_XOR,
    HIPCPU_WAVE_BALLOT,
    HIPCPU_WAVE_ANY,
    HIPCPU_WAVE_ALL,
    HIPCPU_WAVE_UNIFORM, /* not HIP: see hipcpu_wave_uniform; not counted as a shuffle */
    HIPCPU_WAVE_SYNC     /* the wave's own barrier (CUDA's __syncwarp); not counted as a shuffle */
};
extern "C" uint64_t hipcpu_wave_op(uint64_t value, int kind, int arg, int width);

template <typename T> inline T hipcpu_shuffle(T value, int kind, int arg, int width) {
    static_assert(sizeof(T) <= sizeof(uint64_t), "shuffled values are at most 64 bits");
    uint64_t bits = 0;
    memcpy(&bits, &value, sizeof value);
    bits = hipcpu_wave_op(bits, kind, arg, width);
    memcpy(&value, &bits, sizeof value);
    return value;
}

#define HIPCPU_SHUFFLES(T)                                                                 \
    inline T __shfl(T var, int src_lane, int width = warpSize) {                           \
        return hipcpu_shuffle(var, HIPCPU_SHFL_IDX, src_lane, width);                      \
    }                                                                                      \
    inline T __shfl_up(T var, unsigned int delta, int width = warpSize) {                  \
        return hipcpu_shuffle(var, HIPCPU_SHFL_UP, static_cast<int>(delta), width);                     \
    }                                                                                      \
    inline T __shfl_down(T var, unsigned int delta, int width = warpSize) {                \
        return hipcpu_shuffle(var, HIPCPU_SHFL_DOWN, static_cast<int>(delta), width);                   \
    }                                                                                      \
    inline T __shfl_xor(T var, int lane_mask, int width = warpSize) {                      \
        return hipcpu_shuffle(var, HIPCPU_SHFL_XOR, lane_mask, width);                     \
    }
HIPCPU_SHUFFLES(int)
HIPCPU_SHUFFLES(unsigned int)
HIPCPU_SHUFFLES(long)
HIPCPU_SHUFFLES(unsigned long)
HIPCPU_SHUFFLES(long long)
HIPCPU_SHUFFLES(unsigned long long)
HIPCPU_SHUFFLES(float)
HIPCPU_SHUFFLES(double)
#undef HIPCPU_SHUFFLES

inline unsigned long long __ballot(int predicate) {
    return hipcpu_wave_op(predicate != 0, HIPCPU_WAVE_BALLOT, 0, warpSize);
}
inline int __any(int predicate) {
    return static_cast<int>(hipcpu_wave_op(predicate != 0, HIPCPU_WAVE_ANY, 0, warpSize));
}
inline int __all(int predicate) {
    return static_cast<int>(hipcpu_wave_op(predicate != 0, HIPCPU_WAVE_ALL, 0, warpSize));
}
/* Not HIP: v, after checking that every lane of the wave holds the same v
 * (the runtime aborts, naming the lanes, otherwise). Chapters use it where a
 * GPU build asserts uniformity with __builtin_amdgcn_readfirstlane, which
 * would silently take lane 0's value if the claim were wrong. */
inline int hipcpu_wave_uniform(int v) {
    hipcpu_wave_op(static_cast<uint32_t>(v), HIPCPU_WAVE_UNIFORM, 0, warpSize);
    return v;
}

/* Not HIP: every lane of the wave waits here for the others (CUDA's
 * __syncwarp, which cuda_runtime.h maps onto it). The race check's phases
 * are the block's barriers: it does not take this one as a barrier. */
inline void hipcpu_syncwarp(void) { hipcpu_wave_op(0, HIPCPU_WAVE_SYNC, 0, warpSize); }

inline unsigned int __lane_id(void) {
    const dim3 &t = threadIdx, &b = blockDim;
    return (t.x + b.x * (t.y + b.y * t.z)) % warpSize;
}

/* ---- Atomics --------------------------------------------------------------- */

/* Fibers switch only inside __syncthreads and wave operations, so a plain
 * read-modify-write is atomic here. Each returns the old value.
 *
 * In the trace build the executor is told of each atomic first: it counts
 * it, and lets its read and write through as one atomic access, not as a
 * plain load and store. */
#if defined(HIPCPU_TRACE) && HIPCPU_TRACE /* as tracer/hooks.h reads it: -DHIPCPU_TRACE=0 is the plain build */
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

/* ---- Math and bit intrinsics ---------------------------------------------- */

/* glibc's <math.h> declares (but does not export) __expf and friends, so the
 * fast-math intrinsics are macros onto the precise functions. */
#define __expf(x) expf(x)
#define __exp10f(x) exp10f(x)
#define __logf(x) logf(x)
#define __log2f(x) log2f(x)
#define __log10f(x) log10f(x)
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __tanf(x) tanf(x)
#define __powf(x, y) powf(x, y)
#define __sincosf(x, s, c) sincosf(x, s, c)

inline float __fdividef(float x, float y) { return x / y; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline int __mul24(int x, int y) { return (int)((long long)(x << 8 >> 8) * (y << 8 >> 8)); }
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
/* A kernel's clock: clock() is the C library's (the process's CPU time);
 * clock64() and wall_clock64() count the host's monotonic nanoseconds. Each
 * says how long the executor took, not a GPU. */
inline long long clock64(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000000000LL + now.tv_nsec;
}
inline long long wall_clock64(void) { return clock64(); }
/* The read-only data cache's load: a plain load here (and in the trace, one access). */
template <typename T> inline T __ldg(const T *address) { return *address; }

inline unsigned int __float_as_uint(float x) { unsigned int u; memcpy(&u, &x, sizeof u); return u; }
inline int __float_as_int(float x) { int i; memcpy(&i, &x, sizeof i); return i; }
inline float __uint_as_float(unsigned int u) { float x; memcpy(&x, &u, sizeof x); return x; }
inline float __int_as_float(int i) { float x; memcpy(&x, &i, sizeof x); return x; }
inline long long __double_as_longlong(double x) { long long i; memcpy(&i, &x, sizeof i); return i; }
inline double __longlong_as_double(long long i) { double x; memcpy(&x, &i, sizeof x); return x; }

inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
    return (x >> 16) | (x << 16);
}

/* The min/max overloads HIP and CUDA provide for device code. */
#define HIPCPU_MINMAX(T)                                                                  \
    inline T min(T a, T b) { return b < a ? b : a; }                                      \
    inline T max(T a, T b) { return a < b ? b : a; }
HIPCPU_MINMAX(int)
HIPCPU_MINMAX(unsigned int)
HIPCPU_MINMAX(long)
HIPCPU_MINMAX(unsigned long)
HIPCPU_MINMAX(long long)

#include "hipcpu_runtime_api.h" /* the host's side: errors, devices, memory, streams, events, symbols, occupancy */

/* ---- Kernel launch ---------------------------------------------------------- */

#define HIPCPU_CAT2(a, b) a##b
#define HIPCPU_CAT(a, b) HIPCPU_CAT2(a, b)
#define hipcpu_launch HIPCPU_CAT(hipcpu_launch_wave, HIPCPU_WAVE_SIZE)

/* Runs body(invoke) once per thread of the grid, synchronously. An invalid
 * configuration runs nothing and sets the last error. */
extern "C" hipError_t hipcpu_launch(const char *kernel_name, dim3 grid, dim3 block,
                                    size_t shared_bytes, hipStream_t stream,
                                    void (*invoke)(void *), void *body);

template <typename Body> void hipcpu_invoke(void *body) { (*static_cast<Body *>(body))(); }

/* The arguments are evaluated once, as on a GPU, and kept by value; every
 * fiber then calls the kernel with them, so they convert to the parameter
 * types at that call (template kernels can deduce). One consequence: a
 * literal 0 or NULL has become an integer by then and does not convert to a
 * pointer parameter - pass nullptr. */
template <typename Call, typename... Args>
inline void hipcpu_launch_kernel(const char *kernel_name, Call call, dim3 grid, dim3 block,
                                 size_t shared_bytes, hipStream_t stream, Args... args) {
    auto body = [&]() { call(args...); };
    hipcpu_launch(kernel_name, grid, block, shared_bytes, stream, &hipcpu_invoke<decltype(body)>, &body);
}

/* hipLaunchCooperativeKernel(kernel, grid, block, args, shared_bytes,
 * stream): an ordinary launch, each argument read through its pointer in
 * args as the kernel's parameter type. Grid-wide sync is not supported (the
 * front end names it): blocks run one at a time. */
template <typename... Params, size_t... I>
inline void hipcpu_launch_from_pointers(void (*kernel)(Params...), dim3 grid, dim3 block, void **args,
                                        size_t shared_bytes, hipStream_t stream, std::index_sequence<I...>) {
    hipcpu_launch_kernel("hipLaunchCooperativeKernel", [kernel](const auto &...a) { kernel(a...); }, grid, block,
                         shared_bytes, stream, *static_cast<std::decay_t<Params> *>(args[I])...);
}
template <typename... Params>
inline hipError_t hipLaunchCooperativeKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void **args,
                                             unsigned int shared_bytes = 0, hipStream_t stream = 0) {
    if (!kernel || (sizeof...(Params) && !args)) return hipErrorInvalidValue;
    hipcpu_launch_from_pointers(kernel, grid, block, args, shared_bytes, stream,
                                std::index_sequence_for<Params...>{});
    return hipPeekAtLastError();
}
template <typename... Params>
inline hipError_t hipLaunchKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void **args,
                                  size_t shared_bytes = 0, hipStream_t stream = 0) {
    return hipLaunchCooperativeKernel(kernel, grid, block, args, unsigned(shared_bytes), stream);
}

/* hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, args...):
 * grid and block are dim3 or integers; shared_bytes sizes the dynamic
 * shared memory (HIP_DYNAMIC_SHARED); any stream behaves like the null stream. The launch has
 * completed when the statement ends. */
#define hipLaunchKernelGGL(kernel, ...)                                                    \
    hipcpu_launch_kernel(                                                                  \
        #kernel, [&](const auto &...hipcpu_arg_) { kernel(hipcpu_arg_...); }, __VA_ARGS__)

#define HIP_KERNEL_NAME(...) __VA_ARGS__

#endif
