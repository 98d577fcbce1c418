// CUDA_CHECK for the CUDA programs of tests/cuda/: a failing runtime call
// names itself, its line and CUDA's name for the error, and the program exits with status 1.
#ifndef TESTS_CUDA_CHECK_CUH
#define TESTS_CUDA_CHECK_CUH
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t status_ = (call);                                                      \
        if (status_ != cudaSuccess) {                                                      \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #call,            \
                    cudaGetErrorString(status_), cudaGetErrorName(status_));               \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)
#endif
