/* Tests of the CPU executor (common/executor) on what it refuses: launch
 * configurations it rejects, kernels it aborts (a barrier or a wave
 * operation that not every thread reaches, a lane that does not exist, a
 * launch from a kernel, a fiber stack's overflow, a value declared uniform
 * that is not), and the settings table (common/executor/settings.h): the README
 * lists the same names, one getenv reads them, a bad value is refused in one
 * form. Abort cases run in a forked child.
 *
 * Built by the Makefile at wave 64 and with -DHIPCPU_WAVE_SIZE=32 (WAVE=32),
 * like every tests/test_executor_*.cpp: make HIP_PLATFORM=cpu
 * build/cpu/tests/test_executor_aborts. Run from the repository root with
 * CMOCKA_MESSAGE_OUTPUT=TAP for TAP output. Tests never assume a wave size:
 * they use warpSize. */
#include <stdint.h>
#include <hip/hip_runtime.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
extern "C" { /* cmocka 1.1.5's header has no C++ guard */
#include <cmocka.h>
}

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "settings.h"

#include "executor_helpers.h"

/* ---- Helpers ------------------------------------------------------------ */

/* Runs fn in a child process and checks that it exits with status 1 after
 * writing a message that starts with "hipcpu: " and contains `expected`. */
static void (*aborting)(void);
static bool run_aborting(void) {
    aborting();
    return true; /* not reached if the executor caught the bug */
}
static void expect_abort(void (*fn)(void), const char *expected) {
    std::string text;
    aborting = fn;
    const int status = run_in_child(run_aborting, &text);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 1 || text.compare(0, 8, "hipcpu: ") != 0 ||
        text.find(expected) == std::string::npos)
        print_error("child status %d, stderr:\n%s\nexpected to contain:\n%s\n", status, text.c_str(),
                    expected);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    assert_int_equal(text.compare(0, 8, "hipcpu: "), 0);
    assert_true(text.find(expected) != std::string::npos);
}

/* ---- Launch validation ---------------------------------------------------- */

__global__ void flag_kernel(int *ran) { ran[0] = 1; }
__global__ void no_argument_kernel() {}

static void test_launch_validation(void **) {
    const struct {
        dim3 grid, block;
    } invalid[] = {
        {dim3(0), dim3(64)},           {dim3(1, 0), dim3(64)},       {dim3(1, 1, 0), dim3(64)},
        {dim3(1), dim3(0)},            {dim3(1), dim3(64, 0)},       {dim3(1), dim3(1, 1, 0)},
        {dim3(1), dim3(1025)},         {dim3(1), dim3(2048)},        {dim3(1), dim3(32, 33)},
        {dim3(1), dim3(1, 1, 65)},     {dim3(1), dim3(16, 16, 8)},   {dim3(1, 65536), dim3(1)},
        {dim3(1, 1, 65536), dim3(1)},  {dim3(0x80000000u), dim3(1)},
    };
    int *ran = device_alloc<int>(1);
    HIP_OK(hipMemset(ran, 0, sizeof(int)));
    hipGetLastError();
    for (const auto &c : invalid) {
        hipLaunchKernelGGL(flag_kernel, c.grid, c.block, 0, 0, ran);
        assert_int_equal(hipPeekAtLastError(), hipErrorInvalidConfiguration);
        assert_int_equal(hipGetLastError(), hipErrorInvalidConfiguration);
        assert_int_equal(hipGetLastError(), hipSuccess); /* reset */
        assert_int_equal(download(ran, 1)[0], 0);
    }
    /* More dynamic shared memory than a CU's 64 KiB LDS. */
    hipLaunchKernelGGL(flag_kernel, 1, 1, 65537, 0, ran);
    assert_int_equal(hipGetLastError(), hipErrorInvalidValue);
    assert_int_equal(download(ran, 1)[0], 0);
    /* The limits themselves are valid; plain ints work as dimensions. */
    hipLaunchKernelGGL(flag_kernel, dim3(1, 65535), dim3(1), 0, 0, ran);
    hipLaunchKernelGGL(flag_kernel, 1, dim3(1, 1, 64), 0, 0, ran);
    hipLaunchKernelGGL(flag_kernel, 1, 1024, 0, 0, ran);
    hipLaunchKernelGGL(flag_kernel, dim3(1, 1, 2), dim3(32, 32), 0, nullptr, ran);
    hipLaunchKernelGGL(no_argument_kernel, 2, 3, 0, 0);
    HIP_OK(hipGetLastError());
    assert_int_equal(download(ran, 1)[0], 1);
    HIP_OK(hipFree(ran));
}

