/* Error reporting shared by the host code: see errors.h. */
#include "errors.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *program_name = "train";

int error_set(char *err, size_t err_size, const char *format, ...)
{
    if (err != NULL && err_size > 0) {
        va_list args;
        va_start(args, format);
        vsnprintf(err, err_size, format, args);
        va_end(args);
    }
    return -1;
}

void fatal(int status, const char *format, ...)
{
    va_list args;
    fflush(stdout);
    fprintf(stderr, "%s: ", program_name != NULL ? program_name : "train");
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    exit(status);
}
