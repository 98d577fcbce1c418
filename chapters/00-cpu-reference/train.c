/* Chapter 00: the CPU reference.
 *
 * The whole model in plain C, written to be read next to the math:
 *   x[k]  = pixel/255 for k < 784, x[784] = 1        (features, with a bias)
 *   Yhat  = W X^T                                    (10 scores per image)
 *   L     = (1/N) sum_i sum_c (Yhat[c,i] - Y[c,i])^2  (Y is one-hot)
 *   G     = (2/N) (Yhat - Y) X                        (dL/dW, 10 x 785)
 *   W    -= learning_rate * G                         (full batch)
 *
 * Every GPU chapter is checked against this file, so it favours exactness
 * over speed: sums are accumulated in double, and only W is stored as float
 * (as the GPU chapters store it). One pass over the images per iteration:
 * each image's scores, residual and gradient contribution are computed while
 * its 785 features are still in the cache.
 *
 * The GPU trainers' --check runs this file's train_iteration on the host
 * (common/linear/cpu_reference.h); they link it compiled without main. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_reference.h"
#include "errors.h"
#include "linear_session.h"
#include "timing.h"

void train_iteration(const float *x, const unsigned char *labels, int images,
                     float *w, float learning_rate, double *gradient,
                     float *loss, float *accuracy)
{
    memset(gradient, 0, MODEL_WEIGHTS * sizeof *gradient);
    double loss_sum = 0.0;
    long correct = 0;

    for (int i = 0; i < images; i++) {
        const float *xi = x + (size_t)i * MODEL_FEATURES;

        /* Scores: ten dot products, computed side by side so that the
         * ten running sums are independent (the CPU overlaps them). */
        double score[MODEL_CLASSES] = {0};
        for (int k = 0; k < MODEL_FEATURES; k++)
            for (int c = 0; c < MODEL_CLASSES; c++)
                score[c] += (double)w[c * MODEL_FEATURES + k] * xi[k];

        /* Prediction (ties go to the lowest class) and accuracy, at the
         * weights before this iteration's update. */
        int best = 0;
        for (int c = 1; c < MODEL_CLASSES; c++)
            if (score[c] > score[best]) best = c;
        correct += best == labels[i];

        /* Residual, loss and this image's share of the gradient. */
        for (int c = 0; c < MODEL_CLASSES; c++) {
            double residual = score[c] - (c == labels[i] ? 1.0 : 0.0);
            loss_sum += residual * residual;
            double scale = 2.0 * residual / images;
            double *g = gradient + c * MODEL_FEATURES;
            for (int k = 0; k < MODEL_FEATURES; k++) g[k] += scale * xi[k];
        }
    }

    for (int j = 0; j < MODEL_WEIGHTS; j++)
        w[j] -= (float)(learning_rate * gradient[j]);
    *loss = (float)(loss_sum / images);
    *accuracy = (float)((double)correct / images);
}

#ifndef CPU_REFERENCE_STEP_ONLY /* defined when the GPU trainers' copy is built */
int main(int argc, char **argv)
{
    session s;
    session_begin(&s, argc, argv, "00-cpu-reference", "cpu");
    session_start(&s, "host CPU, plain C, one thread");
    if (s.opts.check)
        printf("--check: chapter 00 is the reference the other chapters' --check compares\n"
               "  with, so there is nothing to compare it against (tests/test_reference.c\n"
               "  checks its gradient against finite differences)\n");

    double t0 = timing_now_ms();
    float *x = mnist_features_rows(&s.data.train); /* images x 785, bias last */
    float *w = malloc(MODEL_WEIGHTS * sizeof *w);
    double *gradient = malloc(MODEL_WEIGHTS * sizeof *gradient);
    if (!x || !w || !gradient) fatal(1, "out of host memory for the features and weights");
    s.upload_ms = timing_now_ms() - t0; /* building the float features */
    model_init_weights(w);

    for (int it = 0; it < s.opts.iterations; it++) {
        double start = timing_now_ms();
        train_iteration(x, s.data.train.labels, s.data.train.count, w, s.opts.learning_rate,
                        gradient, &s.loss[it], &s.train_accuracy[it]);
        s.iteration_ms[it] = timing_now_ms() - start;
        session_progress(&s, it);
    }

    int status = session_finish(&s, w);
    free(gradient);
    free(w);
    free(x);
    session_end(&s);
    return status;
}
#endif
