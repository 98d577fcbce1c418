/* The host's side of the HIP runtime for the CPU platform, part of
 * hip/hip_runtime.h (which includes it): errors, devices and their
 * properties, memory, streams, events, __device__ symbols, occupancy.
 * Only host code calls what is here; what a launch runs on the fibers (the
 * kernel dialect, the atomics, the launch's own templates) stays in
 * hip_runtime.h, whose lines the trace build takes for the executor's and
 * skips when it names a kernel's source line. common/executor/runtime_api.cpp
 * defines what is not inline. */
#ifndef HIPCPU_RUNTIME_API_H
#define HIPCPU_RUNTIME_API_H

#ifndef HIPCPU_HIP_RUNTIME_H
#error "include <hip/hip_runtime.h>, which includes this header"
#endif

#undef HIPCPU_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }

/* ---- Runtime API ------------------------------------------------------------ */

typedef enum hipError_t {
    hipSuccess = 0,
    hipErrorInvalidValue = 1,
    hipErrorOutOfMemory = 2,
    hipErrorMemoryAllocation = 2,
    hipErrorNotInitialized = 3,
    hipErrorInvalidConfiguration = 9,
    hipErrorInvalidDevice = 101,
    hipErrorInvalidHandle = 400,
    hipErrorInvalidResourceHandle = 400,
    hipErrorNotReady = 600,
    hipErrorAssert = 710, /* a kernel's assert failed: sticky, as on a GPU */
    hipErrorLaunchFailure = 719,
    hipErrorNotSupported = 801,
    hipErrorUnknown = 999
} hipError_t;

typedef enum hipMemcpyKind {
    hipMemcpyHostToHost = 0,
    hipMemcpyHostToDevice = 1,
    hipMemcpyDeviceToHost = 2,
    hipMemcpyDeviceToDevice = 3,
    hipMemcpyDefault = 4
} hipMemcpyKind;

/* The limits the executor reports are those of common/executor/device_limits.h:
 * a block's (1024 threads, 64 KiB of shared memory) and the modelled
 * device's per CU (gfx906's at wave 64, an H100's at wave 32). */
typedef struct hipDeviceProp_t {
    char name[256];                /* "HIP CPU executor (wave64)" */
    size_t totalGlobalMem;         /* the host's physical memory */
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;                 /* kHz (nominal: 1 GHz) */
    int memoryClockRate;           /* kHz */
    int memoryBusWidth;            /* bits */
    size_t totalConstMem;
    int major, minor;
    int multiProcessorCount;       /* HIPCPU_COMPUTE_UNITS, by default gfx906's 60 CUs */
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    int computeMode;
    int concurrentKernels;
    size_t maxSharedMemoryPerMultiProcessor;
    int integrated;
    int canMapHostMemory;          /* 1: device memory is host memory */
    int deviceOverlap, asyncEngineCount; /* 0: copies run in order with the launches */
    int unifiedAddressing, managedMemory;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int kernelExecTimeoutEnabled, ECCEnabled, pciBusID, pciDeviceID, pciDomainID;
    size_t memPitch, textureAlignment;
    char gcnArchName[256];         /* "cpu" */
} hipDeviceProp_t;

typedef struct ihipStream_t *hipStream_t; /* every stream behaves like the null stream */
typedef struct ihipEvent_t *hipEvent_t;

#define hipEventDefault 0u
#define hipHostMallocDefault 0u

extern "C" {
hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipFree(void *ptr);
hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags = 0);
hipError_t hipHostFree(void *ptr);
hipError_t hipMemcpy(void *dst, const void *src, size_t size, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t size, hipMemcpyKind kind,
                          hipStream_t stream = 0);
hipError_t hipMemset(void *dst, int value, size_t size);
hipError_t hipMemsetAsync(void *dst, int value, size_t size, hipStream_t stream = 0);
hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total_bytes);

hipError_t hipDeviceSynchronize(void);
hipError_t hipDeviceReset(void);
hipError_t hipGetDeviceCount(int *count);
hipError_t hipSetDevice(int device);
hipError_t hipGetDevice(int *device);
hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device);

hipError_t hipStreamCreate(hipStream_t *stream);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);

hipError_t hipEventCreate(hipEvent_t *event);
hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned int flags);
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = 0);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);

hipError_t hipGetLastError(void);  /* returns the last error and resets it */
hipError_t hipPeekAtLastError(void);
const char *hipGetErrorString(hipError_t error);
const char *hipGetErrorName(hipError_t error);

