/* hip/hip_runtime.h under nvcc: the NVIDIA mapping. One of two headers of this
 * name here: with HIP_PLATFORM=nvidia the nvcc compile has -Icommon/gpu/nvidia
 * (the Makefile, model/compile.sh ptx, scripts/gpu_report.sh), which selects
 * this one; with HIP_PLATFORM=cpu, -Icommon/executor selects the executor's,
 * common/executor/hip/hip_runtime.h; under hipcc (amd), ROCm's own.
 *
 * The HIP subset this tutorial uses, mapped onto the CUDA runtime, so that the
 * same train.hip compiles with nvcc. (Debian's HIP 5.2 headers do not compile
 * against CUDA 13; this small header is put first on nvcc's include path.) */
#ifndef TUTORIAL_HIP_ON_CUDA_H
#define TUTORIAL_HIP_ON_CUDA_H

#include <cuda_runtime.h>

#define __HIP_PLATFORM_NVIDIA__ 1

/* Errors */
typedef cudaError_t hipError_t;
#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipErrorOutOfMemory cudaErrorMemoryAllocation
#define hipErrorInvalidConfiguration cudaErrorInvalidConfiguration
#define hipErrorLaunchFailure cudaErrorLaunchFailure
#define hipErrorInvalidDevice cudaErrorInvalidDevice
#define hipGetLastError cudaGetLastError
#define hipPeekAtLastError cudaPeekAtLastError
#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName

/* Devices */
typedef cudaDeviceProp hipDeviceProp_t;
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDevice cudaGetDevice
#define hipSetDevice cudaSetDevice
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define hipOccupancyMaxPotentialBlockSize cudaOccupancyMaxPotentialBlockSize
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipDeviceAttributeCooperativeLaunch cudaDevAttrCooperativeLaunch
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeWarpSize cudaDevAttrWarpSize
#define hipDeviceAttributeMaxThreadsPerBlock cudaDevAttrMaxThreadsPerBlock
#define hipDeviceAttributeMaxThreadsPerMultiProcessor cudaDevAttrMaxThreadsPerMultiProcessor
#define hipDeviceAttributeMaxSharedMemoryPerBlock cudaDevAttrMaxSharedMemoryPerBlock
#define hipDeviceAttributeClockRate cudaDevAttrClockRate
#define hipDeviceAttributeComputeCapabilityMajor cudaDevAttrComputeCapabilityMajor
#define hipDeviceAttributeComputeCapabilityMinor cudaDevAttrComputeCapabilityMinor
#define hipDeviceAttributeCooperativeMultiDeviceLaunch cudaDevAttrCooperativeMultiDeviceLaunch
#define hipLaunchCooperativeKernel(kernel, grid, block, args, shared_bytes, stream) \
    cudaLaunchCooperativeKernel((const void *)(kernel), (grid), (block), (args), (shared_bytes), (stream))
#define hipDeviceSynchronize cudaDeviceSynchronize

/* Memory */
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemset cudaMemset
#define hipMemsetAsync cudaMemsetAsync
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMemcpyHostToHost cudaMemcpyHostToHost
#define hipMemcpyDefault cudaMemcpyDefault

#define hipMemGetInfo cudaMemGetInfo
#define hipHostMallocDefault cudaHostAllocDefault
template <typename T> inline hipError_t hipHostMalloc(T **ptr, size_t size, unsigned int flags = hipHostMallocDefault)
{
    return cudaHostAlloc((void **)ptr, size, flags);
}
#define hipHostFree cudaFreeHost
/* HIP names a __device__ variable by HIP_SYMBOL(x); CUDA takes the symbol itself. */
#define HIP_SYMBOL(symbol) symbol
#define hipMemcpyToSymbol cudaMemcpyToSymbol
#define hipMemcpyFromSymbol cudaMemcpyFromSymbol
#define hipGetSymbolAddress cudaGetSymbolAddress
#define hipGetSymbolSize cudaGetSymbolSize
typedef cudaMemcpyKind hipMemcpyKind;
#define hipDeviceReset cudaDeviceReset

/* Streams and events */
typedef cudaStream_t hipStream_t;
#define hipStreamCreate cudaStreamCreate
#define hipStreamDestroy cudaStreamDestroy
#define hipStreamDefault 0 /* HIP's flag for an ordinary stream, passed where a stream goes: the null stream */
typedef cudaEvent_t hipEvent_t;
#define hipStreamSynchronize cudaStreamSynchronize
#define hipEventCreate cudaEventCreate
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime

#define HIP_KERNEL_NAME(...) __VA_ARGS__
/* Launch: HIP's portable macro form of kernel<<<grid, block, shared, stream>>>(args). */
#define hipLaunchKernelGGL(kernel, grid, block, shared_bytes, stream, ...) \
    kernel<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__)

/* HIP's dynamic shared memory declaration, as CUDA writes it. */
#define HIP_DYNAMIC_SHARED(type, name) extern __shared__ type name[];

/* Clang's non-temporal store (the validation kernels use it): CUDA's nearest
 * is the streaming store, cached "evict first" (CUDA C++ Programming Guide,
 * "Load and Store Functions Using Cache Hints"). */
#define __builtin_nontemporal_store(value, address) __stcs((address), (value))

/* Shuffles: HIP's forms act on the whole wave; CUDA's need the mask of
 * participating lanes, which is every lane for the code in this tutorial. */
#define TUTORIAL_FULL_MASK 0xffffffffu
template <typename T>
__device__ __forceinline__ T __shfl(T value, int source_lane, int width = warpSize)
{
    return __shfl_sync(TUTORIAL_FULL_MASK, value, source_lane, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_up(T value, unsigned int delta, int width = warpSize)
{
    return __shfl_up_sync(TUTORIAL_FULL_MASK, value, delta, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_down(T value, unsigned int delta, int width = warpSize)
{
    return __shfl_down_sync(TUTORIAL_FULL_MASK, value, delta, width);
}
template <typename T>
__device__ __forceinline__ T __shfl_xor(T value, int lane_mask, int width = warpSize)
{
    return __shfl_xor_sync(TUTORIAL_FULL_MASK, value, lane_mask, width);
}

/* Votes: HIP's act on the whole wave, the ballot as a 64-bit mask (macros: CUDA
 * still declares its own maskless forms for old GPUs; hip_cooperative_groups.h
 * lifts them around libcu++, which declares a name __any of its own). */
#define __ballot(predicate) ((unsigned long long)__ballot_sync(TUTORIAL_FULL_MASK, (predicate)))
#define __any(predicate) __any_sync(TUTORIAL_FULL_MASK, (predicate))
#define __all(predicate) __all_sync(TUTORIAL_FULL_MASK, (predicate))

#endif
