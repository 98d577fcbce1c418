/* cuda_profiler_api.h: the profiler's start and stop marks, which a traced run ignores (it counts every launch). */
#ifndef HIPCPU_CUDA_PROFILER_API_H
#define HIPCPU_CUDA_PROFILER_API_H
#include "cuda_runtime.h"
inline cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
inline cudaError_t cudaProfilerStop(void) { return cudaSuccess; }
#endif