/* ---- Divergence detection (each runs in a forked child) ------------------- */

__global__ void partial_barrier_kernel(int *data) {
    if (blockIdx.x == 3 && threadIdx.x >= 64) return;
    data[threadIdx.x] = 1;
    __syncthreads();
}

static void run_partial_barrier(void) {
    int *data = device_alloc<int>(256);
    hipLaunchKernelGGL(partial_barrier_kernel, 8, 256, 0, 0, data);
}

static void run_partial_barrier_random(void) {
    set_schedule("random", "5");
    run_partial_barrier();
}

static void test_barrier_divergence(void **) {
    /* the barrier's line: addr2line on this test's own debug lines */
    const char *expected = "hipcpu: kernel 'partial_barrier_kernel' block (3,0,0): __syncthreads at "
                           "test_executor_aborts.cpp:107 reached by 64 of 256 threads; thread (64,0,0) returned "
                           "without reaching it";
    expect_abort(run_partial_barrier, expected);
    expect_abort(run_partial_barrier_random, expected);
}

__global__ void shuffle_returned_kernel(int *out) {
    const int lane = int(threadIdx.x) % warpSize;
    if (lane >= warpSize / 2) return;
    out[threadIdx.x] = __shfl_down(lane, 1);
}

__global__ void shuffle_vs_barrier_kernel(int *out) {
    const int lane = int(threadIdx.x) % warpSize;
    int v = lane;
    if (lane < warpSize / 4) v = __shfl_xor(v, 1);
    __syncthreads();
    out[threadIdx.x] = v;
}

__global__ void mixed_shuffles_kernel(int *out) {
    const int lane = int(threadIdx.x) % warpSize;
    out[threadIdx.x] = lane & 1 ? __shfl_up(lane, 1) : __shfl_down(lane, 1);
}

static void run_shuffle_returned(void) {
    int *out = device_alloc<int>(size_t(warpSize));
    hipLaunchKernelGGL(shuffle_returned_kernel, 1, warpSize, 0, 0, out);
}

static void run_shuffle_vs_barrier(void) {
    int *out = device_alloc<int>(2 * size_t(warpSize));
    hipLaunchKernelGGL(shuffle_vs_barrier_kernel, 1, 2 * warpSize, 0, 0, out);
}

static void run_mixed_shuffles(void) {
    int *out = device_alloc<int>(size_t(warpSize));
    hipLaunchKernelGGL(mixed_shuffles_kernel, 1, warpSize, 0, 0, out);
}

static void test_shuffle_divergence(void **) {
    char expected[256];
    snprintf(expected, sizeof expected,
             "hipcpu: kernel 'shuffle_returned_kernel' block (0,0,0): __shfl_down reached by %d of %d lanes "
             "of wave 0; thread (%d,0,0) returned without reaching it",
             warpSize / 2, warpSize, warpSize / 2);
    expect_abort(run_shuffle_returned, expected);
    snprintf(expected, sizeof expected,
             "kernel 'shuffle_vs_barrier_kernel' block (0,0,0): __shfl_xor reached by %d of %d lanes of wave 0; "
             "thread (%d,0,0) is waiting at __syncthreads instead",
             warpSize / 4, warpSize, warpSize / 4);
    expect_abort(run_shuffle_vs_barrier, expected);
    expect_abort(run_mixed_shuffles, "lanes of wave 0 reached different wave operations");
}

/* The block's last wave has 8 lanes; lane 0 of it reads lane 8. */
__global__ void missing_lane_kernel(int *out) { out[threadIdx.x] = __shfl_down(int(threadIdx.x), 8); }
__global__ void missing_lane_idx_kernel(int *out) { out[threadIdx.x] = __shfl(int(threadIdx.x), 9); }
__global__ void bad_width_kernel(int *out) { out[threadIdx.x] = __shfl(int(threadIdx.x), 0, 3); }