/* Not HIP: gives a device allocation a name for the trace build's messages
 * (e.g. "x_rows"); does nothing in other builds. */
void hipcpu_name_allocation(const void *ptr, const char *name);
}

/* Streams run in order: a launch or copy has completed when its call returns,
 * whatever stream it names, so synchronising does nothing. */
#define hipStreamDefault 0x00u
#define hipStreamNonBlocking 0x01u
#define hipHostMallocMapped 0x02u
#define hipHostMallocPortable 0x01u
#define hipHostMallocWriteCombined 0x04u
#define hipEventBlockingSync 0x01u
#define hipEventDisableTiming 0x02u

typedef enum hipDeviceAttribute_t {
    hipDeviceAttributeMaxThreadsPerBlock,
    hipDeviceAttributeMaxBlockDimX,
    hipDeviceAttributeMaxBlockDimY,
    hipDeviceAttributeMaxBlockDimZ,
    hipDeviceAttributeMaxGridDimX,
    hipDeviceAttributeMaxGridDimY,
    hipDeviceAttributeMaxGridDimZ,
    hipDeviceAttributeMaxSharedMemoryPerBlock,
    hipDeviceAttributeSharedMemPerBlockOptin,
    hipDeviceAttributeTotalConstantMemory,
    hipDeviceAttributeWarpSize,
    hipDeviceAttributeMaxRegistersPerBlock,
    hipDeviceAttributeClockRate,
    hipDeviceAttributeMemoryClockRate,
    hipDeviceAttributeMemoryBusWidth,
    hipDeviceAttributeMultiprocessorCount,
    hipDeviceAttributeComputeCapabilityMajor,
    hipDeviceAttributeComputeCapabilityMinor,
    hipDeviceAttributeMaxThreadsPerMultiProcessor,
    hipDeviceAttributeMaxSharedMemoryPerMultiprocessor,
    hipDeviceAttributeL2CacheSize,
    hipDeviceAttributeIntegrated,
    hipDeviceAttributeConcurrentKernels,
    hipDeviceAttributeCooperativeLaunch,
    hipDeviceAttributeCooperativeMultiDeviceLaunch,
    hipDeviceAttributeManagedMemory,
    hipDeviceAttributeUnifiedAddressing,
    hipDeviceAttributeComputeMode,
    hipDeviceAttributeCanMapHostMemory,
    hipDeviceAttributeAsyncEngineCount
} hipDeviceAttribute_t;

/* The device's mode and flags, its caches' preference and shared memory's
 * banks: accepted and answered as a GPU would, with no effect here. */
typedef enum hipComputeMode {
    hipComputeModeDefault = 0,
    hipComputeModeExclusive = 1,
    hipComputeModeProhibited = 2,
    hipComputeModeExclusiveProcess = 3
} hipComputeMode;
#define hipDeviceScheduleAuto 0x0u
#define hipDeviceScheduleSpin 0x1u
#define hipDeviceScheduleYield 0x2u
#define hipDeviceScheduleBlockingSync 0x4u
#define hipDeviceMapHost 0x8u
#define hipHostRegisterDefault 0x0u
#define hipHostRegisterPortable 0x1u
#define hipHostRegisterMapped 0x2u
#define hipMemAttachGlobal 0x1u
#define hipMemAttachHost 0x2u
typedef enum hipFuncCache_t {
    hipFuncCachePreferNone,
    hipFuncCachePreferShared,
    hipFuncCachePreferL1,
    hipFuncCachePreferEqual
} hipFuncCache_t;
typedef enum hipSharedMemConfig {
    hipSharedMemBankSizeDefault,
    hipSharedMemBankSizeFourByte,
    hipSharedMemBankSizeEightByte
} hipSharedMemConfig;
typedef enum hipFuncAttribute {
    hipFuncAttributeMaxDynamicSharedMemorySize = 8,
    hipFuncAttributePreferredSharedMemoryCarveout = 9
} hipFuncAttribute;
/* A kernel's attributes: the executor knows its block limit and its static
 * shared memory (all of the program's __shared__ variables), not its registers. */
typedef struct hipFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA;
    int maxDynamicSharedSizeBytes, preferredShmemCarveout;
} hipFuncAttributes;

