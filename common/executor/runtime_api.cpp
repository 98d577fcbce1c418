/* The HIP runtime API the chapters use, on the host: memory, devices and
 * their properties, occupancy, streams, events, symbols, errors. Launches run
 * to their end before they return, so every stream has always finished.
 * executor_internal.h: the parts. */
#include "executor_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace hipcpu_exec {

using namespace hipcpu_limits;

static thread_local hipError_t last_error = hipSuccess;
static hipError_t sticky = hipSuccess;

hipError_t record(hipError_t e) {
    if (e != hipSuccess) last_error = e;
    return e;
}

hipError_t sticky_error() { return sticky; }
void set_sticky_error(hipError_t e) { sticky = record(e); }

} /* namespace hipcpu_exec */

using namespace hipcpu_exec;

struct ihipStream_t {
    int unused;
};

struct ihipEvent_t {
    long long ns; /* CLOCK_MONOTONIC */
    bool recorded;
};

static long long now_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* HIPCPU_FAIL_ALLOC=N: the N-th hipMalloc call fails. The variable is read
 * at every call and the count restarts whenever its value changes, so a
 * program or a test may set it at any time: the N-th call after that fails. */
static bool inject_alloc_failure() {
    static std::mutex mutex;
    static char seen[32];
    static unsigned long long calls;
    std::lock_guard<std::mutex> lock(mutex);
    const char *value = hipcpu_setting_text(hipcpu_env::HIPCPU_FAIL_ALLOC);
    if (strncmp(value, seen, sizeof seen - 1) != 0) {
        snprintf(seen, sizeof seen, "%s", value);
        calls = 0;
    }
    calls++;
    if (*value == '\0') return false;
    return hipcpu_setting_value(hipcpu_env::HIPCPU_FAIL_ALLOC) == calls;
}

/* The live hipMalloc allocations, by start address. A copy or a fill that starts inside one and
 * runs past its end, or a hipFree of anything but a live allocation's start, is a learner's bug
 * that would otherwise write over the executor's own heap (glibc's abort, far from the cause):
 * each stops the program with one message naming the call, the range and the allocation. */
static std::mutex allocations_lock;
static std::map<uintptr_t, size_t> allocations;

/* The allocation holding p: its start and size, or false. */
static bool allocation_of(const void *p, uintptr_t *start, size_t *size) {
    std::lock_guard<std::mutex> hold(allocations_lock);
    auto it = allocations.upper_bound(uintptr_t(p));
    if (it == allocations.begin()) return false;
    --it;
    if (uintptr_t(p) - it->first >= it->second) return false;
    *start = it->first;
    *size = it->second;
    return true;
}

/* " at file.hip:12": the program's line that called the runtime at return address pc, for a message
 * (addr2line: only when there is one to write). */
struct CallerLine {
    char text[560];
    explicit CallerLine(const void *pc) {
        char line[512];
        source_line_of(uintptr_t(pc) - 1, line, sizeof line);
        snprintf(text, sizeof text, "%s%s", line[0] ? " at " : "", line);
    }
};

/* CALL's WHICH range [p, p + n), where it starts inside an allocation, must end inside it too. */
static void check_range(const char *call, const char *which, const void *p, size_t n, const void *caller) {
    uintptr_t start;
    size_t size;
    if (!n || !allocation_of(p, &start, &size)) return;
    const size_t offset = uintptr_t(p) - start;
    if (n > size - offset)
        hipcpu_die("%s%s: its %s, %zu bytes from offset %zu of a %zu-byte hipMalloc allocation (%p), runs %zu bytes "
                   "past the allocation's end", call, CallerLine(caller).text, which, n, offset, size, (void *)start,
                   n - (size - offset));
}

