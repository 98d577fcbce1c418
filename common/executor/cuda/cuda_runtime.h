/* cuda_runtime.h for a CUDA program of one's own (make profile, racecheck and
 * sanitize FILE=prog.cu): CUDA's runtime API and kernel spelling, mapped onto
 * HIP's. On the CPU executor <hip/hip_runtime.h> is the executor's; for the
 * model's gfx906 code, hipcc's. The names follow AMD's hipify tables
 * (cudaMalloc -> hipMalloc, cudaDevAttrClockRate ->
 * hipDeviceAttributeClockRate). What is not here is refused by the front end
 * (common/executor/front/) in one line, or fails to compile naming it.
 * nvcc never reads this file: it has the real one. */
#ifndef HIPCPU_CUDA_RUNTIME_H
#define HIPCPU_CUDA_RUNTIME_H

#include <hip/hip_runtime.h>

/* What CUDA's own headers define, which CUDA code tests for. */
#define __CUDA_RUNTIME_H__ 1
#define __DRIVER_TYPES_H__ 1
#define CUDART_VERSION 12000
#define __CUDART_API_VERSION CUDART_VERSION

/* ---- Types and constants ---------------------------------------------------- */
typedef hipError_t cudaError_t;
#define cudaError hipError_t
typedef hipStream_t cudaStream_t;
typedef hipEvent_t cudaEvent_t;
typedef hipDeviceProp_t cudaDeviceProp;
typedef hipMemcpyKind cudaMemcpyKind;
typedef hipDeviceAttribute_t cudaDeviceAttr;
typedef hipFuncAttributes cudaFuncAttributes;

#define cudaSuccess hipSuccess
#define cudaErrorInvalidValue hipErrorInvalidValue
#define cudaErrorMemoryAllocation hipErrorOutOfMemory
#define cudaErrorInitializationError hipErrorNotInitialized
#define cudaErrorInvalidConfiguration hipErrorInvalidConfiguration
#define cudaErrorInvalidDevice hipErrorInvalidDevice
#define cudaErrorInvalidResourceHandle hipErrorInvalidHandle
#define cudaErrorNotReady hipErrorNotReady
#define cudaErrorLaunchFailure hipErrorLaunchFailure
#define cudaErrorAssert hipErrorAssert
#define cudaErrorNotSupported hipErrorNotSupported
#define cudaErrorUnknown hipErrorUnknown

#define cudaMemcpyHostToHost hipMemcpyHostToHost
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define cudaMemcpyDefault hipMemcpyDefault

#define cudaStreamDefault hipStreamDefault
#define cudaStreamNonBlocking hipStreamNonBlocking
#define cudaEventDefault hipEventDefault
#define cudaEventBlockingSync hipEventBlockingSync
#define cudaEventDisableTiming hipEventDisableTiming
#define cudaHostAllocDefault hipHostMallocDefault
#define cudaHostAllocPortable hipHostMallocPortable
#define cudaHostAllocMapped hipHostMallocMapped
#define cudaHostAllocWriteCombined hipHostMallocWriteCombined
#define cudaHostRegisterDefault hipHostRegisterDefault
#define cudaHostRegisterPortable hipHostRegisterPortable
#define cudaHostRegisterMapped hipHostRegisterMapped
#define cudaMemAttachGlobal hipMemAttachGlobal
#define cudaMemAttachHost hipMemAttachHost
#define cudaDeviceScheduleAuto hipDeviceScheduleAuto
#define cudaDeviceScheduleSpin hipDeviceScheduleSpin
#define cudaDeviceScheduleYield hipDeviceScheduleYield
#define cudaDeviceScheduleBlockingSync hipDeviceScheduleBlockingSync
#define cudaDeviceBlockingSync hipDeviceScheduleBlockingSync
#define cudaDeviceMapHost hipDeviceMapHost
#define cudaComputeModeDefault hipComputeModeDefault
#define cudaComputeModeExclusive hipComputeModeExclusive
#define cudaComputeModeProhibited hipComputeModeProhibited
#define cudaComputeModeExclusiveProcess hipComputeModeExclusiveProcess
#define cudaFuncCachePreferNone hipFuncCachePreferNone
#define cudaFuncCachePreferShared hipFuncCachePreferShared
#define cudaFuncCachePreferL1 hipFuncCachePreferL1
#define cudaFuncCachePreferEqual hipFuncCachePreferEqual
#define cudaFuncAttributeMaxDynamicSharedMemorySize hipFuncAttributeMaxDynamicSharedMemorySize
#define cudaFuncAttributePreferredSharedMemoryCarveout hipFuncAttributePreferredSharedMemoryCarveout
#define cudaSharedMemBankSizeDefault hipSharedMemBankSizeDefault
#define cudaSharedMemBankSizeFourByte hipSharedMemBankSizeFourByte
#define cudaSharedMemBankSizeEightByte hipSharedMemBankSizeEightByte

