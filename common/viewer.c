#define _POSIX_C_SOURCE 200809L
#include "viewer.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"

static const char SHADES[] = " .:-=+*#%@"; /* dark to bright, two characters per pixel */

static void draw(FILE *out, const mnist_set *set, int index, int guess, int colour)
{
    const unsigned char *image = set->images + (size_t)index * set->pixels;
    int truth = set->labels[index];
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

void viewer_draw(FILE *out, const mnist_set *set, const float *w, int index, int colour)
{
    draw(out, set, index, model_predict(w, set->images + (size_t)index * set->pixels), colour);
}

static int linear_predict(const void *w, const uint8_t *image)
{
    return model_predict((const float *)w, image);
}

void viewer_run(const mnist_set *set, const float *w)
{
    viewer_run_model(set, linear_predict, w);
}

void viewer_run_model(const mnist_set *set, viewer_predict predict, const void *model)
{
    if (!isatty(STDIN_FILENO)) {
        printf("--view: standard input is not a terminal; skipping the viewer\n");
        return;
    }
    int colour = isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
    int index = 0;
    char line[64];
    for (;;) {
        draw(stdout, set, index, predict(model, set->images + (size_t)index * set->pixels),
             colour);
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
                     predict(model, set->images + (size_t)index * set->pixels) ==
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
