#define _POSIX_C_SOURCE 200809L
#include "viewer.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>


static const char SHADES[] = " .:-=+*#%@"; /* dark to bright */

/* How a digit is drawn: pixel rows per text line (1, or 2 when the screen is
 * too short for one) and characters per pixel (2, or 1 when it is too narrow). */
typedef struct {
    int rows_per_line;
    int chars_per_pixel;
} digit_layout;

/* The terminal: its size, and whether to clear it and colour the verdict. */
typedef struct {
    int rows, cols;
    int clear;
    int colour;
} screen;

/* The size of the terminal on standard output, or 80x24 when it has none. */
static void screen_measure(screen *s)
{
    struct winsize size;
    s->rows = 24;
    s->cols = 80;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0 && size.ws_col > 0) {
        s->rows = size.ws_row;
        s->cols = size.ws_col;
    }
}

/* Text lines that `length` characters take on a screen `cols` wide (at least one). */
static int text_lines(size_t length, int cols)
{
    size_t width = cols > 0 ? (size_t)cols : 80;
    return length == 0 ? 1 : (int)((length + width - 1) / width);
}

static char shade(int value)
{
    return SHADES[value * (int)(sizeof SHADES - 2) / 255];
}

static void draw_digit(FILE *out, const mnist_set *set, int index, digit_layout layout)
{
    const unsigned char *image = set->images + (size_t)index * set->pixels;
    for (int r = 0; r < set->rows; r += layout.rows_per_line) {
        const unsigned char *row = image + (size_t)r * set->cols;
        int pair = layout.rows_per_line == 2 && r + 1 < set->rows;
        fputs("  |", out);
        for (int c = 0; c < set->cols; c++) {
            /* two pixel rows on one line: the shade of their mean, rounded up
             * so that a one-pixel stroke stays visible */
            int value = pair ? (row[c] + row[c + set->cols] + 1) / 2 : row[c];
            for (int k = 0; k < layout.chars_per_pixel; k++) fputc(shade(value), out);
        }
        fputs("|\n", out);
    }
}

/* The verdict line, without colour: "test digit I of N: label L, predicted P  right". */
static int format_verdict(char *buf, size_t size, const mnist_set *set, int index, int guess)
{
    return snprintf(buf, size, "test digit %d of %d: label %d, predicted %d  ", index + 1,
                    set->count, set->labels[index], guess);
}

static void draw_verdict(FILE *out, const mnist_set *set, int index, int guess, int colour)
{
    char verdict[128];
    int right = set->labels[index] == guess;
    format_verdict(verdict, sizeof verdict, set, index, guess);
    fprintf(out, "%s%s%s%s\n", verdict, colour ? (right ? "\033[32m" : "\033[31m") : "",
            right ? "right" : "WRONG", colour ? "\033[0m" : "");
}

/* One page: the verdict, the digit just below it, a message line when there is
 * one, and the prompt, all within the screen's height when it can be done:
 * the digit at full height when it fits, else two pixel rows per line. */
static void draw_page(const screen *s, const mnist_set *set, int index, int guess,
                      const char *message, const char *prompt)
{
    char verdict[128];
    int verdict_length = format_verdict(verdict, sizeof verdict, set, index, guess);
    int text = text_lines((size_t)verdict_length + 5, s->cols) +
               text_lines(strlen(prompt) + 1, s->cols) +
               (message[0] ? text_lines(strlen(message), s->cols) : 0);
    digit_layout layout = {1, 2};
    if (2 * set->cols + 4 > s->cols) layout.chars_per_pixel = 1;
    if (set->rows + text > s->rows) layout.rows_per_line = 2;

    if (s->clear) fputs("\033[H\033[2J", stdout); /* cursor home, clear the screen */
    draw_verdict(stdout, set, index, guess, s->colour);
    draw_digit(stdout, set, index, layout);
    if (message[0]) printf("%s\n", message);
    fputs(prompt, stdout);
    fflush(stdout);
}

/* Reads one line of any length into buf (at most size - 1 characters kept,
 * the newline dropped); sets *truncated when characters were dropped.
 * Returns 0 at the end of the input. */
static int read_line(char *buf, size_t size, int *truncated)
{
    *truncated = 0;
    if (!fgets(buf, (int)size, stdin)) return 0;
    size_t length = strlen(buf);
    if (length > 0 && buf[length - 1] == '\n') {
        buf[length - 1] = '\0';
        return 1;
    }
    int c;
    while ((c = getchar()) != EOF && c != '\n') *truncated = 1;
    return 1;
}

