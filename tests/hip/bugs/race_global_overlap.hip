// A learner's bug: each block smooths its 256 elements and writes one halo
// element either side, so neighbouring blocks both write the elements where
// they meet.
// expect: racecheck race_global_overlap.hip:12 race
#include <hip/hip_runtime.h>

__global__ void smooth(const float *in, float *out, int n)
{
    int i = blockIdx.x * 256 + int(threadIdx.x) - 1; // threads 0 and 257 are the halo
    if (i < 0 || i >= n) return;
    float left = i > 0 ? in[i - 1] : in[i], right = i + 1 < n ? in[i + 1] : in[i];
    out[i] = (left + in[i] + right) / 3.0f; // the bug: the halo threads write their neighbours' elements
}

int main()
{
    const int n = 1024;
    float *in, *out;
    if (hipMalloc(&in, n * sizeof(float)) != hipSuccess || hipMalloc(&out, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemset(in, 0, n * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(smooth, dim3(n / 256), dim3(258), 0, 0, in, out, n);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(in) != hipSuccess || hipFree(out) != hipSuccess;
}
