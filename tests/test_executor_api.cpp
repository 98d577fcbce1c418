/* Tests of the CPU executor's host API (common/executor/runtime_api.cpp):
 * events, memory copies and sets, the device and its properties, occupancy,
 * errors, allocation failure injection (HIPCPU_FAIL_ALLOC), and the vector
 * types (float4 and friends: the GPU's sizes and alignments, loads and
 * stores through them, make_*).
 *
 * Built by the Makefile at wave 64 and with -DHIPCPU_WAVE_SIZE=32 (WAVE=32),
 * like every tests/test_executor_*.cpp: make HIP_PLATFORM=cpu
 * build/cpu/tests/test_executor_api. Run from the repository root with
 * CMOCKA_MESSAGE_OUTPUT=TAP for TAP output. Tests never assume a wave size:
 * they use warpSize. */
#include <math.h>
#include <stdint.h>
#include <hip/hip_runtime.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
extern "C" { /* cmocka 1.1.5's header has no C++ guard */
#include <cmocka.h>
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <type_traits>
#include <vector>

#include "executor_helpers.h"

/* ---- Events ----------------------------------------------------------------- */

__global__ void busy_kernel(float *out, int n) {
    float s = 0;
    for (int i = 0; i < n; i++) s += sqrtf(float(i + threadIdx.x));
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static void test_events(void **) {
    hipEvent_t start, stop, later;
    HIP_OK(hipEventCreate(&start));
    HIP_OK(hipEventCreate(&stop));
    HIP_OK(hipEventCreate(&later));
    float ms = -1;
    assert_int_equal(hipEventElapsedTime(&ms, start, stop), hipErrorInvalidHandle); /* not recorded */
    hipGetLastError();
    float *out = device_alloc<float>(4 * 256);
    HIP_OK(hipEventRecord(start, 0));
    hipLaunchKernelGGL(busy_kernel, 4, 256, 0, 0, out, 2000);
    HIP_OK(hipEventRecord(stop));
    HIP_OK(hipEventSynchronize(stop));
    HIP_OK(hipEventElapsedTime(&ms, start, stop));
    assert_true(ms >= 0.0f);
    hipLaunchKernelGGL(busy_kernel, 4, 256, 0, 0, out, 2000);
    HIP_OK(hipEventRecord(later, 0));
    float ms_later = -1;
    HIP_OK(hipEventElapsedTime(&ms_later, start, later));
    assert_true(ms_later >= ms);
    HIP_OK(hipEventElapsedTime(&ms, start, start));
    assert_true(ms == 0.0f);
    HIP_OK(hipDeviceSynchronize());
    HIP_OK(hipStreamSynchronize(0));
    HIP_OK(hipEventDestroy(start));
    HIP_OK(hipEventDestroy(stop));
    HIP_OK(hipEventDestroy(later));
    HIP_OK(hipFree(out));
}

/* ---- Memory and device API -------------------------------------------------- */

static void test_alloc_failure_injection(void **) {
    /* Read at every hipMalloc; the count restarts when the value changes. */
    setenv("HIPCPU_FAIL_ALLOC", "2", 1);
    float *a = nullptr, *b = nullptr, *c = nullptr;
    HIP_OK(hipMalloc(&a, 1000));
    b = reinterpret_cast<float *>(1);
    assert_int_equal(hipMalloc(&b, 1000), hipErrorOutOfMemory);
    assert_null(b);
    assert_int_equal(hipGetLastError(), hipErrorOutOfMemory);
    HIP_OK(hipMalloc(&c, 1000)); /* only the second fails */
    setenv("HIPCPU_FAIL_ALLOC", "1", 1);
    float *d = nullptr;
    assert_int_equal(hipMalloc(&d, 16), hipErrorOutOfMemory);
    unsetenv("HIPCPU_FAIL_ALLOC");
    HIP_OK(hipMalloc(&d, 16));
#if !UNDER_ASAN /* ASan's allocator aborts (or warns) instead of returning NULL */
    /* An allocation malloc cannot satisfy. */
    void *huge = nullptr;
    assert_int_equal(hipMalloc(&huge, SIZE_MAX / 2), hipErrorOutOfMemory);
    assert_null(huge);
    assert_int_equal(hipGetLastError(), hipErrorOutOfMemory);
#endif
    HIP_OK(hipFree(a));
    HIP_OK(hipFree(c));
    HIP_OK(hipFree(d));
}

static void test_memory_and_device_api(void **) {
    void *none = reinterpret_cast<void *>(1);
    HIP_OK(hipMalloc(&none, 0));
    assert_null(none);
    HIP_OK(hipFree(nullptr));
    std::vector<int> host(100);
    for (int i = 0; i < 100; i++) host[size_t(i)] = i * i;
    int *a = upload(host), *b = device_alloc<int>(100);
    HIP_OK(hipMemcpy(b, a, 100 * sizeof(int), hipMemcpyDeviceToDevice));
    HIP_OK(hipMemsetAsync(a, 0, 50 * sizeof(int), 0));
    HIP_OK(hipMemcpyAsync(a + 50, b, 10 * sizeof(int), hipMemcpyDefault, 0));
    std::vector<int> ha = download(a, 100), hb = download(b, 100);
    for (int i = 0; i < 100; i++) {
        assert_int_equal(hb[size_t(i)], i * i);
        assert_int_equal(ha[size_t(i)], i < 50 ? 0 : i < 60 ? (i - 50) * (i - 50) : i * i);
    }
    assert_int_equal(hipMemcpy(nullptr, b, 4, hipMemcpyHostToHost), hipErrorInvalidValue);
    hipGetLastError();
    HIP_OK(hipFree(a));
    HIP_OK(hipFree(b));

    int count = 0, device = -1;
    HIP_OK(hipGetDeviceCount(&count));
    assert_int_equal(count, 1);
    HIP_OK(hipSetDevice(0));
    HIP_OK(hipGetDevice(&device));
    assert_int_equal(device, 0);
    assert_int_equal(hipSetDevice(1), hipErrorInvalidDevice);
    hipDeviceProp_t prop;
    assert_int_equal(hipGetDeviceProperties(&prop, 1), hipErrorInvalidDevice);
    hipGetLastError();
    HIP_OK(hipGetDeviceProperties(&prop, 0));
    char name[64];
    snprintf(name, sizeof name, "HIP CPU executor (wave%d)", warpSize);
    assert_string_equal(prop.name, name);
    assert_string_equal(prop.gcnArchName, "cpu");
    assert_int_equal(prop.warpSize, warpSize);
    assert_int_equal(prop.maxThreadsPerBlock, 1024);
    assert_int_equal(prop.sharedMemPerBlock, 65536);
    /* gfx906's 60 CUs at wave 64, an H100's 132 SMs (sm_90) at wave 32, unless
     * HIPCPU_COMPUTE_UNITS says otherwise: grids sized from the device get the
     * modelled device's. */
    assert_int_equal(prop.multiProcessorCount, warpSize == 64 ? 60 : 132);
    assert_int_equal(prop.major, warpSize == 64 ? 1 : 9);
    setenv("HIPCPU_COMPUTE_UNITS", "7", 1);
    HIP_OK(hipGetDeviceProperties(&prop, 0));
    assert_int_equal(prop.multiProcessorCount, 7);
    unsetenv("HIPCPU_COMPUTE_UNITS");
    /* What CUDA's names map onto (common/executor/cuda/): managed and registered
     * host memory is device memory here; a kernel's attributes; the assert's error. */
    int *managed = nullptr, host_words[4] = {1, 2, 3, 4};
    void *mapped = nullptr;
    HIP_OK(hipMallocManaged(&managed, 4 * sizeof(int)));
    managed[3] = 9; /* the host writes it directly */
    HIP_OK(hipFree(managed));
    HIP_OK(hipHostRegister(host_words, sizeof host_words, hipHostRegisterMapped));
    HIP_OK(hipHostGetDevicePointer(&mapped, host_words, 0));
    assert_ptr_equal(mapped, host_words);
    HIP_OK(hipHostUnregister(host_words));
    hipFuncAttributes attributes;
    HIP_OK(hipFuncGetAttributes(&attributes, busy_kernel));
    assert_int_equal(attributes.maxThreadsPerBlock, 1024);
    assert_string_equal(hipGetErrorName(hipErrorAssert), "hipErrorAssert");
    assert_string_equal(hipGetErrorString(hipErrorAssert), "device-side assert triggered");
    int per_cu = 0;
    HIP_OK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, busy_kernel, 640, 0));
    assert_int_equal(per_cu, 1);
    assert_int_equal(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, busy_kernel, 2048, 0),
                     hipErrorInvalidValue);
    hipGetLastError();
    assert_true(prop.totalGlobalMem > 0);
    assert_true(prop.clockRate > 0);

    assert_string_equal(hipGetErrorName(hipErrorInvalidConfiguration), "hipErrorInvalidConfiguration");
    assert_string_equal(hipGetErrorName(hipErrorMemoryAllocation), "hipErrorOutOfMemory");
    assert_string_equal(hipGetErrorString(hipSuccess), "no error");
    assert_string_equal(hipGetErrorString(hipErrorOutOfMemory), "out of memory");
    assert_string_equal(hipGetErrorName(hipErrorLaunchFailure), "hipErrorLaunchFailure");
}

