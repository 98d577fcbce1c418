/* The GPU runtime the harness (harness.hip) and the models' harness files
 * (gpu_trainer.hip, mlp_trainer.hip) sit on, defined once in
 * gpu_runtime.hip: the platform's name and wave size, checked runtime calls
 * and launches (with a hook after each, gpu_events.h), device allocations
 * and uploads, events, and opening the device.
 *
 * With no GPU of the build's kind, the runtime's first call fails with a
 * message about drivers ("CUDA driver version is insufficient for CUDA
 * runtime version", hipErrorInvalidDevice). gpu_open_device asks for the
 * device count first and says what is missing instead, and how to run the
 * chapter on the CPU executor. */
#ifndef COMMON_GPU_RUNTIME_H
#define COMMON_GPU_RUNTIME_H

/* the executor's on the CPU platform, the NVIDIA mapping under nvcc, ROCm's under hipcc */
#include <hip/hip_runtime.h>
#include <stddef.h>

#include "gpu_events.h" /* gpu_event_*, gpu_set_after_launch: the plain C part */

/* The platform, as the reports and the bench TSV name it. */
#if defined(__HIPCPU__)
#define PLATFORM_NAME "cpu"
#elif defined(__CUDACC__) || defined(__HIP_PLATFORM_NVIDIA__)
#define PLATFORM_NAME "nvidia"
#else
#define PLATFORM_NAME "amd"
#endif

/* Lanes in a wave (AMD) or warp (NVIDIA): the one place it is derived per
 * platform. Kernels use WAVE_SIZE (or warpSize), never a literal.
 *
 * hipcc compiles a .hip file twice: a device pass, which knows the target's
 * wave size (__AMDGCN_WAVEFRONT_SIZE), and a host pass, which does not. Both
 * must agree, or the host launches blocks sized for one wave size at kernels
 * built for the other: so on AMD the Makefile passes HIP_WAVE_SIZE, derived
 * from GPU_ARCH (64 on gfx9, 32 on gfx10-12), to both passes, and the device
 * pass checks it. (The host pass defines __AMDGCN_WAVEFRONT_SIZE too, as 64
 * whatever the target: it cannot be used there.) The harness also checks it
 * against the device it runs on (check_wave_size). */
#if defined(__HIPCPU__)
#define WAVE_SIZE HIPCPU_WAVE_SIZE
#elif defined(__CUDACC__) || defined(__HIP_PLATFORM_NVIDIA__)
#define WAVE_SIZE 32
#else
#ifndef HIP_WAVE_SIZE
#error "HIP_WAVE_SIZE is not defined: pass -DHIP_WAVE_SIZE=64 for gfx9 targets, 32 for gfx10-12 (the Makefile does)"
#endif
#if defined(__HIP_DEVICE_COMPILE__) && __AMDGCN_WAVEFRONT_SIZE != HIP_WAVE_SIZE
#error "HIP_WAVE_SIZE differs from the target's wave size (__AMDGCN_WAVEFRONT_SIZE): set AMD_WAVE to match GPU_ARCH"
#endif
#define WAVE_SIZE HIP_WAVE_SIZE
#endif

/* Every runtime call is checked; the message names the call and where. */
#define HIP_CHECK(call) hip_check((call), #call, __FILE__, __LINE__)
/* After every launch: a bad configuration is reported with the kernel's name. */
#define HIP_CHECK_LAUNCH(kernel) hip_check_launch(#kernel, __FILE__, __LINE__)

#ifdef __cplusplus
extern "C" {
#endif

void hip_check(hipError_t status, const char *call, const char *file, int line);
void hip_check_launch(const char *kernel, const char *file, int line);

/* hipMalloc that names the buffer and its size when it fails. */
void *gpu_alloc(size_t bytes, const char *what);
void gpu_free(void *pointer);
/* gpu_alloc, then a copy of `bytes` from the host. */
void *upload(const void *host, size_t bytes, const char *what);

/* Exits with status 1 and says to rebuild when the device's wave size is not
 * the build's WAVE_SIZE. */
void check_wave_size(int device_wave_size, const char *device_name);

/* The device the harness trains on: its properties and a name for the
 * header ("AMD Radeon Pro VII (gfx906:sramecc+:xnack-)"). Exits with status 1
 * and a message naming `chapter` ("01-naive-gemm") when none is visible;
 * checks the wave size. */
void gpu_open_device(const char *chapter, hipDeviceProp_t *properties, char *device_name,
                     size_t name_size);

#ifdef __cplusplus
}
#endif

#endif
