/* Every abort of the executor and its tracer, in one form: "hipcpu: " and
 * the message, with "kernel 'NAME' block (X,Y,Z): " in front for one from
 * inside a block. executor_internal.h: the parts. */
#include "executor_internal.h"

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
