/* Opening the device: the same for both GPU harnesses (gpu_trainer.hip and
 * mlp_trainer.hip), which include this header once each.
 *
 * With no GPU of the build's kind, the runtime's first call fails with a
 * message about drivers ("CUDA driver version is insufficient for CUDA
 * runtime version", hipErrorInvalidDevice). gpu_open_device asks for the
 * device count first and says what is missing instead, and how to run the
 * chapter on the CPU executor. */
#ifndef COMMON_GPU_RUNTIME_H
#define COMMON_GPU_RUNTIME_H

#include <stdio.h>
#include <stdlib.h>

#include "errors.h"
#include "gpu_trainer.h"

#if defined(__HIPCPU__)
#define GPU_RUNTIME_KIND "CPU executor"
#define GPU_RUNTIME_NAME "HIP CPU executor"
#define GPU_RUNTIME_COUNT_CALL "hipGetDeviceCount"
#elif defined(__CUDACC__) || defined(__HIP_PLATFORM_NVIDIA__)
#define GPU_RUNTIME_KIND "NVIDIA"
#define GPU_RUNTIME_NAME "CUDA"
#define GPU_RUNTIME_COUNT_CALL "cudaGetDeviceCount" /* what hipGetDeviceCount is on nvcc */
#else
#define GPU_RUNTIME_KIND "AMD"
#define GPU_RUNTIME_NAME "HIP"
#define GPU_RUNTIME_COUNT_CALL "hipGetDeviceCount"
#endif

/* A build for one wave size on a device of the other would launch blocks
 * that do not match its kernels. */
static void check_wave_size(int device_wave_size, const char *device_name)
{
    if (device_wave_size != WAVE_SIZE)
        fatal(1, "this build assumes %d lanes per wave, but %s runs %d: rebuild for it "
              "(AMD: GPU_ARCH=<its gfx name>, which sets AMD_WAVE)", WAVE_SIZE, device_name,
              device_wave_size);
}

/* The device the harness trains on: its properties and a name for the
 * header ("AMD Radeon Pro VII (gfx906:sramecc+:xnack-)"). Exits with status 1
 * and a message naming `chapter` ("01-naive-gemm") when none is visible. */
static void gpu_open_device(const char *chapter, hipDeviceProp_t *properties, char *device_name,
                            size_t name_size)
{
    int count = 0;
    hipError_t status = hipGetDeviceCount(&count);
    if (status != hipSuccess || count < 1) {
        fprintf(stderr, "%s: no " GPU_RUNTIME_KIND " GPU is visible to the " GPU_RUNTIME_NAME
                " runtime (" GPU_RUNTIME_COUNT_CALL ": %s)\n",
                program_name, status != hipSuccess ? hipGetErrorString(status) : "0 devices");
        fprintf(stderr, "%s: without a GPU, train chapter %.2s on the CPU executor: "
                "make chapter-%d HIP_PLATFORM=cpu\n",
                program_name, chapter, atoi(chapter));
        exit(1);
    }
    int device = 0;
    HIP_CHECK(hipGetDevice(&device));
    HIP_CHECK(hipGetDeviceProperties(properties, device));
#if defined(__HIPCPU__) || defined(__CUDACC__) || defined(__HIP_PLATFORM_NVIDIA__)
    snprintf(device_name, name_size, "%s", properties->name);
#else
    snprintf(device_name, name_size, "%s (%s)", properties->name, properties->gcnArchName);
#endif
    check_wave_size(properties->warpSize, device_name);
}

#endif