/* ---- Vector types ------------------------------------------------------- */

/* The GPU's sizes and alignments, and plain aggregates, so that a cast from
 * a float pointer reads the same bytes as it would on a GPU. */
#define CHECK_VECTOR_TYPE(T, size, align)                                                   \
    static_assert(sizeof(T) == (size) && alignof(T) == (align), #T ": size or alignment");   \
    static_assert(std::is_trivially_copyable<T>::value && std::is_standard_layout<T>::value && \
                      std::is_aggregate<T>::value,                                          \
                  #T ": not a plain aggregate");
CHECK_VECTOR_TYPE(char4, 4, 4)
CHECK_VECTOR_TYPE(uchar4, 4, 4)
CHECK_VECTOR_TYPE(int2, 8, 8)
CHECK_VECTOR_TYPE(int3, 12, 4)
CHECK_VECTOR_TYPE(int4, 16, 16)
CHECK_VECTOR_TYPE(uint2, 8, 8)
CHECK_VECTOR_TYPE(uint3, 12, 4)
CHECK_VECTOR_TYPE(uint4, 16, 16)
CHECK_VECTOR_TYPE(float2, 8, 8)
CHECK_VECTOR_TYPE(float3, 12, 4)
CHECK_VECTOR_TYPE(float4, 16, 16)
CHECK_VECTOR_TYPE(double2, 16, 16)
#undef CHECK_VECTOR_TYPE
static_assert(offsetof(float4, w) == 12 && offsetof(uchar4, w) == 3 && offsetof(double2, y) == 8,
              "members in x y z w order, no padding");

/* out[i] = the sum of the i-th float4 of in; in holds 4 n floats. */
__global__ void float4_sum_kernel(float *out, const float *in, int n) {
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const float4 v = reinterpret_cast<const float4 *>(in)[i];
    out[i] = v.x + v.y + v.z + v.w;
}

/* Each float4 also written back through a float4 pointer, scaled. */
__global__ void float4_scale_kernel(float *data, float s, int n) {
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    float4 *p = reinterpret_cast<float4 *>(data);
    const float4 v = p[i];
    p[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
}

static void test_float4_load(void **) {
    const int n = 1000; /* not a multiple of the block: the tail is guarded */
    std::vector<float> host(4 * size_t(n));
    for (size_t k = 0; k < host.size(); k++) host[k] = float(k % 97) * 0.25f - 3.0f;
    float *in = upload(host), *out = device_alloc<float>(size_t(n));
    assert_int_equal(reinterpret_cast<uintptr_t>(in) % alignof(float4), 0);
    hipLaunchKernelGGL(float4_sum_kernel, (n + 255) / 256, 256, 0, 0, out, in, n);
    HIP_OK(hipGetLastError());
    std::vector<float> sums = download(out, size_t(n));
    for (size_t i = 0; i < size_t(n); i++) {
        const float expected = host[4 * i] + host[4 * i + 1] + host[4 * i + 2] + host[4 * i + 3];
        assert_memory_equal(&sums[i], &expected, sizeof(float));
    }
    hipLaunchKernelGGL(float4_scale_kernel, (n + 127) / 128, 128, 0, 0, in, 2.0f, n);
    HIP_OK(hipGetLastError());
    std::vector<float> scaled = download(in, host.size());
    for (size_t k = 0; k < host.size(); k++) assert_true(scaled[k] == 2.0f * host[k]);
    HIP_OK(hipFree(in));
    HIP_OK(hipFree(out));
}

/* Bytes -> int4 (widened, x first) -> uchar4, as an image kernel unpacks
 * and repacks RGBA pixels. */
__global__ void uchar4_widen_kernel(int4 *wide, const unsigned char *bytes, int n) {
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const uchar4 p = reinterpret_cast<const uchar4 *>(bytes)[i];
    wide[i] = make_int4(p.x, p.y, p.z, p.w);
}

__global__ void uchar4_narrow_kernel(uchar4 *pixels, const int4 *wide, int n) {
    const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const int4 v = wide[i];
    pixels[i] = make_uchar4((unsigned char)v.x, (unsigned char)v.y, (unsigned char)v.z,
                            (unsigned char)v.w);
}

static void test_uchar4_round_trip(void **) {
    const int n = 300;
    std::vector<unsigned char> host(4 * size_t(n));
    for (size_t k = 0; k < host.size(); k++) host[k] = (unsigned char)(k * 37 + 11);
    unsigned char *bytes = upload(host);
    int4 *wide = device_alloc<int4>(size_t(n));
    uchar4 *pixels = device_alloc<uchar4>(size_t(n));
    hipLaunchKernelGGL(uchar4_widen_kernel, (n + 63) / 64, 64, 0, 0, wide, bytes, n);
    hipLaunchKernelGGL(uchar4_narrow_kernel, (n + 63) / 64, 64, 0, 0, pixels, wide, n);
    HIP_OK(hipGetLastError());
    std::vector<int4> w = download(wide, size_t(n));
    for (size_t i = 0; i < size_t(n); i++) {
        assert_int_equal(w[i].x, host[4 * i]);
        assert_int_equal(w[i].y, host[4 * i + 1]);
        assert_int_equal(w[i].z, host[4 * i + 2]);
        assert_int_equal(w[i].w, host[4 * i + 3]);
    }
    std::vector<uchar4> back = download(pixels, size_t(n));
    assert_memory_equal(back.data(), host.data(), host.size());
    HIP_OK(hipFree(bytes));
    HIP_OK(hipFree(wide));
    HIP_OK(hipFree(pixels));
}

struct MadeVectors {
    float2 f2;
    float3 f3;
    float4 f4;
    int2 i2;
    int3 i3;
    int4 i4;
    uint2 u2;
    uint3 u3;
    uint4 u4;
    char4 c4;
    uchar4 uc4;
    double2 d2;
};

static MadeVectors make_all(int k) {
    MadeVectors m;
    m.f2 = make_float2(0.5f * k, -1.0f);
    m.f3 = make_float3(1.0f, 2.0f * k, 3.0f);
    m.f4 = make_float4(1.0f, 2.0f, 3.0f, 4.0f * k);
    m.i2 = make_int2(-k, 7);
    m.i3 = make_int3(1, -2, 3 * k);
    m.i4 = make_int4(k, -k, 2 * k, -2 * k);
    m.u2 = make_uint2(unsigned(k), 0xFFFFFFFFu);
    m.u3 = make_uint3(1u, 2u, unsigned(k));
    m.u4 = make_uint4(0u, 1u, 2u, unsigned(k));
    m.c4 = make_char4(-128, 127, (signed char)-k, 0);
    m.uc4 = make_uchar4(0, 255, (unsigned char)k, 128);
    m.d2 = make_double2(0.1 * k, -1e300);
    return m;
}

__global__ void make_vectors_kernel(MadeVectors *out) {
    const int k = int(threadIdx.x);
    out[k] = make_all(k);
}

static void check_made(const MadeVectors &m, int k) {
    assert_true(m.f2.x == 0.5f * k && m.f2.y == -1.0f);
    assert_true(m.f3.x == 1.0f && m.f3.y == 2.0f * k && m.f3.z == 3.0f);
    assert_true(m.f4.x == 1.0f && m.f4.y == 2.0f && m.f4.z == 3.0f && m.f4.w == 4.0f * k);
    assert_true(m.i2.x == -k && m.i2.y == 7);
    assert_true(m.i3.x == 1 && m.i3.y == -2 && m.i3.z == 3 * k);
    assert_true(m.i4.x == k && m.i4.y == -k && m.i4.z == 2 * k && m.i4.w == -2 * k);
    assert_true(m.u2.x == unsigned(k) && m.u2.y == 0xFFFFFFFFu);
    assert_true(m.u3.x == 1u && m.u3.y == 2u && m.u3.z == unsigned(k));
    assert_true(m.u4.x == 0u && m.u4.y == 1u && m.u4.z == 2u && m.u4.w == unsigned(k));
    assert_true(m.c4.x == -128 && m.c4.y == 127 && m.c4.z == -k && m.c4.w == 0);
    assert_true(m.uc4.x == 0 && m.uc4.y == 255 && m.uc4.z == k && m.uc4.w == 128);
    assert_true(m.d2.x == 0.1 * k && m.d2.y == -1e300);
}

static void test_make_vectors(void **) {
    const int threads = 100;
    check_made(make_all(5), 5); /* host code too, as with __host__ __device__ */
    float4 braced = {1.0f, 2.0f, 3.0f, 4.0f}, zero = {};
    assert_true(braced.w == 4.0f && zero.x == 0.0f && zero.w == 0.0f);
    MadeVectors *out = device_alloc<MadeVectors>(threads);
    hipLaunchKernelGGL(make_vectors_kernel, 1, threads, 0, 0, out);
    HIP_OK(hipGetLastError());
    std::vector<MadeVectors> made = download(out, threads);
    for (int k = 0; k < threads; k++) check_made(made[size_t(k)], k);
    HIP_OK(hipFree(out));
}

int main(void) {
    set_schedule(nullptr, nullptr);
    unsetenv("HIPCPU_FAIL_ALLOC");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_alloc_failure_injection),
        cmocka_unit_test(test_memory_and_device_api),
        cmocka_unit_test(test_float4_load),
        cmocka_unit_test(test_uchar4_round_trip),
        cmocka_unit_test(test_make_vectors),
    };
    return cmocka_run_group_tests_name("executor api (wave " STRINGIFY(HIPCPU_WAVE_SIZE) ")", tests, nullptr, nullptr);
}
