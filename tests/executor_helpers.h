/* Helpers shared by the executor's cmocka tests (tests/test_executor_*.cpp,
 * tests/test_trace_*.cpp): checked runtime calls, allocation, upload,
 * download, the schedule, a function run in a child process (for the
 * executor's aborts); in the trace build also the counters of a kernel and
 * the checks of a child's message. Each helper that not every program calls
 * is a template or inline, so that no program warns of one it leaves unused.
 * Include after <hip/hip_runtime.h> and <cmocka.h>. */
#ifndef TESTS_EXECUTOR_HELPERS_H
#define TESTS_EXECUTOR_HELPERS_H

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)
#define HIP_OK(call) assert_int_equal((call), hipSuccess)

/* Under AddressSanitizer some cases cannot run: ASan reports a stack
 * overflow itself, and its allocator does not return NULL. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

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

/* HIPCPU_SCHEDULE and HIPCPU_SEED for the launches that follow; null unsets. */
static inline void set_schedule(const char *mode, const char *seed) {
    if (mode) setenv("HIPCPU_SCHEDULE", mode, 1); else unsetenv("HIPCPU_SCHEDULE");
    if (seed) setenv("HIPCPU_SEED", seed, 1); else unsetenv("HIPCPU_SEED");
}

/* Runs fn in a child process with stderr captured; returns its wait status. */
static inline int run_in_child(bool (*fn)(void), std::string *err) {
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

#if defined(HIPCPU_TRACE) && HIPCPU_TRACE
/* ---- The trace build's tests ---------------------------------------------- */

/* The wave size as an unsigned number, for the tests' formulas. */
static const unsigned W = unsigned(warpSize);

/* Every launch of a trace test program is counted and race-checked: the
 * settings are read at the first launch, so main calls this first. */
static inline void trace_every_launch() {
    setenv("HIPCPU_PROFILE", "/dev/null", 1);
    setenv("HIPCPU_RACECHECK", "1", 1);
    unsetenv("HIPCPU_PROFILE_SITES");
    unsetenv("HIPCPU_SCHEDULE");
    unsetenv("HIPCPU_SEED");
    unsetenv("HIPCPU_FAIL_ALLOC");
}

/* A device buffer with a name for the race check's messages. */
template <typename T> static T *named_alloc(size_t count, const char *name) {
    T *p = device_alloc<T>(count);
    hipcpu_name_allocation(p, name);
    return p;
}

/* The counters of `kernel` since the last hipcpu_trace_reset. */
static inline hipcpu_kernel_counters counters_of(const char *kernel) {
    hipcpu_kernel_counters c;
    memset(&c, 0, sizeof c);
    if (!hipcpu_trace_counters(kernel, &c)) print_error("no counters for kernel '%s'\n", kernel);
    assert_true(hipcpu_trace_counters(kernel, &c));
    return c;
}

/* Whether text contains pattern, in which '*' stands for any run of
 * characters other than spaces and newlines (a path's directory). */
static inline bool contains(const std::string &text, const std::string &pattern) {
    std::vector<std::string> pieces(1);
    for (char ch : pattern) {
        if (ch == '*')
            pieces.emplace_back();
        else
            pieces.back() += ch;
    }
    for (size_t start = text.find(pieces[0]); start != std::string::npos; start = text.find(pieces[0], start + 1)) {
        size_t at = start + pieces[0].size();
        bool matched = true;
        for (size_t i = 1; i < pieces.size() && matched; i++) {
            const size_t next = text.find(pieces[i], at);
            matched = next != std::string::npos && text.find_first_of(" \n", at) >= next;
            if (matched) at = next + pieces[i].size();
        }
        if (matched) return true;
    }
    return false;
}

/* fn must abort with exit status 1 and a message that starts with "hipcpu: "
 * and contains every pattern of `expected` (see contains). */
static inline void expect_abort(bool (*fn)(void), const std::vector<std::string> &expected) {
    std::string text;
    const int status = run_in_child(fn, &text);
    bool found = true;
    for (const std::string &e : expected) found = found && contains(text, e);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 1 || text.compare(0, 8, "hipcpu: ") != 0 || !found) {
        print_error("child status %d, stderr:\n%s\nexpected to contain:\n", status, text.c_str());
        for (const std::string &e : expected) print_error("  %s\n", e.c_str());
    }
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
    assert_int_equal(text.compare(0, 8, "hipcpu: "), 0);
    assert_true(found);
}

/* fn must run to its end, with the right answer and nothing on stderr. */
static inline void expect_clean(bool (*fn)(void)) {
    std::string text;
    const int status = run_in_child(fn, &text);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !text.empty())
        print_error("child status %d, stderr:\n%s\n", status, text.c_str());
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(text.empty());
}
#endif

#endif
