/* Error reporting shared by the host code.
 * Functions that can fail on bad input return 0 on success and -1 on failure,
 * after writing a sentence a person understands into a caller-provided buffer. */
#ifndef COMMON_ERRORS_H
#define COMMON_ERRORS_H

#include <stddef.h>

#define ERROR_TEXT_SIZE 512

#ifdef __cplusplus
extern "C" {
#endif

/* printf-style: writes the message into err (if non-NULL) and returns -1. */
int error_set(char *err, size_t err_size, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Prints "PROGRAM: message" to stderr and exits with the given status. */
void fatal(int status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3), noreturn))
#endif
    ;

/* The program name used by fatal(); set once by the command-line parser. */
extern const char *program_name;

#ifdef __cplusplus
}
#endif
#endif