extern "C" {

hipError_t hipMalloc(void **ptr, size_t size) {
    if (!ptr) return record(hipErrorInvalidValue);
    *ptr = nullptr;
    if (inject_alloc_failure()) return record(hipErrorOutOfMemory);
    if (size == 0) return hipSuccess;
    /* GPU allocations are 256-byte aligned. Large ones get transparent huge
     * pages where the kernel offers them: touching a big buffer page by page
     * can cost more than the kernels that use it. Exactly `size` bytes are
     * allocated, not a rounded-up size, so that AddressSanitizer reports an
     * access one past the end. */
    const size_t huge = size_t(2) << 20, align = size >= huge ? huge : 256;
    /* make sanitize: a red zone each side, where an overrun lands and is named (tracer/trace_memcheck.cpp) */
    const size_t zone = hipcpu_hooks::redzone(align);
    if (size > SIZE_MAX - 2 * zone) return record(hipErrorOutOfMemory);
    void *raw = nullptr;
    if (posix_memalign(&raw, align, size + 2 * zone) != 0) return record(hipErrorOutOfMemory);
    void *p = static_cast<char *>(raw) + zone;
#ifdef MADV_HUGEPAGE
    if (align == huge) madvise(p, size, MADV_HUGEPAGE); /* a hint: failure is harmless */
#endif
    memset(p, 0xFF, size); /* device memory starts as garbage, not zeros: NaN, -1 */
    *ptr = p;
    {
        std::lock_guard<std::mutex> hold(allocations_lock);
        allocations[uintptr_t(p)] = size;
    }
    hipcpu_hooks::allocated(p, size, zone);
    return hipSuccess;
}

hipError_t hipFree(void *ptr) {
    if (!ptr) return hipSuccess;
    {
        std::lock_guard<std::mutex> hold(allocations_lock);
        auto it = allocations.find(uintptr_t(ptr));
        if (it == allocations.end())
            hipcpu_die("hipFree(%p)%s: not a pointer hipMalloc returned, or one freed already (a double free)", ptr,
                       CallerLine(__builtin_return_address(0)).text);
        allocations.erase(it);
    }
    if (!hipcpu_hooks::freeing(ptr)) free(ptr); /* make sanitize keeps it, red zones and all, never reused */
    return hipSuccess;
}

void hipcpu_name_allocation(const void *ptr, const char *name) {
    hipcpu_hooks::named(ptr, name);
}

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int) {
    if (!ptr) return record(hipErrorInvalidValue);
    *ptr = size ? malloc(size) : nullptr;
    return size && !*ptr ? record(hipErrorOutOfMemory) : hipSuccess;
}

hipError_t hipHostFree(void *ptr) {
    free(ptr);
    return hipSuccess;
}

hipError_t hipMemcpy(void *dst, const void *src, size_t size, hipMemcpyKind kind) {
    if (sticky != hipSuccess) return sticky;
    if (unsigned(kind) > hipMemcpyDefault || (size && (!dst || !src))) return record(hipErrorInvalidValue);
    const void *caller = __builtin_return_address(0);
    check_range("hipMemcpy", "destination", dst, size, caller);
    check_range("hipMemcpy", "source", src, size, caller);
    hipcpu_hooks::host_range(src, size, false, "hipMemcpy", caller);
    hipcpu_hooks::host_range(dst, size, true, "hipMemcpy", caller);
    if (size) memcpy(dst, src, size);
    return hipSuccess;
}

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t size, hipMemcpyKind kind, hipStream_t) {
    return hipMemcpy(dst, src, size, kind);
}

hipError_t hipMemset(void *dst, int value, size_t size) {
    if (sticky != hipSuccess) return sticky;
    if (size && !dst) return record(hipErrorInvalidValue);
    const void *caller = __builtin_return_address(0);
    check_range("hipMemset", "range", dst, size, caller);
    hipcpu_hooks::host_range(dst, size, true, "hipMemset", caller);
    if (size) memset(dst, value, size);
    return hipSuccess;
}

hipError_t hipMemsetAsync(void *dst, int value, size_t size, hipStream_t) {
    return hipMemset(dst, value, size);
}

hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
    if (!free_bytes || !total_bytes) return record(hipErrorInvalidValue);
    const long page = sysconf(_SC_PAGESIZE), total = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES);
    *total_bytes = total > 0 ? size_t(total) * size_t(page) : 0;
    *free_bytes = avail > 0 ? size_t(avail) * size_t(page) : 0;
    return hipSuccess;
}

hipError_t hipDeviceSynchronize(void) { return sticky; } /* launches are synchronous */
hipError_t hipDeviceReset(void) { return hipSuccess; }

hipError_t hipGetDeviceCount(int *count) {
    if (!count) return record(hipErrorInvalidValue);
    *count = 1;
    return hipSuccess;
}

hipError_t hipSetDevice(int device) { return device == 0 ? hipSuccess : record(hipErrorInvalidDevice); }

hipError_t hipGetDevice(int *device) {
    if (!device) return record(hipErrorInvalidValue);
    *device = 0;
    return hipSuccess;
}

/* The CUs the executor reports: HIPCPU_COMPUTE_UNITS, by default gfx906's
 * (device_limits.h says why). */
static int compute_units() {
    return int(hipcpu_setting_value(hipcpu_env::HIPCPU_COMPUTE_UNITS));
}

