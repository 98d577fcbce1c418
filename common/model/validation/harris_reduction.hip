// Validation set A: the seven reduction kernels of Mark Harris, "Optimizing
// Parallel Reduction in CUDA", NVIDIA Developer Technology, 2007 (slides shipped
// with the CUDA SDK "reduction" sample), rewritten here from the slides' prose and
// diagrams: a sum of 2^22 ints, blocks of 128 threads (the slides' "Block Size =
// 128 threads for all tests"), each block reducing its part in shared memory and
// writing one partial sum; the kernel is applied again to the partial sums until
// one value remains (the slides' recursive kernel invocation). The slides' table
// gives time and bandwidth per kernel for 2^22 ints on a GeForce 8800 GTX (G80).
//
// Names: the slides number the kernels 1 to 7 and give them no function names;
// here they are reduce1 ... reduce7 (the SDK sample calls them reduce0 ... reduce6).
//
// Differences from the slides, and why:
// - Kernels 5 and 6 unroll the last warp (32 threads) with warp-synchronous
//   volatile shared memory and no barrier: correct only in a 32-lane lockstep
//   warp. The executor (and gfx906) run waves of 64, and the executor checks
//   races; here the last 64 partial sums are added by the first wave64 with
//   __shfl_down (offsets 32..1, six shuffles) instead of six volatile
//   shared-memory steps by 32 threads. Same adds, no barrier, like the slides;
//   fewer LDS accesses and 6 wave operations. This code assumes a wave of 64.
// - Bounds checks (i < n) so that the later passes over a few partial sums need
//   no special case; the slides assume n a multiple of the work per block.
// - Kernels 6 and 7: blockSize a constexpr, not a template parameter (see there).
// - Kernel 7's grid: the slides say "64-256 blocks of 128 threads" was best on
//   G80; 64 blocks x 128 threads is taken here (512 elements a thread).
//
// Usage: harris_reduction [--small] [--check]: --small sums 100003 ints,
// --check compares each kernel's partial sums and total with the host's (it
// passes at wave 64 only, which kernels 5-7 assume).
#include <hip/hip_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (1 << 22)
#define SMALL_N 100003 // prime: no block's share divides it
#define THREADS 128

