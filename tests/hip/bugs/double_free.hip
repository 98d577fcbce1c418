// A learner's bug: the buffer is freed twice, once in a helper and once at
// the end. The second hipFree stops the program with one message
// (tests/own_hip.bats).
#include <hip/hip_runtime.h>

static void release(float *buffer) { (void)hipFree(buffer); }

int main()
{
    float *device;
    if (hipMalloc(&device, 256 * sizeof(float)) != hipSuccess) return 1;
    release(device);
    return hipFree(device) != hipSuccess; // the bug: freed already
}
// expect: host double_free.hip:13 a double free
