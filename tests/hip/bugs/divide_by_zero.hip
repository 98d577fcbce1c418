// A learner's bug: every divisor is 0, and an integer division by zero traps
// on the CPU (SIGFPE), as it does not on a GPU. The executor names the kernel,
// the thread and the line (tests/own_hip.bats).
#include <hip/hip_runtime.h>

__global__ void share_out(const int *divisors, int *shares, int total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    shares[i] = total / divisors[i]; // the bug: divisors[i] is 0
}

int main()
{
    const int n = 256;
    int *divisors, *shares;
    if (hipMalloc(&divisors, n * sizeof(int)) != hipSuccess || hipMalloc(&shares, n * sizeof(int)) != hipSuccess)
        return 1;
    if (hipMemset(divisors, 0, n * sizeof(int)) != hipSuccess) return 1;
    hipLaunchKernelGGL(share_out, dim3(n / 64), dim3(64), 0, 0, divisors, shares, 1000);
    return hipDeviceSynchronize() != hipSuccess;
}
// expect: fault divide_by_zero.hip:9 integer division by zero
