/* The GPU runtime of the harness (see gpu_runtime.h). Compiled per
 * platform by the same compiler as the chapters: hipcc, nvcc, or the C++
 * compiler with the CPU executor's headers. */
#include "gpu_runtime.h"

#include <stdio.h>
#include <stdlib.h>

#include "errors.h"

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

void (*gpu_after_launch)(const char *kernel) = NULL;

void hip_check(hipError_t status, const char *call, const char *file, int line)
{
    if (status == hipSuccess) return;
    fprintf(stderr, "%s: %s:%d: %s failed: %s\n", program_name, file, line, call,
            hipGetErrorString(status));
    exit(1);
}

void hip_check_launch(const char *kernel, const char *file, int line)
{
    hipError_t status = hipGetLastError();
    if (status == hipSuccess) {
        if (gpu_after_launch) gpu_after_launch(kernel);
        return;
    }
    fprintf(stderr, "%s: %s:%d: launch of kernel '%s' failed: %s\n", program_name, file, line,
            kernel, hipGetErrorString(status));
    exit(1);
}

void *gpu_alloc(size_t bytes, const char *what)
{
    void *pointer = NULL;
    hipError_t status = hipMalloc(&pointer, bytes);
    if (status != hipSuccess) {
        fprintf(stderr, "%s: hipMalloc of %s (%zu bytes) failed: %s\n", program_name, what, bytes,
                hipGetErrorString(status));
        exit(1);
    }
#if defined(__HIPCPU__)
    hipcpu_name_allocation(pointer, what); /* the trace build's messages name it */
#endif
    return pointer;
}

void gpu_free(void *pointer)
{
    if (pointer) HIP_CHECK(hipFree(pointer));
}

void *upload(const void *host, size_t bytes, const char *what)
{
    void *device = gpu_alloc(bytes, what);
    HIP_CHECK(hipMemcpy(device, host, bytes, hipMemcpyHostToDevice));
    return device;
}

/* A build for one wave size on a device of the other would launch blocks
 * that do not match its kernels. */
void check_wave_size(int device_wave_size, const char *device_name)
{
    if (device_wave_size != WAVE_SIZE)
        fatal(1, "this build assumes %d lanes per wave, but %s runs %d: rebuild for it "
              "(AMD: GPU_ARCH=<its gfx name>, which sets AMD_WAVE)", WAVE_SIZE, device_name,
              device_wave_size);
}

void gpu_open_device(const char *chapter, hipDeviceProp_t *properties, char *device_name,
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
