// LeetCUDA (github.com/xlite-dev/LeetCUDA, commit cb6a0497e829, GPL-3.0): its
// FP32 element-wise and gather kernels, written here from the repository's
// kernels/elementwise/elementwise.cu, kernels/sigmoid/sigmoid.cu and
// kernels/embedding/embedding.cu (each a PyTorch extension; nothing copied).
// Kernel names, launch shapes, vector widths and access patterns are the
// project's; each launch shape is the one its extension binding computes for
// the tensors its benchmark script passes:
//
//   elementwise_add_f32_kernel, sigmoid_f32_kernel: c = a + b and
//     y = 1 / (1 + exp(-clamp(x))) on S x K = 4096 x 4096 floats
//     (elementwise.py / sigmoid.py, their largest S and K). For a 2-D tensor
//     the binding launches K / n threads per block and S blocks when K / n <=
//     1024, else the flat launch: blocks of 256 / n threads, ceil(N / 256)
//     blocks. At K = 4096 the f32 kernels take the flat launch: 65,536 blocks
//     of 256.
//   elementwise_add_f32x4_kernel: one float4 of a, b and c per thread;
//     K / 4 = 1024 threads per block, S = 4096 blocks.
//   embedding_f32_kernel: out[t][:] = weight[idx[t]][:], one block per token,
//     one float per thread: MaxV = 4096 rows of EmbSize = 1024, SeqLen = 4096
//     tokens (embedding.py's largest case); 4096 blocks of 1024.
//   embedding_f32x4_pack_kernel: the same gather, one float4 per thread:
//     4096 blocks of 256.
//
// Differences: inputs come from an integer hash (torch.randn and
// torch.randint in the scripts); each kernel is launched once (the scripts
// time 1000 calls, or 20 for the embedding); the host allocates the outputs
// with hipMalloc where the scripts pass torch tensors.
//
// --small: S x K = 37 x 1100 (the f32 kernels again take the flat launch, a
// partial last block; the f32x4 kernel 37 blocks of 275), 37 tokens of 1000
// floats from 77 rows. --check compares each output with the host's.
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

// The clamp sigmoid.cu applies before expf (the float exponent's range).
#define SIGMOID_HI 88.3762626647949f
#define SIGMOID_LO -88.3762626647949f

// ---- element-wise add ------------------------------------------------------

__global__ void elementwise_add_f32_kernel(float *a, float *b, float *c, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) c[i] = a[i] + b[i];
}

// Four neighbours per thread, moved as one 16-byte load or store each.
__global__ void elementwise_add_f32x4_kernel(float *a, float *b, float *c, int N) {
    const int base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (base < N) {
        const float4 va = reinterpret_cast<float4 *>(a + base)[0];
        const float4 vb = reinterpret_cast<float4 *>(b + base)[0];
        float4 vc;
        vc.x = va.x + vb.x;
        vc.y = va.y + vb.y;
        vc.z = va.z + vb.z;
        vc.w = va.w + vb.w;
        reinterpret_cast<float4 *>(c + base)[0] = vc;
    }
}

// ---- sigmoid ---------------------------------------------------------------

__global__ void sigmoid_f32_kernel(float *x, float *y, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        const float v = fminf(fmaxf(x[i], SIGMOID_LO), SIGMOID_HI);
        y[i] = 1.0f / (1.0f + expf(-v));
    }
}

// ---- embedding (a row gather) ------------------------------------------------

// Block t copies row idx[t] of the table; thread j its element j. The unused
// n is the project's signature.
__global__ void embedding_f32_kernel(const int *idx, float *weight, float *output, int /* n */, int emb_size) {
    const int row = idx[blockIdx.x] * emb_size;
    output[blockIdx.x * emb_size + threadIdx.x] = weight[row + threadIdx.x];
}

// Thread j copies elements 4j .. 4j+3 as one float4.
__global__ void embedding_f32x4_pack_kernel(const int *idx, float *weight, float *output, int /* n */, int emb_size) {
    const int row = idx[blockIdx.x] * emb_size;
    const int col = 4 * threadIdx.x;
    reinterpret_cast<float4 *>(output + blockIdx.x * emb_size + col)[0] =
        reinterpret_cast<float4 *>(weight + row + col)[0];
}

// ---- host ------------------------------------------------------------------

static uint32_t hash32(uint32_t v) {
    v ^= v >> 16;
    v *= 0x7feb352dU;
    v ^= v >> 15;
    v *= 0x846ca68bU;
    v ^= v >> 16;
    return v;
}

// A value in [-4, 4) on a 1/4096 grid: no NaN, no Inf, exact in float.
static float hashed_value(uint32_t i, uint32_t salt) {
    return (float)((int)(hash32(i * 2654435761U + salt) & 0x7fff) - 16384) / 4096.0f;
}

// The launch the project's binding picks for a 2-D S x K tensor and n floats
// per thread (TORCH_BINDING_ELEM_ADD and TORCH_BINDING_SIGMOID).
static void elementwise_launch(int S, int K, int n, dim3 *grid, dim3 *block) {
    if (K / n <= 1024) {
        *block = dim3(K / n);
        *grid = dim3(S);
    } else {
        const int N = S * K;
        *block = dim3(256 / n);
        *grid = dim3((N + 256 - 1) / 256);
    }
}

