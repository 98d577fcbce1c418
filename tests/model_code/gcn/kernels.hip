// Small kernels for the GCN reader's tests (code_gcn.c): loop.s, barrier.s, guarded.s, vector4.s,
// scratch.s, cas.s and reduction.s are cut from hipcc -O3 --offload-arch=gfx906 --cuda-device-only -S
// -gline-tables-only of this file, one kernel each.
#include <hip/hip_runtime.h>

// A loop: a vector load per trip, a uniform (scalar) load per trip.
__global__ void dot_loop(const float *a, const float *b, float *out, int n) {
    float acc = 0;
    for (int j = 0; j < n; j++) acc += a[j * 64 + threadIdx.x] * b[j];
    out[threadIdx.x] = acc;
}

// Shared memory: a store, a barrier, neighbouring reads.
__global__ void tile_pairs(const float *in, float *out) {
    __shared__ float tile[256];
    int i = blockIdx.x * 256 + threadIdx.x;
    tile[threadIdx.x] = in[i];
    __syncthreads();
    int j = threadIdx.x & 127;
    out[i] = tile[j] + tile[j + 32];
}

// A guarded copy: the if's body under s_and_saveexec.
__global__ void guarded_copy(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f;
}

// 16-byte loads and stores.
__global__ void copy4(const float4 *in, float4 *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    out[i] = make_float4(v.x + 1.0f, v.y, v.z, v.w);
}

// A private array indexed at run time: scratch.
__global__ void private_array(const int *idx, float *out, int n) {
    float priv[64];
    for (int k = 0; k < n; k++) priv[k & 63] = out[k * 64 + threadIdx.x];
    out[threadIdx.x] = priv[idx[threadIdx.x] & 63];
}

// A float max by compare-and-swap.
__global__ void cas_max(float *best, const float *in) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned int *p = (unsigned int *)best;
    unsigned int old = *p, seen;
    do {
        seen = old;
        if (__uint_as_float(seen) >= v) break;
        old = atomicCAS(p, seen, __float_as_uint(v));
    } while (old != seen);
}

// A tree reduction in shared memory: LLVM lays its loop out after s_endpgm.
__global__ void block_sum(const float *in, float *out) {
    __shared__ float part[256];
    part[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}