static void run_missing_lane(void) {
    int *out = device_alloc<int>(size_t(warpSize) + 8);
    hipLaunchKernelGGL(missing_lane_kernel, 1, warpSize + 8, 0, 0, out);
}

static void run_missing_lane_idx(void) {
    int *out = device_alloc<int>(size_t(warpSize) + 8);
    hipLaunchKernelGGL(missing_lane_idx_kernel, 1, warpSize + 8, 0, 0, out);
}

static void run_bad_width(void) {
    int *out = device_alloc<int>(size_t(warpSize));
    hipLaunchKernelGGL(bad_width_kernel, 1, warpSize, 0, 0, out);
}

static void test_missing_lane(void **) {
    char expected[256];
    snprintf(expected, sizeof expected,
             "kernel 'missing_lane_kernel' block (0,0,0): thread (%d,0,0) __shfl_down reads lane 8 of wave 1, "
             "which does not exist",
             warpSize);
    expect_abort(run_missing_lane, expected);
    snprintf(expected, sizeof expected, "thread (%d,0,0) __shfl reads lane 9 of wave 1", warpSize);
    expect_abort(run_missing_lane_idx, expected);
    expect_abort(run_bad_width, "called __shfl with width 3");
}

/* ---- Other aborts ----------------------------------------------------------- */

__global__ void nested_launch_kernel(int *ran) { hipLaunchKernelGGL(flag_kernel, 1, 1, 0, 0, ran); }

static void run_nested_launch(void) {
    int *ran = device_alloc<int>(1);
    hipLaunchKernelGGL(nested_launch_kernel, 1, 1, 0, 0, ran);
}

static void run_bad_schedule(void) {
    set_schedule("sideways", nullptr);
    run_nested_launch();
}

#if !UNDER_ASAN /* under ASan, ASan reports the overflow itself */
/* Recursion deep enough to overflow any fiber stack. */
__device__ int deep(int depth, volatile char *parent) {
    volatile char frame[512];
    frame[0] = char(parent[0] + 1);
    const int below = depth > 0 ? deep(depth - 1, frame) : 0;
    return below + frame[0];
}

__global__ void overflow_kernel(int *out) {
    volatile char start = 0;
    out[0] = deep(1 << 20, &start);
}

static void run_overflow(void) {
    int *out = device_alloc<int>(1);
    hipLaunchKernelGGL(overflow_kernel, 1, 2, 0, 0, out);
}

/* The executor's SIGSEGV handler is installed at the first launch of a
 * process; cmocka replaces it during each test. So this case runs in a
 * fresh process: main() with --overflow. */
static void run_overflow_fresh(void) {
    execl("/proc/self/exe", "test_executor_aborts", "--overflow", static_cast<char *>(nullptr));
    _exit(3);
}

#endif

/* hipcpu_wave_uniform: what chapter 08's readfirstlane claims, checked. A
 * value uniform per wave passes through; one that differs within a wave
 * aborts, naming lane 0's value and the first lane that disagrees. */
__global__ void wave_uniform_kernel(int *out, int per_lane) {
    const int t = int(threadIdx.x);
    out[t] = hipcpu_wave_uniform(per_lane ? t % 3 : t / warpSize);
}

static void run_wave_not_uniform(void) {
    int *out = device_alloc<int>(size_t(2 * warpSize));
    hipLaunchKernelGGL(wave_uniform_kernel, 1, 2 * warpSize, 0, 0, out, 1);
}

static void test_wave_uniform(void **) {
    const int threads = 2 * warpSize;
    int *out = device_alloc<int>(size_t(threads));
    hipLaunchKernelGGL(wave_uniform_kernel, 1, threads, 0, 0, out, 0);
    HIP_OK(hipGetLastError());
    std::vector<int> host = download(out, size_t(threads));
    for (int t = 0; t < threads; t++) assert_int_equal(host[size_t(t)], t / warpSize);
    HIP_OK(hipFree(out));
    expect_abort(run_wave_not_uniform, "wave 0: a value the kernel declares uniform (the same in every "
                                       "lane) is 0 in lane 0 but 1 in lane 1");
}