extern "C" {
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attribute, int device);
hipError_t hipMallocHost(void **ptr, size_t size);
hipError_t hipFreeHost(void *ptr);
hipError_t hipMallocManaged(void **ptr, size_t size, unsigned int flags = hipMemAttachGlobal);
hipError_t hipHostRegister(void *ptr, size_t size, unsigned int flags);
hipError_t hipHostUnregister(void *ptr);
hipError_t hipHostGetDevicePointer(void **device_ptr, void *host_ptr, unsigned int flags);
hipError_t hipSetDeviceFlags(unsigned int flags);
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t config);
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config);
hipError_t hipDriverGetVersion(int *version);
hipError_t hipRuntimeGetVersion(int *version);
hipError_t hipcpu_func_attributes(hipFuncAttributes *attributes);
/* Not HIP: a __device__ global becomes a device buffer of the trace build,
 * named after the variable, the first time the host API meets it. */
void hipcpu_register_symbol(const void *address, size_t size, const char *name);
}

/* __device__ globals are host globals here. HIP_SYMBOL(x) carries x's
 * address, size and name, so that hipGetSymbolSize can answer and the trace
 * build can count and race-check the kernels' accesses to it as a buffer
 * named x. A bare symbol (CUDA's spelling) works too, named by the tracer. */
struct hipcpu_symbol_ref {
    void *address;
    size_t size;
    const char *name;
};
#define HIP_SYMBOL(X) (hipcpu_symbol_ref{(void *)&(X), sizeof(X), #X})
inline hipcpu_symbol_ref hipcpu_symbol(hipcpu_symbol_ref s) {
    hipcpu_register_symbol(s.address, s.size, s.name);
    return s;
}
template <typename T> inline hipcpu_symbol_ref hipcpu_symbol(T &x) {
    hipcpu_register_symbol((const void *)&x, sizeof x, nullptr);
    return hipcpu_symbol_ref{(void *)&x, sizeof x, nullptr};
}
template <typename S> inline hipError_t hipGetSymbolAddress(void **address, S &&symbol) {
    if (!address) return hipErrorInvalidValue;
    *address = hipcpu_symbol(symbol).address;
    return hipSuccess;
}
template <typename S> inline hipError_t hipGetSymbolSize(size_t *size, S &&symbol) {
    if (!size) return hipErrorInvalidValue;
    *size = hipcpu_symbol(symbol).size;
    return hipSuccess;
}
template <typename S>
inline hipError_t hipMemcpyToSymbol(S &&symbol, const void *src, size_t size, size_t offset = 0,
                                    hipMemcpyKind kind = hipMemcpyHostToDevice) {
    hipcpu_symbol_ref s = hipcpu_symbol(symbol);
    if (offset > s.size || size > s.size - offset) return hipErrorInvalidValue;
    return hipMemcpy(static_cast<char *>(s.address) + offset, src, size, kind);
}
template <typename S>
inline hipError_t hipMemcpyFromSymbol(void *dst, S &&symbol, size_t size, size_t offset = 0,
                                      hipMemcpyKind kind = hipMemcpyDeviceToHost) {
    hipcpu_symbol_ref s = hipcpu_symbol(symbol);
    if (offset > s.size || size > s.size - offset) return hipErrorInvalidValue;
    return hipMemcpy(dst, static_cast<const char *>(s.address) + offset, size, kind);
}
template <typename S>
inline hipError_t hipMemcpyToSymbolAsync(S &&symbol, const void *src, size_t size, size_t offset,
                                         hipMemcpyKind kind, hipStream_t = 0) {
    return hipMemcpyToSymbol(symbol, src, size, offset, kind);
}
template <typename S>
inline hipError_t hipMemcpyFromSymbolAsync(void *dst, S &&symbol, size_t size, size_t offset,
                                           hipMemcpyKind kind, hipStream_t = 0) {
    return hipMemcpyFromSymbol(dst, symbol, size, offset, kind);
}

/* hipcpu_occupancy: one block per CU, always. The chapters size persistent
 * grids with it, and their kernels are register-limited to one block per CU
 * on gfx906, which the executor cannot see. A program of one's own (built
 * with HIPCPU_STANDALONE: make profile FILE=, make racecheck FILE=) is
 * answered from the modelled device's limits instead (device_limits.h): waves,
 * blocks and LDS per CU, registers not counted. */
extern "C" hipError_t hipcpu_occupancy(int *blocks, int block_size);
extern "C" hipError_t hipcpu_occupancy_limits(int *blocks, int block_size, size_t dynamic_shared_bytes);
extern "C" hipError_t hipcpu_occupancy_block_size(int *grid_size, int *block_size, size_t dynamic_shared_bytes,
                                                  int block_size_limit);
