/* Helpers shared by the executor's cmocka tests (test_executor.cpp,
 * test_trace.cpp): checked runtime calls, allocation, upload, download, and
 * a function run in a child process (for the executor's aborts).
 * Include after <hip/hip_runtime.h> and <cmocka.h>. */
#ifndef TESTS_EXECUTOR_HELPERS_H
#define TESTS_EXECUTOR_HELPERS_H

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
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

/* Runs fn in a child process with stderr captured; returns its wait status. */
static int run_in_child(bool (*fn)(void), std::string *err) {
    fflush(stdout);
    fflush(stderr);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* No cmocka in the child: its signal handlers would resume the test
         * run here, and nothing may reach the TAP stream. */
        const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS};
        for (int sig : signals) signal(sig, SIG_DFL);
        close(fds[0]);
        dup2(fds[1], 2);
        close(fds[1]);
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1);
        const bool ok = fn();
        _exit(ok ? 0 : 3); /* 3: ran to the end with a wrong answer */
    }
    close(fds[1]);
    char buffer[1024];
    ssize_t n;
    while ((n = read(fds[0], buffer, sizeof buffer)) > 0) err->append(buffer, size_t(n));
    close(fds[0]);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

#endif