extern "C" hipError_t hipcpu_occupancy(int *blocks, int block_size) {
    if (!blocks || block_size < 1 || unsigned(block_size) > kMaxThreads) return record(hipErrorInvalidValue);
    *blocks = 1;
    return hipSuccess;
}

/* The blocks of this size resident on one CU of the modelled device
 * (device_limits.h): waves, blocks and LDS per CU; registers not counted. */
static int blocks_per_cu(int block_size, size_t dynamic_shared) {
    const int waves = (block_size + int(kWave) - 1) / int(kWave);
    int blocks = std::min(kWavesPerCu / waves, waves == 1 ? kOneWaveBlocksPerCu : kBlocksPerCu);
    const size_t lds = static_shared_bytes() + dynamic_shared + kLdsReservedPerBlock;
    if (lds) blocks = std::min<size_t>(blocks, kLdsPerCu / lds);
    return blocks;
}

extern "C" hipError_t hipcpu_occupancy_limits(int *blocks, int block_size, size_t dynamic_shared) {
    if (!blocks || block_size < 1 || unsigned(block_size) > kMaxThreads) return record(hipErrorInvalidValue);
    *blocks = blocks_per_cu(block_size, dynamic_shared);
    return hipSuccess;
}

/* The block size (a power of two from a wave to the limit) with the most
 * waves resident per CU, the largest of equals; the grid that fills every CU. */
extern "C" hipError_t hipcpu_occupancy_block_size(int *grid_size, int *block_size, size_t dynamic_shared, int limit) {
    if (!grid_size || !block_size || limit < 0) return record(hipErrorInvalidValue);
    const int most = limit == 0 || unsigned(limit) > kMaxThreads ? int(kMaxThreads) : limit;
    int best = 0, best_waves = -1;
    for (int size = int(kWave) <= most ? int(kWave) : most; size <= most; size *= 2) {
        const int waves = blocks_per_cu(size, dynamic_shared) * ((size + int(kWave) - 1) / int(kWave));
        if (waves >= best_waves && blocks_per_cu(size, dynamic_shared) > 0) best = size, best_waves = waves;
    }
    if (best == 0) return record(hipErrorInvalidValue);
    *block_size = best;
    *grid_size = blocks_per_cu(best, dynamic_shared) * compute_units();
    return hipSuccess;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device) {
    if (!prop) return record(hipErrorInvalidValue);
    if (device != 0) return record(hipErrorInvalidDevice);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "HIP CPU executor (wave%u)", kWave);
    snprintf(prop->gcnArchName, sizeof prop->gcnArchName, "cpu");
    size_t free_bytes;
    hipMemGetInfo(&free_bytes, &prop->totalGlobalMem);
    prop->sharedMemPerBlock = kLdsBytes;
    prop->regsPerBlock = kRegistersPerBlock;
    prop->warpSize = warpSize;
    prop->maxThreadsPerBlock = int(kMaxThreads);
    prop->maxThreadsDim[0] = int(kMaxBlockDimX);
    prop->maxThreadsDim[1] = int(kMaxBlockDimY);
    prop->maxThreadsDim[2] = int(kMaxBlockDimZ);
    prop->maxGridSize[0] = int(kMaxGridDimX);
    prop->maxGridSize[1] = int(kMaxGridDimY);
    prop->maxGridSize[2] = int(kMaxGridDimZ);
    prop->clockRate = 1000000; /* nominal */
    prop->memoryClockRate = 1000000;
    prop->memoryBusWidth = 64;
    prop->totalConstMem = kConstantBytes;
    /* At wave 32 the executor stands for an H100 (sm_90), which CUDA code may ask for. */
    prop->major = kWave == 32 ? 9 : 1;
    prop->minor = 0;
    prop->multiProcessorCount = compute_units();
    prop->maxThreadsPerMultiProcessor = kWavesPerCu * int(kWave); /* the modelled device's: 2560 on gfx906 */
    prop->maxSharedMemoryPerMultiProcessor = kLdsPerCu;
    prop->l2CacheSize = kL2Bytes;
    prop->concurrentKernels = 1;
    prop->integrated = 1;
    prop->canMapHostMemory = 1;
    prop->unifiedAddressing = 1;
    prop->managedMemory = 1;
    prop->cooperativeLaunch = 1;
    prop->sharedMemPerBlockOptin = kLdsBytes;
    prop->sharedMemPerMultiprocessor = kLdsPerCu;
    prop->regsPerMultiprocessor = kRegistersPerBlock;
    prop->memPitch = size_t(1) << 31;
    prop->textureAlignment = 512;
    return hipSuccess;
}