template <typename F>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, F, int block_size,
                                                               size_t dynamic_shared_bytes) {
#if defined(HIPCPU_STANDALONE) && HIPCPU_STANDALONE
    return hipcpu_occupancy_limits(blocks, block_size, dynamic_shared_bytes);
#else
    return dynamic_shared_bytes ? hipErrorInvalidValue : hipcpu_occupancy(blocks, block_size);
#endif
}
template <typename F>
inline hipError_t hipOccupancyMaxPotentialBlockSize(int *grid_size, int *block_size, F, size_t dynamic_shared_bytes = 0,
                                                    int block_size_limit = 0) {
    return hipcpu_occupancy_block_size(grid_size, block_size, dynamic_shared_bytes, block_size_limit);
}

/* CUDA's form: shared_bytes_of (a function or function object) gives the
 * dynamic shared bytes a block of each size needs; the block size with the
 * most waves per CU wins, as in hipOccupancyMaxPotentialBlockSize. */
template <typename F, typename S>
inline hipError_t hipOccupancyMaxPotentialBlockSizeVariableSMem(int *grid_size, int *block_size, F, S shared_bytes_of,
                                                                int block_size_limit = 0, unsigned int = 0) {
    if (!grid_size || !block_size || block_size_limit < 0) return hipErrorInvalidValue;
    const int most = block_size_limit == 0 || block_size_limit > 1024 ? 1024 : block_size_limit;
    int best = 0, best_waves = -1, best_blocks = 0, units = 0;
    for (int size = warpSize <= most ? warpSize : most; size <= most; size *= 2) {
        int blocks = 0;
        if (hipcpu_occupancy_limits(&blocks, size, size_t(shared_bytes_of(size))) != hipSuccess || blocks == 0) continue;
        const int waves = blocks * ((size + warpSize - 1) / warpSize);
        if (waves >= best_waves) best = size, best_waves = waves, best_blocks = blocks;
    }
    if (best == 0) return hipErrorInvalidValue;
    hipDeviceGetAttribute(&units, hipDeviceAttributeMultiprocessorCount, 0);
    *block_size = best;
    *grid_size = best_blocks * units;
    return hipSuccess;
}
template <typename F> inline hipError_t hipFuncGetAttributes(hipFuncAttributes *attributes, F) {
    return hipcpu_func_attributes(attributes);
}
template <typename F> inline hipError_t hipFuncSetAttribute(F, hipFuncAttribute attribute, int value) {
    return (attribute == hipFuncAttributeMaxDynamicSharedMemorySize || attribute == hipFuncAttributePreferredSharedMemoryCarveout) &&
                   value >= 0
               ? hipSuccess
               : hipErrorInvalidValue;
}
template <typename F> inline hipError_t hipFuncSetCacheConfig(F, hipFuncCache_t) { return hipSuccess; }
template <typename T> inline hipError_t hipMallocManaged(T **ptr, size_t size, unsigned int flags = hipMemAttachGlobal) {
    return hipMallocManaged(reinterpret_cast<void **>(ptr), size, flags);
}
template <typename T> inline hipError_t hipHostGetDevicePointer(T **device_ptr, void *host_ptr, unsigned int flags) {
    return hipHostGetDevicePointer(reinterpret_cast<void **>(device_ptr), host_ptr, flags);
}

template <typename T> inline hipError_t hipMalloc(T **ptr, size_t size) {
    return hipMalloc(reinterpret_cast<void **>(ptr), size);
}
template <typename T> inline hipError_t hipHostMalloc(T **ptr, size_t size, unsigned int flags = 0) {
    return hipHostMalloc(reinterpret_cast<void **>(ptr), size, flags);
}

/* A program of one's own names each buffer after what hipMalloc filled
 * (`hipMalloc(&d_x, n)`: "d_x"), for the trace build's tables and messages.
 * The chapters name theirs with hipcpu_name_allocation. */
#if defined(HIPCPU_STANDALONE) && HIPCPU_STANDALONE
extern "C" void hipcpu_name_from_text(const void *ptr, const char *text);
template <typename P> inline hipError_t hipcpu_malloc_named(P ptr, size_t size, const char *text) {
    hipError_t e = (hipMalloc)(ptr, size);
    if (e == hipSuccess && ptr) hipcpu_name_from_text(*ptr, text);
    return e;
}
#define hipMalloc(ptr, size) hipcpu_malloc_named((ptr), (size), #ptr)
#endif

#endif
