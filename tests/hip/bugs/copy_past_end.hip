// A learner's bug: the copy counts 2,000 floats into a buffer of 1,000. On the
// executor the copy would write over its own heap; it stops with one message
// naming the call and the allocation instead (tests/own_hip.bats).
#include <hip/hip_runtime.h>

int main()
{
    const int n = 1000;
    static float host[2 * n];
    float *device;
    if (hipMalloc(&device, n * sizeof(float)) != hipSuccess) return 1;
    if (hipMemcpy(device, host, 2 * n * sizeof(float), hipMemcpyHostToDevice) != hipSuccess) return 1; // the bug
    return hipFree(device) != hipSuccess;
}
// expect: host copy_past_end.hip:12 runs 4000 bytes past the allocation's end
