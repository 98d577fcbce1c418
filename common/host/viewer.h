/* An ASCII viewer for test digits: the image, its label and the prediction. */
#ifndef COMMON_VIEWER_H
#define COMMON_VIEWER_H

#include <stdio.h>

#include "mnist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Draws image `index` of `set` with its truth and the prediction of w: the
 * verdict line, then the digit at full height, two characters per pixel. */
void viewer_draw(FILE *out, const mnist_set *set, const float *w, int index, int colour);

/* Interactive loop on the terminal: Enter or n(ext), p(revious), w (next
 * wrong), a number 1..count to jump, q(uit) (any prefix of the words, in any
 * case). Anything else gets a one-line hint and the same digit again.
 * Each page (the verdict line, the digit just below it, a message line when
 * there is one, the prompt) fits the terminal on standard output (80x24 when
 * its size is unknown): when the digit's rows do not fit, each text line
 * shows two pixel rows (the shade of their mean), and below 60 columns one
 * character per pixel. When standard output is a terminal the screen is
 * cleared before each page. Returns at once, with a note, when standard
 * input is not a terminal, so scripts never hang on it. */
void viewer_run(const mnist_set *set, const float *w);

/* viewer_run for any model: predict(model, image) is the predicted class.
 * (viewer_run is this with the linear model's prediction.) */
typedef int (*viewer_predict)(const void *model, const uint8_t *image);
void viewer_run_model(const mnist_set *set, viewer_predict predict, const void *model);

#ifdef __cplusplus
}
#endif
#endif