static int report(const char *name, double err, double tol) {
    const int ok = err <= tol;
    printf("check %s: max error %.3g (%s)\n", name, err, ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

int main(int argc, char **argv) {
    int small = 0, check = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--small") == 0)
            small = 1;
        else if (strcmp(argv[i], "--check") == 0)
            check = 1;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int S = small ? 37 : 4096, K = small ? 1100 : 4096, N = S * K;
    const int vocab = small ? 77 : 4096, tokens = small ? 37 : 4096, emb = small ? 1000 : 1024;
    const size_t bytes = (size_t)N * sizeof(float), emb_bytes = (size_t)tokens * emb * sizeof(float);

    float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hout = (float *)malloc(bytes);
    float *hw = (float *)malloc((size_t)vocab * emb * sizeof(float)), *hemb = (float *)malloc(emb_bytes);
    int *hidx = (int *)malloc(tokens * sizeof(int));
    if (!ha || !hb || !hout || !hw || !hemb || !hidx) {
        fprintf(stderr, "%s:%d: out of host memory\n", __FILE__, __LINE__);
        return 1;
    }
    for (int i = 0; i < N; i++) {
        ha[i] = hashed_value(i, 11);
        hb[i] = hashed_value(i, 23);
    }
    for (int i = 0; i < vocab * emb; i++) hw[i] = hashed_value(i, 37);
    for (int t = 0; t < tokens; t++) hidx[t] = (int)(hash32(t + 51) % vocab);

    float *a, *b, *c, *y, *weight, *out;
    int *idx;
    HIP_CHECK(hipMalloc(&a, bytes));
    HIP_CHECK(hipMalloc(&b, bytes));
    HIP_CHECK(hipMalloc(&c, bytes));
    HIP_CHECK(hipMalloc(&y, bytes));
    HIP_CHECK(hipMalloc(&weight, (size_t)vocab * emb * sizeof(float)));
    HIP_CHECK(hipMalloc(&out, emb_bytes));
    HIP_CHECK(hipMalloc(&idx, tokens * sizeof(int)));
    HIP_CHECK(hipMemcpy(a, ha, bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(b, hb, bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(weight, hw, (size_t)vocab * emb * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(idx, hidx, tokens * sizeof(int), hipMemcpyHostToDevice));

    int failed = 0;
    dim3 grid, block;

    elementwise_launch(S, K, 1, &grid, &block);
    elementwise_add_f32_kernel<<<grid, block>>>(a, b, c, N);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hout, c, bytes, hipMemcpyDeviceToHost));
        double err = 0;
        for (int i = 0; i < N; i++) err = fmax(err, fabs((double)hout[i] - (double)(ha[i] + hb[i])));
        failed |= report("elementwise_add_f32_kernel", err, 0.0);
        HIP_CHECK(hipMemset(c, 0, bytes));
    }

    elementwise_launch(S, K, 4, &grid, &block);
    elementwise_add_f32x4_kernel<<<grid, block>>>(a, b, c, N);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hout, c, bytes, hipMemcpyDeviceToHost));
        double err = 0;
        for (int i = 0; i < N; i++) err = fmax(err, fabs((double)hout[i] - (double)(ha[i] + hb[i])));
        failed |= report("elementwise_add_f32x4_kernel", err, 0.0);
    }

    elementwise_launch(S, K, 1, &grid, &block);
    sigmoid_f32_kernel<<<grid, block>>>(a, y, N);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hout, y, bytes, hipMemcpyDeviceToHost));
        double err = 0;
        for (int i = 0; i < N; i++) err = fmax(err, fabs((double)hout[i] - 1.0 / (1.0 + exp(-(double)ha[i]))));
        failed |= report("sigmoid_f32_kernel", err, 1e-6);
    }

    // The embedding binding: EmbSize / n threads per block, one block per token.
    embedding_f32_kernel<<<tokens, emb>>>(idx, weight, out, tokens, emb);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hemb, out, emb_bytes, hipMemcpyDeviceToHost));
        double err = 0;
        for (int t = 0; t < tokens; t++)
            for (int j = 0; j < emb; j++) err = fmax(err, fabs(hemb[t * emb + j] - hw[hidx[t] * emb + j]));
        failed |= report("embedding_f32_kernel", err, 0.0);
        HIP_CHECK(hipMemset(out, 0, emb_bytes));
    }

    embedding_f32x4_pack_kernel<<<tokens, emb / 4>>>(idx, weight, out, tokens, emb);
    HIP_CHECK(hipGetLastError());
    if (check) {
        HIP_CHECK(hipMemcpy(hemb, out, emb_bytes, hipMemcpyDeviceToHost));
        double err = 0;
        for (int t = 0; t < tokens; t++)
            for (int j = 0; j < emb; j++) err = fmax(err, fabs(hemb[t * emb + j] - hw[hidx[t] * emb + j]));
        failed |= report("embedding_f32x4_pack_kernel", err, 0.0);
    }

    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipFree(a));
    HIP_CHECK(hipFree(b));
    HIP_CHECK(hipFree(c));
    HIP_CHECK(hipFree(y));
    HIP_CHECK(hipFree(weight));
    HIP_CHECK(hipFree(out));
    HIP_CHECK(hipFree(idx));
    free(ha);
    free(hb);
    free(hout);
    free(hw);
    free(hemb);
    free(hidx);
    if (failed) return 1;
    printf("leetcuda_elementwise: 5 kernels, S x K = %d x %d, %d tokens of %d floats\n", S, K, tokens, emb);
    return 0;
}
