/* An ASCII viewer for test digits: the image, its label and the prediction. */
#ifndef COMMON_VIEWER_H
#define COMMON_VIEWER_H

#include <stdint.h>
#include <stdio.h>

#include "mnist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The predicted class of one image (28 x 28 bytes) under a model. */
typedef int (*viewer_predict)(const void *model, const uint8_t *image);

/* Interactive loop on the terminal, the predictions predict(model, image): Enter or n(ext), p(revious), w (next
 * wrong), a number 1..count to jump, q(uit) (any prefix of the words, in any
 * case). Anything else gets a one-line hint and the same digit again.
 * Each page (the verdict line, the digit just below it, a message line when
 * there is one, the prompt) fits the terminal on standard output (80x24 when
 * its size is unknown): when the digit's rows do not fit, each text line
 * shows two pixel rows (the shade of their mean), and below 60 columns one
 * character per pixel. When standard output is a terminal the screen is
 * cleared before each page. Returns at once, with a note, when standard
 * input is not a terminal, so scripts never hang on it. */
void viewer_run(const mnist_set *set, viewer_predict predict, const void *model);

#ifdef __cplusplus
}
#endif
#endif
