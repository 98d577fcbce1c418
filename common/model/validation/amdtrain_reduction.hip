// Project "amdtrain": three of the double-precision sum reductions of AMD's HPC
// Training Examples (github.com/amd/HPCTrainingExamples, commit aaaa72d4dca9, MIT
// licence; HIP/reduction/reduction_striding.cpp, reduction_atomic.cpp,
// reduction_shfl.cpp and README.md), written here from reading those files (no
// text copied). Launch shapes as the examples launch them:
//
// - get_partial_sums (reduction_striding.cpp): 1024 blocks of 1024 threads;
//   each thread adds the elements it meets striding by the whole grid into its
//   slot of a static shared array of 1024 doubles, a barrier, then a
//   shared-memory tree (strides 512 ... 1, a barrier after each step), and
//   thread 0 writes the block's partial sum. The host adds the 1024 partials.
// - atomic_reduction (reduction_atomic.cpp): 1024 blocks of 256 threads (its
//   main() shadows BLOCKSIZE with 256); each thread's grid-stride sum is added
//   to the one output double by a double atomicAdd.
// - reduction_to_array (reduction_shfl.cpp), launched twice as the example
//   does: 1024 blocks of 1024 threads write 1024 partial sums, then one block
//   of 1024 threads reduces those into the first element of the input array.
//   A grid-stride sum per thread, a __shfl_down fold within each wave (offsets
//   warpSize / 2 ... 1), each wave's lane 0 stores its sum into dynamic shared
//   memory (one double per wave, blockDim.x / warpSize of them, sized by the
//   host from the device's warp size), a barrier, and the first wave folds those
//   with shuffles and writes the block's sum. It runs at any wave size.
//
// Size: the examples reduce N = 128e07 doubles (10.24 GB), far too many to
// trace; here N = 2^24 (134 MB), more than an H200's L2. The README gives
// no times.
//
// Differences: the input comes from an integer hash (the examples fill it with
// 0.1); atomic_reduction's output is zeroed before the launch (the example
// leaves it as hipMalloc gives it); no events around the launches (the
// examples time theirs).
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

#define BLOCKSIZE 1024
#define GRIDSIZE 1024
#define ATOMIC_BLOCKSIZE 256

// ---- reduction_striding.cpp -----------------------------------------------------

__global__ void get_partial_sums(const double *input, double *output, int size) {
    __shared__ double sums[BLOCKSIZE];
    const int lid = threadIdx.x;
    const int stride = blockDim.x * gridDim.x;
    sums[lid] = 0.0;
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < size; k += stride) sums[lid] += input[k];
    __syncthreads();
    for (int half = BLOCKSIZE / 2; half > 0; half /= 2) {
        if (lid < half) sums[lid] += sums[lid + half];
        __syncthreads();
    }
    if (lid == 0) output[blockIdx.x] = sums[0];
}

// ---- reduction_atomic.cpp -------------------------------------------------------

__global__ void atomic_reduction(const double *input, double *output, int size) {
    const int stride = gridDim.x * blockDim.x;
    double mine = 0.0;
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < size; k += stride) mine += input[k];
    atomicAdd(output, mine);
}

// ---- reduction_shfl.cpp ---------------------------------------------------------

__global__ void reduction_to_array(const double *__restrict__ input, double *__restrict__ output, int size) {
    const int stride = blockDim.x * gridDim.x;
    const int tid = threadIdx.x;
    double part = 0.0;
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < size; k += stride) part += input[k];
    for (int d = warpSize / 2; d > 0; d /= 2) part += __shfl_down(part, d);

    const int lane = tid % warpSize;
    const int wave = tid / warpSize;
    extern __shared__ double wave_sums[];
    if (lane == 0) wave_sums[wave] = part;
    __syncthreads();

    double total = 0.0;
    if (wave == 0) {
        if (lane < (int)(blockDim.x / warpSize)) total = wave_sums[lane];
        for (int d = warpSize / 2; d > 0; d /= 2) total += __shfl_down(total, d);
        if (lane == 0) output[blockIdx.x] = total;
    }
}

