/* The executor's environment settings, in one table. Every read of a HIPCPU_*
 * variable, the executor's and its tracer's, goes through
 * hipcpu_setting_value or hipcpu_setting_text (settings.cpp), so that a bad
 * value is refused in one form: "hipcpu: NAME must be WHAT, not 'VALUE'".
 * common/executor/README.md's tables list the same names (test_executor_aborts.cpp
 * checks). Not for kernel code. */
#ifndef HIPCPU_SETTINGS_H
#define HIPCPU_SETTINGS_H

#include "device_limits.h" /* HIPCPU_COMPUTE_UNITS's default */

enum hipcpu_setting_kind {
    HIPCPU_NUMBER, /* a whole number from low to high, in strtoull's base (0 also takes 0x...) */
    HIPCPU_CHOICE, /* one of the words of `choices`; its value is the word's index */
    HIPCPU_TEXT    /* any text, e.g. a file name */
};

/* X(NAME, kind, base, low, high, fallback, choices, what, needs_trace, meaning):
 * fallback is the value when unset or empty (HIPCPU_STACK_KB's 0: the build's
 * own size); what is what a value must be, for the error; needs_trace: a
 * build without the tracer refuses it rather than silently ignoring it. */
#define HIPCPU_SETTINGS(X)                                                                                      \
    X(HIPCPU_SCHEDULE, HIPCPU_CHOICE, 0, 0, 1, 0, "inorder|random", "'inorder' or 'random'", false,            \
      "the order of blocks, waves and lanes; read at every launch")                                             \
    X(HIPCPU_SEED, HIPCPU_NUMBER, 0, 0, ~0ull, 1, "", "a number", false,                                        \
      "the random schedule's seed; read at every launch")                                                       \
    X(HIPCPU_FAIL_ALLOC, HIPCPU_NUMBER, 10, 0, ~0ull, 0, "", "a number", false,                                 \
      "the N-th hipMalloc from the last change fails (0: none); read at every hipMalloc")                       \
    X(HIPCPU_COMPUTE_UNITS, HIPCPU_NUMBER, 10, 1, 4096, hipcpu_limits::kComputeUnits, "",                       \
      "a number from 1 to 4096", false,                                                                         \
      "the multiProcessorCount reported; read at every hipGetDeviceProperties")                                 \
    X(HIPCPU_STACK_KB, HIPCPU_NUMBER, 10, 16, 1024 * 1024, 0, "", "a number of KiB from 16 to 1048576", false, \
      "the fiber stack size in KiB (64, or 256 under ASan); read when the first stack is made")                 \
    X(HIPCPU_PROGRESS, HIPCPU_CHOICE, 0, 0, 2, 0, "auto|on|off", "'auto', 'on' or 'off'", false,                 \
      "a long launch shows its blocks done and the time left on stderr (on: from 1 s; auto: from 5 s, on a terminal)") \
    X(HIPCPU_WATCHDOG_S, HIPCPU_NUMBER, 10, 0, 86400, 60, "", "a number of seconds from 0 to 86400", false,     \
      "a launch stops when no wave reached a barrier or its end for this long (0: never); read at every launch") \
    X(HIPCPU_PROFILE, HIPCPU_TEXT, 0, 0, 0, 0, "", "a file name", true,                                         \
      "trace build: the counters per kernel, written to this file at exit")                                     \
    X(HIPCPU_PROFILE_SITES, HIPCPU_TEXT, 0, 0, 0, 0, "", "a file name", false,                                  \
      "trace build, with HIPCPU_PROFILE: a row per call site, to this file")                                    \
    X(HIPCPU_PROFILE_LINES, HIPCPU_TEXT, 0, 0, 0, 0, "", "a file name", false,                                  \
      "trace build, with HIPCPU_PROFILE: a row per kernel and source line, to this file")                       \
    X(HIPCPU_SAMPLE_BLOCKS, HIPCPU_NUMBER, 10, 0, 1u << 31, 0, "", "a number of blocks from 0 to 2147483648", true, \
      "trace build, with HIPCPU_PROFILE: trace about N blocks of a bigger launch, scale the counts (0: all)") \
    X(HIPCPU_RACECHECK, HIPCPU_CHOICE, 0, 0, 1, 0, "0|1", "1 or 0", true,                                       \
      "trace build: 1 checks for races and uninitialised shared-memory reads")                                 \
    X(HIPCPU_SANITIZE, HIPCPU_CHOICE, 0, 0, 1, 0, "0|1", "1 or 0", true,                                        \
      "trace build: 1 runs memcheck, initcheck, racecheck and synccheck; findings are counted, not fatal")

/* hipcpu_setting_value(hipcpu_env::HIPCPU_SEED) and the like. */
enum class hipcpu_env {
#define HIPCPU_SETTING_ID(name, ...) name,
    HIPCPU_SETTINGS(HIPCPU_SETTING_ID)
#undef HIPCPU_SETTING_ID
};

struct hipcpu_setting {
    const char *name;
    hipcpu_setting_kind kind;
    int base;
    unsigned long long low, high, fallback;
    const char *choices, *what;
    bool needs_trace;
    const char *meaning;
};

inline constexpr hipcpu_setting hipcpu_settings[] = {
#define HIPCPU_SETTING_ROW(name, ...) {#name, __VA_ARGS__},
    HIPCPU_SETTINGS(HIPCPU_SETTING_ROW)
#undef HIPCPU_SETTING_ROW
};

/* The variable's text; "" when unset. */
const char *hipcpu_setting_text(hipcpu_env id);
/* A number, or a choice's index, checked against the table (anything else
 * stops the program with the table's error); 1 for a text that is set; the
 * fallback when unset or empty. */
unsigned long long hipcpu_setting_value(hipcpu_env id);

#endif