#define cudaDevAttrMaxThreadsPerBlock hipDeviceAttributeMaxThreadsPerBlock
#define cudaDevAttrMaxBlockDimX hipDeviceAttributeMaxBlockDimX
#define cudaDevAttrMaxBlockDimY hipDeviceAttributeMaxBlockDimY
#define cudaDevAttrMaxBlockDimZ hipDeviceAttributeMaxBlockDimZ
#define cudaDevAttrMaxGridDimX hipDeviceAttributeMaxGridDimX
#define cudaDevAttrMaxGridDimY hipDeviceAttributeMaxGridDimY
#define cudaDevAttrMaxGridDimZ hipDeviceAttributeMaxGridDimZ
#define cudaDevAttrMaxSharedMemoryPerBlock hipDeviceAttributeMaxSharedMemoryPerBlock
#define cudaDevAttrMaxSharedMemoryPerBlockOptin hipDeviceAttributeSharedMemPerBlockOptin
#define cudaDevAttrTotalConstantMemory hipDeviceAttributeTotalConstantMemory
#define cudaDevAttrWarpSize hipDeviceAttributeWarpSize
#define cudaDevAttrMaxRegistersPerBlock hipDeviceAttributeMaxRegistersPerBlock
#define cudaDevAttrClockRate hipDeviceAttributeClockRate
#define cudaDevAttrMemoryClockRate hipDeviceAttributeMemoryClockRate
#define cudaDevAttrGlobalMemoryBusWidth hipDeviceAttributeMemoryBusWidth
#define cudaDevAttrMultiProcessorCount hipDeviceAttributeMultiprocessorCount
#define cudaDevAttrComputeCapabilityMajor hipDeviceAttributeComputeCapabilityMajor
#define cudaDevAttrComputeCapabilityMinor hipDeviceAttributeComputeCapabilityMinor
#define cudaDevAttrMaxThreadsPerMultiProcessor hipDeviceAttributeMaxThreadsPerMultiProcessor
#define cudaDevAttrMaxSharedMemoryPerMultiprocessor hipDeviceAttributeMaxSharedMemoryPerMultiprocessor
#define cudaDevAttrL2CacheSize hipDeviceAttributeL2CacheSize
#define cudaDevAttrIntegrated hipDeviceAttributeIntegrated
#define cudaDevAttrConcurrentKernels hipDeviceAttributeConcurrentKernels
#define cudaDevAttrCooperativeLaunch hipDeviceAttributeCooperativeLaunch
#define cudaDevAttrCooperativeMultiDeviceLaunch hipDeviceAttributeCooperativeMultiDeviceLaunch
#define cudaDevAttrManagedMemory hipDeviceAttributeManagedMemory
#define cudaDevAttrUnifiedAddressing hipDeviceAttributeUnifiedAddressing
#define cudaDevAttrComputeMode hipDeviceAttributeComputeMode
#define cudaDevAttrCanMapHostMemory hipDeviceAttributeCanMapHostMemory
#define cudaDevAttrAsyncEngineCount hipDeviceAttributeAsyncEngineCount

/* ---- Functions ---------------------------------------------------------------- */
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMallocHost hipHostMalloc
#define cudaHostAlloc hipHostMalloc
#define cudaFreeHost hipHostFree
#define cudaMallocManaged hipMallocManaged
#define cudaHostRegister hipHostRegister
#define cudaHostUnregister hipHostUnregister
#define cudaHostGetDevicePointer hipHostGetDevicePointer
#define cudaMemcpy hipMemcpy
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemset hipMemset
#define cudaMemsetAsync hipMemsetAsync
#define cudaMemGetInfo hipMemGetInfo
#define cudaMemcpyToSymbol hipMemcpyToSymbol
#define cudaMemcpyFromSymbol hipMemcpyFromSymbol
#define cudaMemcpyToSymbolAsync hipMemcpyToSymbolAsync
#define cudaMemcpyFromSymbolAsync hipMemcpyFromSymbolAsync
#define cudaGetSymbolAddress hipGetSymbolAddress
#define cudaGetSymbolSize hipGetSymbolSize

#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaThreadSynchronize hipDeviceSynchronize
#define cudaDeviceReset hipDeviceReset
#define cudaGetDeviceCount hipGetDeviceCount
#define cudaSetDevice hipSetDevice
#define cudaGetDevice hipGetDevice
#define cudaSetDeviceFlags hipSetDeviceFlags
#define cudaGetDeviceProperties hipGetDeviceProperties
#define cudaDeviceGetAttribute hipDeviceGetAttribute
#define cudaDeviceSetCacheConfig hipDeviceSetCacheConfig
#define cudaDeviceSetSharedMemConfig hipDeviceSetSharedMemConfig
#define cudaDriverGetVersion hipDriverGetVersion
#define cudaRuntimeGetVersion hipRuntimeGetVersion