// ---- Host -----------------------------------------------------------------------

static uint32_t hash32(uint32_t v) {
    v ^= v >> 16;
    v *= 0x7feb352dU;
    v ^= v >> 15;
    v *= 0x846ca68bU;
    v ^= v >> 16;
    return v;
}

static int report(const char *name, double got, double want) {
    const double err = fabs(got - want) / fabs(want);
    const int ok = err <= 1e-9;
    printf("check %s: max error %.3g (%s)\n", name, err, ok ? "ok" : "FAILED");
    return ok;
}

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--small") == 0) small = 1;
        else if (strcmp(argv[a], "--check") == 0) check = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int n = small ? 1000003 : (1 << 24);

    double *h_in = (double *)malloc((size_t)n * sizeof(double));
    if (!h_in) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (int k = 0; k < n; k++) h_in[k] = 0.05 + (double)(hash32((uint32_t)k * 2654435761U + 7u) >> 8) / 167772160.0;

    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const int wave = prop.warpSize;

    double *d_in = nullptr, *d_partial = nullptr, *d_partial_shfl = nullptr, *d_out = nullptr;
    HIP_CHECK(hipMalloc(&d_in, (size_t)n * sizeof(double)));
    HIP_CHECK(hipMalloc(&d_partial, GRIDSIZE * sizeof(double)));
    HIP_CHECK(hipMalloc(&d_partial_shfl, GRIDSIZE * sizeof(double)));
    HIP_CHECK(hipMalloc(&d_out, sizeof(double)));
    HIP_CHECK(hipMemcpy(d_in, h_in, (size_t)n * sizeof(double), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemset(d_out, 0, sizeof(double)));

    get_partial_sums<<<GRIDSIZE, BLOCKSIZE>>>(d_in, d_partial, n);
    HIP_CHECK(hipGetLastError());
    atomic_reduction<<<GRIDSIZE, ATOMIC_BLOCKSIZE>>>(d_in, d_out, n);
    HIP_CHECK(hipGetLastError());
    reduction_to_array<<<GRIDSIZE, BLOCKSIZE, (BLOCKSIZE / wave) * sizeof(double)>>>(d_in, d_partial_shfl, n);
    HIP_CHECK(hipGetLastError());
    // The second pass writes the total into d_in[0], as the example does (nothing reads d_in after it).
    reduction_to_array<<<1, GRIDSIZE, (GRIDSIZE / wave) * sizeof(double)>>>(d_partial_shfl, d_in, GRIDSIZE);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());

    int failed = 0;
    if (check) {
        double want = 0.0;
        for (int k = 0; k < n; k++) want += h_in[k];
        double partial[GRIDSIZE], sum_partials = 0.0, atomic_sum = 0.0, shfl_sum = 0.0;
        HIP_CHECK(hipMemcpy(partial, d_partial, sizeof(partial), hipMemcpyDeviceToHost));
        for (int b = 0; b < GRIDSIZE; b++) sum_partials += partial[b];
        HIP_CHECK(hipMemcpy(&atomic_sum, d_out, sizeof(double), hipMemcpyDeviceToHost));
        HIP_CHECK(hipMemcpy(&shfl_sum, d_in, sizeof(double), hipMemcpyDeviceToHost));
        failed += !report("get_partial_sums", sum_partials, want);
        failed += !report("atomic_reduction", atomic_sum, want);
        failed += !report("reduction_to_array", shfl_sum, want);
    }

    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_partial));
    HIP_CHECK(hipFree(d_partial_shfl));
    HIP_CHECK(hipFree(d_out));
    free(h_in);
    if (failed) return 1;
    printf("amdtrain_reduction: 3 kernels (4 launches) on %d doubles\n", n);
    return 0;
}
