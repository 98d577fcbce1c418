/* Every abort of the executor and its tracer, in one form: "hipcpu: " and
 * the message, with "kernel 'NAME' block (X,Y,Z): " in front for one from
 * inside a block; and make sanitize's findings, which are counted rather
 * than fatal. executor_internal.h: the parts. */
#include "executor_internal.h"
#include "settings.h"
#include "tracer/trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

namespace hipcpu_exec {

/* Where an abort comes from: the program, the running block, or the running
 * block's SIGSEGV handler, which must not use stdio (the fault may have hit
 * inside it). */
enum Origin { kProgram, kBlock, kSignal };

/* The message, written to stderr in one piece, then the end of the process. */
[[noreturn]] static void vdie(Origin origin, const char *format, va_list args) {
    char text[1024], line[4096];
    vsnprintf(text, sizeof text, format, args);
    const int n = origin == kProgram ? snprintf(line, sizeof line, "hipcpu: %s\n", text)
                                     : snprintf(line, sizeof line, "hipcpu: kernel '%s' block (%u,%u,%u): %s\n",
                                                ex.kernel, D3(hipcpu_block_idx), text);
    if (origin != kSignal) {
        fflush(stdout); /* keep the kernel's own printf output */
        fflush(stderr);
    }
    ssize_t written = write(2, line, n < 0 ? 0 : size_t(n) < sizeof line ? size_t(n) : sizeof line - 1);
    (void)written;
    _exit(1);
}

void die_in_signal_handler(const char *format, ...) {
    va_list args;
    va_start(args, format);
    vdie(kSignal, format, args);
}

} /* namespace hipcpu_exec */

/* The executor's and the tracer's (tracer/trace.h). */
void hipcpu_die(const char *format, ...) {
    va_list args;
    va_start(args, format);
    hipcpu_exec::vdie(hipcpu_exec::kProgram, format, args);
}

void hipcpu_die_in_block(const char *format, ...) {
    va_list args;
    va_start(args, format);
    hipcpu_exec::vdie(hipcpu_exec::kBlock, format, args);
}

/* ---- make sanitize's findings (HIPCPU_SANITIZE=1) --------------------------------- */

/* A finding of one of compute-sanitizer's four classes. Under HIPCPU_SANITIZE
 * the first of each class is printed in full and the rest are counted, the
 * run goes on, and at exit a summary line ends it with status 1. Otherwise
 * (HIPCPU_RACECHECK alone) the first finding ends the run, as every executor
 * error does. */
static const char *const kCheckName[] = {"memcheck", "initcheck", "racecheck", "synccheck"};
static unsigned long long findings[4];

bool hipcpu_sanitizing(void) {
    static int on = -1;
    if (on < 0) on = hipcpu_setting_value(hipcpu_env::HIPCPU_SANITIZE) == 1;
    return on;
}

bool hipcpu_finding_counted(hipcpu_check check) {
    if (!hipcpu_sanitizing() || !findings[check]) return false;
    findings[check]++;
    return true;
}

void hipcpu_findings_end(void) {
    unsigned long long total = 0;
    char counts[256] = "";
    size_t used = 0;
    for (int c = 0; c < 4; c++) {
        if (!findings[c]) continue;
        total += findings[c];
        used += size_t(snprintf(counts + used, sizeof counts - used, "%s%s %llu", used ? ", " : "", kCheckName[c],
                                findings[c]));
    }
    if (!total) return;
    fflush(stdout);
    fprintf(stderr, "hipcpu: sanitize: %llu finding%s (%s); the first of each class is shown above\n", total,
            total == 1 ? "" : "s", counts);
    fflush(stderr);
    _exit(1);
}

void hipcpu_finding(hipcpu_check check, bool in_block, const char *format, ...) {
    va_list args;
    va_start(args, format);
    if (!hipcpu_sanitizing()) hipcpu_exec::vdie(in_block ? hipcpu_exec::kBlock : hipcpu_exec::kProgram, format, args);
    if (findings[check]++) {
        va_end(args);
        return;
    }
    char text[1024];
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    fflush(stdout);
    if (in_block)
        fprintf(stderr, "hipcpu: %s: kernel '%s' block (%u,%u,%u): %s\n", kCheckName[check], hipcpu_exec::ex.kernel,
                D3(hipcpu_block_idx), text);
    else
        fprintf(stderr, "hipcpu: %s: %s\n", kCheckName[check], text);
    fflush(stderr);
}
