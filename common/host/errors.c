/* Error reporting shared by the host code: see errors.h. */
#include "errors.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void error_wrap(FILE *out, const char *text)
{
    for (const char *line = text;; line++) {
        size_t left = strcspn(line, "\n");
        const char *p = line;
        size_t used = 0; /* columns already taken on the output line */
        while (used + left > ERROR_COLUMNS) {
            /* The last space with what comes before it within the line, or
             * a later one after a ':' or ';' past the middle (a break after
             * "PATH:" reads better than one inside a phrase); none when the
             * first word alone is too long: then it stays whole. */
            size_t room = ERROR_COLUMNS - used, cut = 0, after_colon = 0;
            for (size_t i = 1; i < left; i++) {
                if (p[i] != ' ' || p[i - 1] == ' ') continue;
                if (i > room) {
                    if (cut == 0) cut = i;
                    break;
                }
                cut = i;
                if ((p[i - 1] == ':' || p[i - 1] == ';') && used + i >= ERROR_COLUMNS / 2)
                    after_colon = i;
            }
            if (after_colon) cut = after_colon;
            if (cut == 0) break;
            fwrite(p, 1, cut, out);
            fprintf(out, "\n%*s", ERROR_INDENT, "");
            used = ERROR_INDENT;
            p += cut + 1;
            left -= cut + 1;
        }
        fwrite(p, 1, left, out);
        fputc('\n', out);
        line = p + left;
        if (*line == '\0') break;
    }
}

static void report(const char *format, va_list args)
{
    char text[2 * ERROR_TEXT_SIZE];
    int used = snprintf(text, sizeof text, "%s: ", program_name != NULL ? program_name : "train");
    if (used < 0 || (size_t)used >= sizeof text) used = 0;
    vsnprintf(text + used, sizeof text - (size_t)used, format, args);
    fflush(stdout);
    error_wrap(stderr, text);
}

void error_report(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report(format, args);
    va_end(args);
}

void fatal(int status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report(format, args);
    va_end(args);
    exit(status);
}