hipError_t hipStreamCreate(hipStream_t *stream) {
    if (!stream) return record(hipErrorInvalidValue);
    *stream = static_cast<hipStream_t>(calloc(1, sizeof(ihipStream_t)));
    return *stream ? hipSuccess : record(hipErrorOutOfMemory);
}

hipError_t hipStreamDestroy(hipStream_t stream) {
    free(stream);
    return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t) { return sticky; }
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int) { return hipStreamCreate(stream); }
hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t event, unsigned int) {
    return event ? hipSuccess : record(hipErrorInvalidHandle);
}
hipError_t hipStreamQuery(hipStream_t) { return hipSuccess; } /* every stream has finished */
hipError_t hipMallocHost(void **ptr, size_t size) { return hipHostMalloc(ptr, size, 0); }
hipError_t hipFreeHost(void *ptr) { return hipHostFree(ptr); }

/* The attributes hipGetDeviceProperties reports, one at a time. */
hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attribute, int device) {
    if (!value) return record(hipErrorInvalidValue);
    hipDeviceProp_t p;
    if (hipGetDeviceProperties(&p, device) != hipSuccess) return hipErrorInvalidDevice;
    switch (attribute) {
    case hipDeviceAttributeMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case hipDeviceAttributeMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case hipDeviceAttributeMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case hipDeviceAttributeMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case hipDeviceAttributeMaxGridDimX: *value = p.maxGridSize[0]; break;
    case hipDeviceAttributeMaxGridDimY: *value = p.maxGridSize[1]; break;
    case hipDeviceAttributeMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
    case hipDeviceAttributeSharedMemPerBlockOptin: *value = int(p.sharedMemPerBlock); break;
    case hipDeviceAttributeTotalConstantMemory: *value = int(p.totalConstMem); break;
    case hipDeviceAttributeWarpSize: *value = p.warpSize; break;
    case hipDeviceAttributeMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case hipDeviceAttributeClockRate: *value = p.clockRate; break;
    case hipDeviceAttributeMemoryClockRate: *value = p.memoryClockRate; break;
    case hipDeviceAttributeMemoryBusWidth: *value = p.memoryBusWidth; break;
    case hipDeviceAttributeMultiprocessorCount: *value = p.multiProcessorCount; break;
    case hipDeviceAttributeComputeCapabilityMajor: *value = p.major; break;
    case hipDeviceAttributeComputeCapabilityMinor: *value = p.minor; break;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: *value = int(p.maxSharedMemoryPerMultiProcessor); break;
    case hipDeviceAttributeL2CacheSize: *value = p.l2CacheSize; break;
    case hipDeviceAttributeIntegrated: *value = p.integrated; break;
    case hipDeviceAttributeConcurrentKernels: *value = p.concurrentKernels; break;
    case hipDeviceAttributeCooperativeLaunch: *value = 1; break; /* grid sync itself is refused by the front end */
    case hipDeviceAttributeCooperativeMultiDeviceLaunch: *value = 0; break;
    case hipDeviceAttributeManagedMemory:
    case hipDeviceAttributeUnifiedAddressing: *value = 1; break;
    case hipDeviceAttributeComputeMode: *value = hipComputeModeDefault; break;
    case hipDeviceAttributeCanMapHostMemory: *value = p.canMapHostMemory; break;
    case hipDeviceAttributeAsyncEngineCount: *value = p.asyncEngineCount; break;
    default: return record(hipErrorInvalidValue);
    }
    return hipSuccess;
}

/* __device__ globals met by the host API (HIP_SYMBOL): a buffer of the trace
 * build, once, named after the variable or, for a bare symbol, by the symbol
 * table. */
void hipcpu_register_symbol(const void *address, size_t size, const char *name) {
    static std::mutex mutex;
    static std::vector<const void *> seen;
    std::lock_guard<std::mutex> lock(mutex);
    if (!address || !size || std::find(seen.begin(), seen.end(), address) != seen.end()) return;
    seen.push_back(address);
    hipcpu_hooks::allocated(const_cast<void *>(address), size);
    if (name) hipcpu_hooks::named(address, name);
}

/* hipMalloc's first argument as written, "&d_x" or "(void **)&d_x", to "d_x". */
void hipcpu_name_from_text(const void *ptr, const char *text) {
    if (!ptr || !text) return;
    const char *amp = strrchr(text, '&');
    std::string name = amp ? amp + 1 : text;
    while (!name.empty() && (name[0] == ' ' || name[0] == '(')) name.erase(0, 1);
    while (!name.empty() && (name.back() == ' ' || name.back() == ')')) name.pop_back();
    if (!name.empty()) hipcpu_hooks::named(ptr, name.c_str());
}