static void test_other_aborts(void **) {
    expect_abort(run_nested_launch, "kernel 'flag_kernel' launched from inside a kernel");
    expect_abort(run_bad_schedule, "HIPCPU_SCHEDULE must be 'inorder' or 'random', not 'sideways'");
#if !UNDER_ASAN
    expect_abort(run_overflow_fresh, "kernel 'overflow_kernel' block (0,0,0): thread (0,0,0) overflowed its");
#endif
}

/* ---- Settings (common/executor/settings.h) ---------------------------------------- */

static std::string read_text(const std::string &path) {
    std::string text;
    if (FILE *f = fopen(path.c_str(), "r")) {
        char buffer[4096];
        size_t n;
        while ((n = fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
        fclose(f);
    }
    if (text.empty()) print_error("cannot read %s: run from the repository root\n", path.c_str());
    assert_false(text.empty());
    return text;
}

static size_t count_of(const std::string &text, const std::string &word) {
    size_t n = 0;
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) n++;
    return n;
}

static int bad_setting; /* the index run_bad_setting sets a bad value for */
static void run_bad_setting(void) {
    setenv(hipcpu_settings[bad_setting].name, "bogus", 1);
    hipcpu_setting_value(hipcpu_env(bad_setting));
}

/* The table is the one list: common/executor/README.md's tables name exactly its
 * variables, nothing in the executor or its tracer reads the environment but
 * its reader, and every bad value is refused in the table's one form. */
static void test_settings_table(void **) {
    const std::string readme = read_text("common/executor/README.md");
    std::vector<std::string> listed; /* the README's table rows "| `HIPCPU_NAME=...` |" */
    for (size_t at = readme.find("\n| `HIPCPU_"); at != std::string::npos; at = readme.find("\n| `HIPCPU_", at + 1))
        listed.push_back(readme.substr(at + 4, readme.find_first_of("=`", at + 4) - (at + 4)));
    for (const hipcpu_setting &s : hipcpu_settings) {
        if (std::find(listed.begin(), listed.end(), s.name) == listed.end())
            print_error("%s is not in common/executor/README.md's tables\n", s.name);
        assert_true(std::find(listed.begin(), listed.end(), s.name) != listed.end());
    }
    for (const std::string &name : listed) {
        bool known = false;
        for (const hipcpu_setting &s : hipcpu_settings) known = known || name == s.name;
        if (!known) print_error("common/executor/README.md lists %s, which settings.h does not\n", name.c_str());
        assert_true(known);
    }
    size_t getenvs = 0;
    for (const char *dir : {"common/executor", "common/executor/hip", "common/tracer"})
        if (DIR *d = opendir(dir)) {
            while (const dirent *e = readdir(d)) {
                const std::string name = e->d_name, suffix = name.substr(name.find_last_of('.') + 1);
                if (name.find('.') != std::string::npos && (suffix == "h" || suffix == "cpp"))
                    getenvs += count_of(read_text(std::string(dir) + "/" + name), "getenv(");
            }
            closedir(d);
        }
    assert_int_equal(getenvs, 1); /* hipcpu_setting_text's */
    for (bad_setting = 0; bad_setting < int(sizeof hipcpu_settings / sizeof *hipcpu_settings); bad_setting++) {
        const hipcpu_setting &s = hipcpu_settings[bad_setting];
        if (s.kind == HIPCPU_TEXT) continue;
        expect_abort(run_bad_setting, (std::string(s.name) + " must be " + s.what + ", not 'bogus'").c_str());
    }
}

int main(int argc, char **argv) {
#if !UNDER_ASAN
    if (argc == 2 && strcmp(argv[1], "--overflow") == 0) {
        run_overflow();
        return 0;
    }
#else
    (void)argc;
    (void)argv;
#endif
    set_schedule(nullptr, nullptr);
    unsetenv("HIPCPU_FAIL_ALLOC");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_launch_validation),
        cmocka_unit_test(test_barrier_divergence),
        cmocka_unit_test(test_shuffle_divergence),
        cmocka_unit_test(test_missing_lane),
        cmocka_unit_test(test_other_aborts),
        cmocka_unit_test(test_settings_table),
        cmocka_unit_test(test_wave_uniform),
    };
    return cmocka_run_group_tests_name("executor aborts (wave " STRINGIFY(HIPCPU_WAVE_SIZE) ")", tests, nullptr, nullptr);
}
