/* HIP_CHECK for the small programs of tests/hip/: a failing runtime call
 * names itself and its line, and the program exits with status 1. */
#ifndef TESTS_HIP_CHECK_H
#define TESTS_HIP_CHECK_H
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define HIP_CHECK(call)                                                                    \
    do {                                                                                   \
        hipError_t status_ = (call);                                                       \
        if (status_ != hipSuccess) {                                                       \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                 \
                    hipGetErrorString(status_));                                           \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)
#endif