#define cudaStreamCreate hipStreamCreate
#define cudaStreamCreateWithFlags hipStreamCreateWithFlags
#define cudaStreamDestroy hipStreamDestroy
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaStreamWaitEvent hipStreamWaitEvent
#define cudaStreamQuery hipStreamQuery
#define cudaEventCreate hipEventCreate
#define cudaEventCreateWithFlags hipEventCreateWithFlags
#define cudaEventDestroy hipEventDestroy
#define cudaEventRecord hipEventRecord
#define cudaEventSynchronize hipEventSynchronize
#define cudaEventQuery hipEventQuery
#define cudaEventElapsedTime hipEventElapsedTime

#define cudaGetLastError hipGetLastError
#define cudaPeekAtLastError hipPeekAtLastError
#define cudaGetErrorString hipGetErrorString

#define cudaOccupancyMaxActiveBlocksPerMultiprocessor hipOccupancyMaxActiveBlocksPerMultiprocessor
#define cudaOccupancyMaxPotentialBlockSize hipOccupancyMaxPotentialBlockSize
#define cudaOccupancyMaxPotentialBlockSizeVariableSMem hipOccupancyMaxPotentialBlockSizeVariableSMem
#define cudaFuncSetAttribute hipFuncSetAttribute
#define cudaFuncGetAttributes hipFuncGetAttributes
#define cudaFuncSetCacheConfig hipFuncSetCacheConfig
#define cudaLaunchKernel hipLaunchKernel
#define cudaLaunchCooperativeKernel hipLaunchCooperativeKernel

/* An error's name as CUDA spells it: cudaErrorAssert, not hipErrorAssert. */
inline const char *cudaGetErrorName(hipError_t error) {
    switch (error) {
    case hipSuccess: return "cudaSuccess";
    case hipErrorInvalidValue: return "cudaErrorInvalidValue";
    case hipErrorOutOfMemory: return "cudaErrorMemoryAllocation";
    case hipErrorNotInitialized: return "cudaErrorInitializationError";
    case hipErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case hipErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case hipErrorInvalidHandle: return "cudaErrorInvalidResourceHandle";
    case hipErrorNotReady: return "cudaErrorNotReady";
    case hipErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case hipErrorAssert: return "cudaErrorAssert";
    case hipErrorNotSupported: return "cudaErrorNotSupported";
    default: return "cudaErrorUnknown";
    }
}

/* ---- Kernel side: what CUDA spells differently from HIP ----------------------- */
/* The warp-synchronous forms (CUDA 9): the mask names the lanes taking part.
 * On the executor every lane of the warp must take part (it says which did
 * not), so the mask is only checked for the votes' result. */
#define HIPCPU_SHUFFLE_SYNC(name, hip_name, Arg)                                          \
    template <typename T> __device__ inline T name(unsigned, T value, Arg arg, int width = warpSize) { \
        return hip_name(value, arg, width);                                                 \
    }
HIPCPU_SHUFFLE_SYNC(__shfl_sync, __shfl, int)
HIPCPU_SHUFFLE_SYNC(__shfl_up_sync, __shfl_up, unsigned)
HIPCPU_SHUFFLE_SYNC(__shfl_down_sync, __shfl_down, unsigned)
HIPCPU_SHUFFLE_SYNC(__shfl_xor_sync, __shfl_xor, int)
#undef HIPCPU_SHUFFLE_SYNC
__device__ inline unsigned __ballot_sync(unsigned mask, int predicate) {
    return static_cast<unsigned>(__ballot(predicate)) & mask;
}
__device__ inline int __any_sync(unsigned mask, int predicate) { return (__ballot_sync(mask, predicate)) != 0; }
__device__ inline int __all_sync(unsigned mask, int predicate) {
    return (__ballot_sync(mask, predicate)) == (static_cast<unsigned>(__ballot(1)) & mask);
}
__device__ inline unsigned __activemask(void) { return static_cast<unsigned>(__ballot(1)); }
/* The warp's barrier: every lane waits for the others. */
__device__ inline void __syncwarp(unsigned mask = 0xffffffffu) {
    (void)mask;
#if defined(__HIPCPU__)
    hipcpu_syncwarp();
#else
    __builtin_amdgcn_wave_barrier();
#endif
}

/* Cache-hinted loads and stores: plain ones here and in the trace. */
template <typename T> __device__ inline T __ldca(const T *p) { return *p; }
template <typename T> __device__ inline T __ldcg(const T *p) { return *p; }
template <typename T> __device__ inline T __ldcs(const T *p) { return *p; }
template <typename T> __device__ inline T __ldlu(const T *p) { return *p; }
template <typename T> __device__ inline T __ldcv(const T *p) { return *p; }
template <typename T> __device__ inline void __stwb(T *p, T v) { *p = v; }
template <typename T> __device__ inline void __stcg(T *p, T v) { *p = v; }
template <typename T> __device__ inline void __stcs(T *p, T v) { *p = v; }
template <typename T> __device__ inline void __stwt(T *p, T v) { *p = v; }

#endif
