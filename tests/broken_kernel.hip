/* A deliberately broken chapter, for tests/reliability.bats.
 *
 * It is linked with the GPU harness exactly like a chapter (common/harness/
 * harness.hip supplies main, with common/linear/gpu_trainer.hip the command
 * line, the data and the checks),
 * and `make test` always builds it for the CPU executor with ASan and UBSan,
 * whatever SANITIZE says, as build/cpu-san/broken_kernel:
 *
 *   BROKEN_KERNEL=overflow  build/cpu-san/broken_kernel dataset 1 --train-limit 10 --quiet
 *
 * BROKEN_KERNEL chooses what goes wrong in the first iteration:
 *   inbounds (or unset)  every thread writes its own element: nothing is wrong,
 *                        the run succeeds (the control case)
 *   overflow             the last thread writes one element past the end of a
 *                        hipMalloc'd buffer of PROBE_COUNT floats: ASan must
 *                        report a heap-buffer-overflow
 *   launch               the kernel is launched with 2048 threads per block:
 *                        the harness must report "launch of kernel
 *                        'write_past_end' failed"
 *
 * PROBE_COUNT is not a multiple of 64 floats (256 bytes): an executor that
 * rounded allocations up to its 256-byte alignment would hide the overflow
 * from ASan. */
#include <hip/hip_runtime.h>

#include <stdlib.h>
#include <string.h>

#include "gpu_trainer.h"

#define PROBE_COUNT 1000 /* floats: 4000 bytes */
#define BLOCK_SIZE 256

const char chapter_name[] = "broken-kernel";
const int chapter_needs = 0;

/* Thread i writes buffer[i + offset]: offset 1 is the off-by-one bug. */
__global__ void write_past_end(float *buffer, int count, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) buffer[i + offset] = 1.0f;
}

void chapter_setup(const gpu_problem *p, void **scratch)
{
    (void)p;
    *scratch = gpu_alloc(PROBE_COUNT * sizeof(float), "probe");
}

void chapter_iteration(const gpu_problem *p, void *scratch, int it)
{
    (void)p;
    if (it != 0) return;
    const char *mode = getenv("BROKEN_KERNEL");
    if (!mode || !*mode) mode = "inbounds";
    int offset = 0, block = BLOCK_SIZE;
    if (strcmp(mode, "overflow") == 0) {
        offset = 1;
    } else if (strcmp(mode, "launch") == 0) {
        block = 2048; /* more than the 1024 threads a block may have */
    } else if (strcmp(mode, "inbounds") != 0) {
        fatal(2, "BROKEN_KERNEL must be inbounds, overflow or launch, not '%s'", mode);
    }
    hipLaunchKernelGGL(write_past_end, dim3((PROBE_COUNT + block - 1) / block), dim3(block), 0, 0,
                       (float *)scratch, PROBE_COUNT, offset);
    HIP_CHECK_LAUNCH(write_past_end);
}

void chapter_teardown(void *scratch)
{
    gpu_free(scratch);
}