hipError_t hipEventCreate(hipEvent_t *event) {
    if (!event) return record(hipErrorInvalidValue);
    *event = static_cast<hipEvent_t>(calloc(1, sizeof(ihipEvent_t)));
    return *event ? hipSuccess : record(hipErrorOutOfMemory);
}

hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned int) { return hipEventCreate(event); }

hipError_t hipEventDestroy(hipEvent_t event) {
    if (!event) return record(hipErrorInvalidHandle);
    free(event);
    return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t) {
    if (!event) return record(hipErrorInvalidHandle);
    event->ns = now_ns();
    event->recorded = true;
    return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t event) { return event ? sticky : record(hipErrorInvalidHandle); }
hipError_t hipEventQuery(hipEvent_t event) { return event ? hipSuccess : record(hipErrorInvalidHandle); }

hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
    if (!ms) return record(hipErrorInvalidValue);
    if (!start || !stop || !start->recorded || !stop->recorded) return record(hipErrorInvalidHandle);
    *ms = float(double(stop->ns - start->ns) / 1e6);
    return hipSuccess;
}

hipError_t hipGetLastError(void) {
    hipError_t e = last_error;
    last_error = sticky; /* a sticky error is never cleared */
    return e;
}

hipError_t hipPeekAtLastError(void) { return last_error; }

hipError_t hipMallocManaged(void **ptr, size_t size, unsigned int flags) {
    if (flags != hipMemAttachGlobal && flags != hipMemAttachHost) return record(hipErrorInvalidValue);
    return (hipMalloc)(ptr, size); /* device memory is host memory here */
}
hipError_t hipHostRegister(void *ptr, size_t size, unsigned int) {
    return ptr && size ? hipSuccess : record(hipErrorInvalidValue);
}
hipError_t hipHostUnregister(void *ptr) { return ptr ? hipSuccess : record(hipErrorInvalidValue); }
hipError_t hipHostGetDevicePointer(void **device_ptr, void *host_ptr, unsigned int) {
    if (!device_ptr || !host_ptr) return record(hipErrorInvalidValue);
    *device_ptr = host_ptr; /* one memory */
    return hipSuccess;
}
hipError_t hipSetDeviceFlags(unsigned int flags) {
    return flags <= (hipDeviceScheduleBlockingSync | hipDeviceMapHost) ? hipSuccess : record(hipErrorInvalidValue);
}
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t) { return hipSuccess; }
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig) { return hipSuccess; }
/* The CUDA runtime API version whose names cuda_runtime.h maps (12.0), for both. */
hipError_t hipDriverGetVersion(int *version) {
    if (!version) return record(hipErrorInvalidValue);
    *version = 12000;
    return hipSuccess;
}
hipError_t hipRuntimeGetVersion(int *version) { return hipDriverGetVersion(version); }
hipError_t hipcpu_func_attributes(hipFuncAttributes *attributes) {
    if (!attributes) return record(hipErrorInvalidValue);
    memset(attributes, 0, sizeof *attributes);
    attributes->sharedSizeBytes = static_shared_bytes();
    attributes->maxThreadsPerBlock = int(kMaxThreads);
    attributes->maxDynamicSharedSizeBytes = int(kLdsBytes - static_shared_bytes());
    attributes->preferredShmemCarveout = -1;
    return hipSuccess;
}

static const struct {
    hipError_t code;
    const char *name, *text;
} error_table[] = {
    {hipSuccess, "hipSuccess", "no error"},
    {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
    {hipErrorNotInitialized, "hipErrorNotInitialized", "initialization error"},
    {hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration", "invalid configuration argument"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal"},
    {hipErrorInvalidHandle, "hipErrorInvalidHandle", "invalid resource handle"},
    {hipErrorNotReady, "hipErrorNotReady", "device not ready"},
    {hipErrorAssert, "hipErrorAssert", "device-side assert triggered"},
    {hipErrorLaunchFailure, "hipErrorLaunchFailure", "unspecified launch failure"},
    {hipErrorNotSupported, "hipErrorNotSupported", "operation not supported"},
    {hipErrorUnknown, "hipErrorUnknown", "unknown error"},
};

const char *hipGetErrorName(hipError_t error) {
    for (const auto &e : error_table)
        if (e.code == error) return e.name;
    return "hipErrorUnknown";
}

const char *hipGetErrorString(hipError_t error) {
    for (const auto &e : error_table)
        if (e.code == error) return e.text;
    return "unknown error";
}

} /* extern "C" */
