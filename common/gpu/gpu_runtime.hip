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

static gpu_launch_hook after_launch;
static void *after_launch_context;

void gpu_set_after_launch(gpu_launch_hook hook, void *context)
{
    after_launch = hook;
    after_launch_context = context;
}

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
        if (after_launch) after_launch(after_launch_context, kernel);
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

struct gpu_event {
    hipEvent_t event;
};

gpu_event *gpu_event_create(void)
{
    gpu_event *event = (gpu_event *)malloc(sizeof *event);
    if (!event) fatal(1, "out of host memory for a GPU event");
    HIP_CHECK(hipEventCreate(&event->event));
    return event;
}

void gpu_event_destroy(gpu_event *event)
{
    if (!event) return;
    HIP_CHECK(hipEventDestroy(event->event));
    free(event);
}

void gpu_event_record(gpu_event *event)
{
    HIP_CHECK(hipEventRecord(event->event, 0));
}

void gpu_event_wait(gpu_event *event)
{
    HIP_CHECK(hipEventSynchronize(event->event));
}

float gpu_event_elapsed_ms(gpu_event *start, gpu_event *end)
{
    float ms = 0.0f;
    HIP_CHECK(hipEventElapsedTime(&ms, start->event, end->event));
    return ms;
}

int gpu_events_on_host_clock(void)
{
#if defined(__HIPCPU__)
    return 1;
#else
    return 0;
#endif
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
