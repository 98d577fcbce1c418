/* Error reporting shared by the host code.
 * Functions that can fail on bad input return 0 on success and -1 on failure,
 * after writing a sentence a person understands into a caller-provided buffer. */
#ifndef COMMON_ERRORS_H
#define COMMON_ERRORS_H

#include <stddef.h>
#include <stdio.h>

#define ERROR_TEXT_SIZE 512
/* Messages are wrapped to this many columns, each line after the first
 * indented by ERROR_INDENT spaces (a word longer than a line, such as a long
 * path, stays whole). */
#define ERROR_COLUMNS 80
#define ERROR_INDENT 2

#ifdef __cplusplus
extern "C" {
#endif

/* printf-style: writes the message into err (if non-NULL) and returns -1. */
int error_set(char *err, size_t err_size, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Writes `text` and a newline to `out`, each line wrapped at ERROR_COLUMNS:
 * at the last space that keeps the line within them, or after a ':' or ';'
 * past the middle of the line. The space becomes a newline and ERROR_INDENT
 * spaces, so joining each "\n  " back into " " gives the text again. */
void error_wrap(FILE *out, const char *text);

/* Prints "PROGRAM: message" to stderr, wrapped by error_wrap. */
void error_report(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* error_report, then exits with the given status. */
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
