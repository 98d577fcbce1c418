#define _POSIX_C_SOURCE 200809L
#include "viewer.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"

static const char SHADES[] = " .:-=+*#%@"; /* dark to bright, two characters per pixel */

void viewer_draw(FILE *out, const mnist_set *set, const float *w, int index, int colour)
{
    const unsigned char *image = set->images + (size_t)index * set->pixels;
    int truth = set->labels[index];
    int guess = model_predict(w, image);
    int right = truth == guess;
    fprintf(out, "test digit %d of %d: label %d, predicted %d  %s%s%s\n", index + 1, set->count,
            truth, guess, colour ? (right ? "\033[32m" : "\033[31m") : "",
            right ? "right" : "WRONG", colour ? "\033[0m" : "");
    for (int r = 0; r < set->rows; r++) {
        fputs("  |", out);
        for (int c = 0; c < set->cols; c++) {
            int shade = image[r * set->cols + c] * (int)(sizeof SHADES - 2) / 255;
            fputc(SHADES[shade], out);
            fputc(SHADES[shade], out);
        }
        fputs("|\n", out);
    }
}

void viewer_run(const mnist_set *set, const float *w)
{
    if (!isatty(STDIN_FILENO)) {
        printf("--view: standard input is not a terminal; skipping the viewer\n");
        return;
    }
    int colour = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
    int index = 0;
    char line[64];
    for (;;) {
        viewer_draw(stdout, set, w, index, colour);
        printf("[n]ext [p]revious [w]rong next, NUMBER to jump, [q]uit > ");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) break;
        char command = line[0];
        if (command == 'q') break;
        if (command == 'p') {
            index = index > 0 ? index - 1 : set->count - 1;
        } else if (command == 'w') {
            int start = index;
            do {
                index = (index + 1) % set->count;
            } while (index != start &&
                     model_predict(w, set->images + (size_t)index * set->pixels) ==
                         set->labels[index]);
        } else if (command >= '0' && command <= '9') {
            int n = atoi(line);
            if (n >= 1 && n <= set->count) index = n - 1;
            else printf("no test digit %d (1..%d)\n", n, set->count);
        } else {
            index = (index + 1) % set->count;
        }
    }
    printf("\n");
}
