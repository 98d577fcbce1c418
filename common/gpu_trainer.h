/* The GPU trainer harness: everything a GPU chapter shares, so that a
 * chapter's train.hip holds only its kernels and its training step.
 *
 * The harness parses the command line, loads the data, builds the layouts the
 * chapter asks for, uploads them, initialises W (the same values on every
 * platform), runs the iterations through chapter_iteration(), times each one
 * with events, copies back the loss and accuracy that the chapter's kernels
 * recorded on the device, evaluates the final W on the host and reports. */
#ifndef COMMON_GPU_TRAINER_H
#define COMMON_GPU_TRAINER_H

#include <hip/hip_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "errors.h"
#include "model.h"

/* Lanes in a wave (AMD) or warp (NVIDIA): the one place it is derived per
 * platform. Kernels use WAVE_SIZE (or warpSize), never a literal.
 *
 * hipcc compiles a .hip file twice: a device pass, which knows the target's
 * wave size (__AMDGCN_WAVEFRONT_SIZE), and a host pass, which does not. Both
 * must agree, or the host launches blocks sized for one wave size at kernels
 * built for the other: so on AMD the Makefile passes HIP_WAVE_SIZE, derived
 * from GPU_ARCH (64 on gfx9, 32 on gfx10-12), to both passes, and the device
 * pass checks it. (The host pass defines __AMDGCN_WAVEFRONT_SIZE too, as 64
 * whatever the target: it cannot be used there.) The harness also checks it against the device it runs on. */
#if defined(__HIPCPU__)
#define WAVE_SIZE HIPCPU_WAVE_SIZE
#elif defined(__CUDACC__) || defined(__HIP_PLATFORM_NVIDIA__)
#define WAVE_SIZE 32
#else
#ifndef HIP_WAVE_SIZE
#error "HIP_WAVE_SIZE is not defined: pass -DHIP_WAVE_SIZE=64 for gfx9 targets, 32 for gfx10-12 (the Makefile does)"
#endif
#if defined(__HIP_DEVICE_COMPILE__) && __AMDGCN_WAVEFRONT_SIZE != HIP_WAVE_SIZE
#error "HIP_WAVE_SIZE differs from the target's wave size (__AMDGCN_WAVEFRONT_SIZE): set AMD_WAVE to match GPU_ARCH"
#endif
#define WAVE_SIZE HIP_WAVE_SIZE
#endif

/* Every runtime call is checked; the message names the call and where. */
#define HIP_CHECK(call) hip_check((call), #call, __FILE__, __LINE__)
/* After every launch: a bad configuration is reported with the kernel's name. */
#define HIP_CHECK_LAUNCH(kernel) hip_check_launch(#kernel, __FILE__, __LINE__)

void hip_check(hipError_t status, const char *call, const char *file, int line);
void hip_check_launch(const char *kernel, const char *file, int line);

/* hipMalloc that names the buffer and its size when it fails. */
void *gpu_alloc(size_t bytes, const char *what);
void gpu_free(void *pointer);

/* Which copies of the training data a chapter wants on the device. */
enum {
    NEEDS_X_ROWS = 1, /* float, images x 785: image i's features contiguous */
    NEEDS_X_COLS = 2, /* float, 785 x images: feature k of every image contiguous */
    NEEDS_PIXELS = 4  /* uint8_t, images x 784: the raw bytes, no bias column */
};

typedef struct {
    int images;             /* N, the training images in use */
    int compute_units;      /* the device's CUs (SMs on NVIDIA): grids of
                               persistent kernels are sized from it */
    int iterations;
    float learning_rate;
    const float *x_rows;    /* NEEDS_X_ROWS, else NULL */
    const float *x_cols;    /* NEEDS_X_COLS, else NULL */
    const uint8_t *pixels;  /* NEEDS_PIXELS, else NULL */
    const uint8_t *labels;  /* images, each 0..9 */
    float *w;               /* 10 x 785, initialised */
    /* Per-iteration records, zeroed before training. Iteration t adds into
     * loss_sum[t] the sum of squared residuals and into correct[t] the number
     * of right predictions, both at the weights before its update. */
    float *loss_sum;
    unsigned int *correct;
} gpu_problem;

/* What each chapter defines. */
#ifdef __cplusplus
extern "C" {
#endif
extern const char chapter_name[]; /* e.g. "01-naive-gemm" */
extern const int chapter_needs;   /* NEEDS_* flags */
/* Allocate the chapter's own buffers (may set *scratch to NULL). */
void chapter_setup(const gpu_problem *problem, void **scratch);
/* Launch one full-batch iteration: record loss and accuracy, update W. No
 * host synchronisation: the harness times it with events. */
void chapter_iteration(const gpu_problem *problem, void *scratch, int iteration);
void chapter_teardown(void *scratch);
#ifdef __cplusplus
}
#endif

#endif