#define CHECK(call)                                                                                \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// Kernel 1 (slides: "interleaved addressing with divergent branching"): each
// thread loads one element into shared memory; at stride s = 1, 2, 4 ... the
// threads whose index is a multiple of 2s add the element s further on.
__global__ void reduce1(const int *in, int *out, unsigned n) {
    __shared__ int sdata[THREADS];
    const unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Kernel 2 ("interleaved addressing with bank conflicts"): the same tree, but
// thread tid works on index 2 * s * tid, so the active threads are contiguous.
__global__ void reduce2(const int *in, int *out, unsigned n) {
    __shared__ int sdata[THREADS];
    const unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        const unsigned index = 2 * s * tid;
        if (index < blockDim.x) sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Kernel 3 ("sequential addressing"): stride halves from blockDim / 2; thread
// tid < s adds element tid + s.
__global__ void reduce3(const int *in, int *out, unsigned n) {
    __shared__ int sdata[THREADS];
    const unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = i < n ? in[i] : 0;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Kernel 4 ("first add during global load"): half the blocks; each thread loads
// two elements a block apart and stores their sum; then kernel 3's tree.
__global__ void reduce4(const int *in, int *out, unsigned n) {
    __shared__ int sdata[THREADS];
    const unsigned tid = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int v = i < n ? in[i] : 0;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

// The slides' last-warp unroll, for a wave of 64 (see the header): the first
// wave adds the block's last 64 partial sums with shuffles, no barrier.
__device__ int last_wave_sum(const int *sdata, unsigned tid) {
    int v = sdata[tid];
    for (int offset = 32; offset > 0; offset >>= 1) v += __shfl_down(v, offset);
    return v;
}

// Kernel 5 ("unroll the last warp"): kernel 4 with the loop stopping at s > 32
// and the last steps done by one warp without barriers.
__global__ void reduce5(const int *in, int *out, unsigned n) {
    __shared__ int sdata[THREADS];
    const unsigned tid = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    int v = i < n ? in[i] : 0;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid < 64) {
        const int sum = last_wave_sum(sdata, tid);
        if (tid == 0) out[blockIdx.x] = sum;
    }
}

// Kernel 6 ("completely unrolled"): the slides make the block size a template
// parameter so that every step of the tree is an if the compiler resolves; here
// it is a constexpr (THREADS = 128), which compiles the same way: the time
// model's tools do not yet match template kernels' names to their assembly.
__global__ void reduce6(const int *in, int *out, unsigned n) {
    constexpr unsigned blockSize = THREADS;
    __shared__ int sdata[blockSize];
    const unsigned tid = threadIdx.x, i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    int v = i < n ? in[i] : 0;
    if (i + blockSize < n) v += in[i + blockSize];
    sdata[tid] = v;
    __syncthreads();
    if (blockSize >= 512) {
        if (tid < 256) sdata[tid] += sdata[tid + 256];
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (tid < 128) sdata[tid] += sdata[tid + 128];
        __syncthreads();
    }
    if (blockSize >= 128) {
        if (tid < 64) sdata[tid] += sdata[tid + 64];
        __syncthreads();
    }
    if (tid < 64) {
        const int sum = last_wave_sum(sdata, tid);
        if (tid == 0) out[blockIdx.x] = sum;
    }
}

// Kernel 7 ("multiple elements per thread"): kernel 6 with a fixed grid; each
// thread first adds pairs of elements a block apart, striding by the whole
// grid's span, into its shared-memory slot.
__global__ void reduce7(const int *in, int *out, unsigned n) {
    constexpr unsigned blockSize = THREADS;
    __shared__ int sdata[blockSize];
    const unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    const unsigned gridSize = blockSize * 2 * gridDim.x;
    sdata[tid] = 0;
    while (i < n) {
        int v = in[i];
        if (i + blockSize < n) v += in[i + blockSize];
        sdata[tid] += v;
        i += gridSize;
    }
    __syncthreads();
    if (blockSize >= 512) {
        if (tid < 256) sdata[tid] += sdata[tid + 256];
        __syncthreads();
    }
    if (blockSize >= 256) {
        if (tid < 128) sdata[tid] += sdata[tid + 128];
        __syncthreads();
    }
    if (blockSize >= 128) {
        if (tid < 64) sdata[tid] += sdata[tid + 64];
        __syncthreads();
    }
    if (tid < 64) {
        const int sum = last_wave_sum(sdata, tid);
        if (tid == 0) out[blockIdx.x] = sum;
    }
}

// --check's input: a small integer hash, as ints in [-100, 155].
static unsigned hash32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

// --check after a kernel's first pass over n values by `blocks` blocks of
// per_block values each (a fixed grid strides on): the largest difference
// between the partial sums in `partials` and the host's.
static int first_pass_error(const int *partials, unsigned blocks, unsigned per_block, const int *host, unsigned n,
                            long long *err) {
    int *got = (int *)malloc(blocks * sizeof(int));
    long long *want = (long long *)calloc(blocks, sizeof(long long));
    if (!got || !want) {
        fprintf(stderr, "harris_reduction: out of host memory\n");
        return 1;
    }
    for (unsigned i = 0; i < n; i++) want[i % (per_block * blocks) / per_block] += host[i];
    CHECK(hipMemcpy(got, partials, blocks * sizeof(int), hipMemcpyDeviceToHost));
    for (unsigned k = 0; k < blocks; k++) {
        const long long d = got[k] > want[k] ? got[k] - want[k] : want[k] - got[k];
        if (d > *err) *err = d;
    }
    free(got);
    free(want);
    return 0;
}

// The slides' recursion: launch KERNEL over count values, then over its partial
// sums, until one remains. PER_BLOCK: elements a block consumes per pass;
// MAX_BLOCKS: a fixed grid (kernel 7), 0 for none. A macro, not a function
// taking a kernel pointer: the executor names a kernel by what
// hipLaunchKernelGGL is given. --check compares the first pass's partial sums
// and the total with the host's.
#define REDUCE_ALL(KERNEL, PER_BLOCK, MAX_BLOCKS)                                                  \
    do {                                                                                           \
        CHECK(hipMemcpy(x, data, count * sizeof(int), hipMemcpyDeviceToDevice));                   \
        int *a = x, *b = y;                                                                        \
        unsigned n = count;                                                                        \
        long long err = 0;                                                                         \
        while (n > 1) {                                                                            \
            unsigned blocks = (n + (PER_BLOCK) - 1) / (PER_BLOCK);                                 \
            if ((MAX_BLOCKS) && blocks > (unsigned)(MAX_BLOCKS)) blocks = (MAX_BLOCKS);            \
            hipLaunchKernelGGL(KERNEL, dim3(blocks), dim3(THREADS), 0, 0, a, b, n);                \
            CHECK(hipGetLastError());                                                              \
            if (check && n == count && first_pass_error(b, blocks, PER_BLOCK, host, n, &err))      \
                return 1;                                                                          \
            int *t = a;                                                                            \
            a = b;                                                                                 \
            b = t;                                                                                 \
            n = blocks;                                                                            \
        }                                                                                          \
        if (check) {                                                                               \
            int total = 0;                                                                         \
            CHECK(hipMemcpy(&total, a, sizeof(int), hipMemcpyDeviceToHost));                       \
            if (llabs(total - sum) > err) err = llabs(total - sum);                                \
            printf("check %s: max error %lld (%s)\n", #KERNEL, err, err ? "FAILED" : "ok");        \
            if (err) failed = 1;                                                                   \
        }                                                                                          \
    } while (0)

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int arg = 1; arg < argc; arg++) {
        if (!strcmp(argv[arg], "--small"))
            small = 1;
        else if (!strcmp(argv[arg], "--check"))
            check = 1;
        else {
            fprintf(stderr, "usage: harris_reduction [--small] [--check]\n");
            return 2;
        }
    }
    const unsigned count = small ? SMALL_N : N;
    int *data = nullptr, *x = nullptr, *y = nullptr;
    CHECK(hipMalloc(&data, count * sizeof(int)));
    CHECK(hipMalloc(&x, count * sizeof(int)));
    CHECK(hipMalloc(&y, count * sizeof(int)));
    CHECK(hipMemset(data, 0, count * sizeof(int)));
    // --check: the data from the hash, and its sum.
    int *host = nullptr, failed = 0;
    long long sum = 0;
    if (check) {
        host = (int *)malloc(count * sizeof(int));
        if (!host) {
            fprintf(stderr, "harris_reduction: out of host memory\n");
            return 1;
        }
        for (unsigned i = 0; i < count; i++) sum += host[i] = (int)(hash32(i + 1U) & 255U) - 100;
        CHECK(hipMemcpy(data, host, count * sizeof(int), hipMemcpyHostToDevice));
    }
    REDUCE_ALL(reduce1, THREADS, 0);
    REDUCE_ALL(reduce2, THREADS, 0);
    REDUCE_ALL(reduce3, THREADS, 0);
    REDUCE_ALL(reduce4, 2 * THREADS, 0);
    REDUCE_ALL(reduce5, 2 * THREADS, 0);
    REDUCE_ALL(reduce6, 2 * THREADS, 0);
    REDUCE_ALL(reduce7, 2 * THREADS, 64);
    CHECK(hipDeviceSynchronize());
    CHECK(hipFree(data));
    CHECK(hipFree(x));
    CHECK(hipFree(y));
    free(host);
    printf("harris_reduction: 7 kernels, each reducing %u ints to one\n", count);
    return failed;
}
