// Guarded and vector loads for the PTX reader's tests (code_ptx.c).
__device__ __forceinline__ float load_if(const float *p, bool ok) {
    float v = 0.f;
    asm volatile("{\n\t.reg .pred guard;\n\tsetp.ne.b32 guard, %2, 0;\n\t@guard ld.global.f32 %0, [%1];\n\t}"
                 : "+f"(v) : "l"(p), "r"((int)ok));
    return v;
}
__device__ __noinline__ float twice(float v) { return 2.f * v; }

__global__ void dot4(const float4 *a, const float *b, float *out, int n) {
    __shared__ float4 tile[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x % 64] = a[i % n];
    __syncthreads();
    float4 t = tile[(threadIdx.x + 1) % 64];
    float s = t.x * t.y + t.z * t.w + load_if(b + i, i < n);
    out[i] = twice(s);
}