/* `text` as it may be shown in a message: at most 16 characters, anything
 * unprintable (escape sequences, bytes outside ASCII) as '?'. */
static void printable(char *out, size_t size, const char *text, int truncated)
{
    size_t n = 0, length = strlen(text);
    const size_t shown = 16;
    for (size_t i = 0; i < length && i < shown && n + 1 < size; i++) {
        unsigned char c = (unsigned char)text[i];
        out[n++] = c < 128 && isprint(c) ? (char)c : '?';
    }
    out[n] = '\0';
    if ((length > shown || truncated) && n + 4 < size) strcat(out, "...");
}

/* Whether `word` is a non-empty prefix of `command` ("n", "ne", "next"). */
static int abbreviates(const char *word, const char *command)
{
    size_t length = strlen(word);
    if (length == 0 || length > strlen(command)) return 0;
    for (size_t i = 0; i < length; i++)
        if (tolower((unsigned char)word[i]) != command[i]) return 0;
    return 1;
}

enum { NEXT, PREVIOUS, WRONG, QUIT, JUMP, BAD_NUMBER, UNKNOWN };

/* The command in `line` (surrounding blanks ignored; an empty line is NEXT);
 * *number is the digit for JUMP (1-based). */
static int parse_command(char *line, int count, long *number)
{
    char *start = line;
    while (isspace((unsigned char)*start)) start++;
    size_t length = strlen(start);
    while (length > 0 && isspace((unsigned char)start[length - 1])) start[--length] = '\0';
    memmove(line, start, length + 1);
    if (length == 0) return NEXT;
    if (abbreviates(line, "next")) return NEXT;
    if (abbreviates(line, "previous")) return PREVIOUS;
    if (abbreviates(line, "wrong")) return WRONG;
    if (abbreviates(line, "quit")) return QUIT;
    if (strspn(line, "0123456789") == length) {
        errno = 0;
        *number = strtol(line, NULL, 10);
        return errno == 0 && *number >= 1 && *number <= count ? JUMP : BAD_NUMBER;
    }
    return UNKNOWN;
}

void viewer_run(const mnist_set *set, viewer_predict predict, const void *model)
{
    if (!isatty(STDIN_FILENO)) {
        printf("--view: standard input is not a terminal; skipping the viewer\n");
        return;
    }
    screen s;
    const char *term = getenv("TERM");
    s.clear = isatty(STDOUT_FILENO) && !(term && strcmp(term, "dumb") == 0);
    s.colour = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
    char prompt[128], message[256] = "", line[64], shown[32];
    snprintf(prompt, sizeof prompt,
             "Enter or n next, p previous, w next wrong, 1..%d jump, q quit > ", set->count);
    int index = 0;
    for (;;) {
        screen_measure(&s); /* every page, so a resized terminal is followed */
        int guess = predict(model, set->images + (size_t)index * set->pixels);
        draw_page(&s, set, index, guess, message, prompt);
        message[0] = '\0';
        int truncated;
        if (!read_line(line, sizeof line, &truncated)) {
            printf("\n");
            break;
        }
        long number = 0;
        int command = parse_command(line, set->count, &number);
        if (truncated) /* more than a line's worth: never a command */
            command = command == JUMP || command == BAD_NUMBER ? BAD_NUMBER : UNKNOWN;
        if (command == QUIT) break;
        switch (command) {
        case NEXT: index = (index + 1) % set->count; break;
        case PREVIOUS: index = index > 0 ? index - 1 : set->count - 1; break;
        case JUMP: index = (int)number - 1; break;
        case WRONG: {
            int found = -1;
            for (int step = 1; step < set->count && found < 0; step++) {
                int i = (index + step) % set->count;
                if (predict(model, set->images + (size_t)i * set->pixels) != set->labels[i])
                    found = i;
            }
            if (found >= 0) index = found;
            else
                snprintf(message, sizeof message, "no %swrong prediction among the %d test digits",
                         guess != set->labels[index] ? "other " : "", set->count);
            break;
        }
        case BAD_NUMBER:
            printable(shown, sizeof shown, line, truncated);
            snprintf(message, sizeof message, "no test digit %s: the numbers go 1..%d", shown,
                     set->count);
            break;
        default:
            printable(shown, sizeof shown, line, truncated);
            /* within 80 columns at the longest shown (19 characters): the
             * commands are spelled out on the prompt below */
            snprintf(message, sizeof message, "unknown command '%s': try n, p, w, 1..%d or q",
                     shown, set->count);
            break;
        }
    }
}
