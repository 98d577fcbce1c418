/* An ASCII viewer for test digits: the image, its label and the prediction. */
#ifndef COMMON_VIEWER_H
#define COMMON_VIEWER_H

#include <stdio.h>

#include "mnist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Draws image `index` of `set` with its truth and the prediction of w. */
void viewer_draw(FILE *out, const mnist_set *set, const float *w, int index, int colour);

/* Interactive loop on the terminal: n(ext), p(revious), w (next wrong),
 * a number to jump, q(uit). Returns at once, with a note, when standard
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
