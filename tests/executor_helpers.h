/* Device helpers shared by the executor's cmocka tests (test_executor.cpp,
 * test_trace.cpp): checked runtime calls, allocation, upload, download.
 * Include after <hip/hip_runtime.h> and <cmocka.h>. */
#ifndef TESTS_EXECUTOR_HELPERS_H
#define TESTS_EXECUTOR_HELPERS_H

#include <vector>

#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)
#define HIP_OK(call) assert_int_equal((call), hipSuccess)

template <typename T> static T *device_alloc(size_t count) {
    T *p = nullptr;
    HIP_OK(hipMalloc(&p, count * sizeof(T)));
    return p;
}

template <typename T> static std::vector<T> download(const T *device, size_t count) {
    std::vector<T> host(count);
    HIP_OK(hipMemcpy(host.data(), device, count * sizeof(T), hipMemcpyDeviceToHost));
    return host;
}

template <typename T> static T *upload(const std::vector<T> &host) {
    T *device = device_alloc<T>(host.size());
    HIP_OK(hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice));
    return device;
}

#endif
