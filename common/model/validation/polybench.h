// The PolyBench/GPU programs' host preamble (polybench_*.hip), written once:
// the C headers they use, and HIP_CHECK, which prints a failed runtime call
// with its file and line and returns 1 from the function it is in (main, or
// a host function that returns int). Host code only; no kernel uses it.
// Each program includes it by a quoted name, so every compile finds it beside
// the program: nvcc's and hipcc's (model/compile.sh, scripts/gpu_report.sh,
// make validation-programs' PTX) by the source's own folder, the executor's
// by -iquote (the front end compiles a copy in the build folder).
#ifndef VALIDATION_POLYBENCH_H
#define VALIDATION_POLYBENCH_H

#include <hip/hip_runtime.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

#endif
