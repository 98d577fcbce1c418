/* The CPU reference of chapter 09: see mlp_reference.h.
 *
 * Per image (x = pixel/255, the 784 features):
 *   z1 = W1 x + b1, a1 = max(z1, 0)          hidden layer
 *   z2 = W2 a1 + b2, p = softmax(z2)          output layer
 *   loss = log sum_c exp(z2[c] - m) - (z2[y] - m),  m = max_c z2[c]
 * and its gradient, averaged over the B images of the mini-batch:
 *   dz2 = (p - onehot(y)) / B                 10 values
 *   dW2 += dz2 a1^T,  db2 += dz2
 *   dz1 = (W2^T dz2) * [z1 > 0]               H values: back through W2 and the ReLU
 *   dW1 += dz1 x^T,   db1 += dz1 */
#include "mlp_reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int mlp_reference_init(mlp_reference *r, int hidden)
{
    memset(r, 0, sizeof *r);
    mlp_layout_init(&r->layout, hidden);
    r->params = malloc(r->layout.count * sizeof *r->params);
    r->grad = malloc(r->layout.count * sizeof *r->grad);
    r->a1 = malloc((size_t)hidden * sizeof *r->a1);
    r->da1 = malloc((size_t)hidden * sizeof *r->da1);
    if (!r->params || !r->grad || !r->a1 || !r->da1) {
        mlp_reference_free(r);
        return -1;
    }
    return 0;
}

void mlp_reference_free(mlp_reference *r)
{
    free(r->params);
    free(r->grad);
    free(r->a1);
    free(r->da1);
    memset(r, 0, sizeof *r);
}

double mlp_reference_gradient(mlp_reference *r, const double *params, const uint8_t *pixels,
                              const uint8_t *labels, const int *order, int first, int count,
                              long *correct)
{
    const mlp_layout *l = &r->layout;
    const int hidden = l->hidden;
    const double *w1 = params + l->w1, *b1 = params + l->b1;
    const double *w2 = params + l->w2, *b2 = params + l->b2;
    double *gw1 = r->grad + l->w1, *gb1 = r->grad + l->b1;
    double *gw2 = r->grad + l->w2, *gb2 = r->grad + l->b2;
    double *a1 = r->a1, *da1 = r->da1;
    memset(r->grad, 0, l->count * sizeof *r->grad);
    double loss_sum = 0.0;

    for (int i = 0; i < count; i++) {
        int n = order ? order[first + i] : first + i;
        const uint8_t *image = pixels + (size_t)n * MLP_INPUTS;
        int label = labels[n];

        /* The nonzero features: a zero adds nothing to any sum below. */
        int nonzero[MLP_INPUTS];
        double x[MLP_INPUTS];
        int nz = 0;
        for (int k = 0; k < MLP_INPUTS; k++)
            if (image[k]) {
                nonzero[nz] = k;
                x[nz++] = (double)(image[k] * MLP_PIXEL_SCALE);
            }

        /* Hidden layer. */
        for (int h = 0; h < hidden; h++) {
            const double *row = w1 + (size_t)h * MLP_INPUTS;
            double z = b1[h];
            for (int j = 0; j < nz; j++) z += row[nonzero[j]] * x[j];
            a1[h] = z > 0.0 ? z : 0.0;
        }

        /* Output layer, softmax, loss, prediction. */
        double z2[MLP_CLASSES];
        int best = 0;
        for (int c = 0; c < MLP_CLASSES; c++) {
            const double *row = w2 + (size_t)c * hidden;
            double z = b2[c];
            for (int h = 0; h < hidden; h++) z += row[h] * a1[h];
            z2[c] = z;
            if (z > z2[best]) best = c;
        }
        double sum = 0.0, e[MLP_CLASSES];
        for (int c = 0; c < MLP_CLASSES; c++) sum += e[c] = exp(z2[c] - z2[best]);
        loss_sum += log(sum) - (z2[label] - z2[best]);
        *correct += best == label;

        /* Backward: the output layer... */
        double dz2[MLP_CLASSES];
        for (int c = 0; c < MLP_CLASSES; c++) {
            dz2[c] = (e[c] / sum - (c == label ? 1.0 : 0.0)) / count;
            double *g = gw2 + (size_t)c * hidden;
            for (int h = 0; h < hidden; h++) g[h] += dz2[c] * a1[h];
            gb2[c] += dz2[c];
        }
        /* ...back through W2 and the ReLU (a1 > 0 exactly where z1 > 0)... */
        for (int h = 0; h < hidden; h++) da1[h] = 0.0;
        for (int c = 0; c < MLP_CLASSES; c++) {
            const double *row = w2 + (size_t)c * hidden;
            for (int h = 0; h < hidden; h++) da1[h] += dz2[c] * row[h];
        }
        /* ...and the hidden layer. */
        for (int h = 0; h < hidden; h++) {
            if (!(a1[h] > 0.0)) continue;
            double *g = gw1 + (size_t)h * MLP_INPUTS;
            for (int j = 0; j < nz; j++) g[nonzero[j]] += da1[h] * x[j];
            gb1[h] += da1[h];
        }
    }
    return loss_sum;
}

double mlp_reference_step(mlp_reference *r, float *params, float learning_rate,
                          const uint8_t *pixels, const uint8_t *labels, const int *order,
                          int first, int count, long *correct)
{
    size_t n = r->layout.count;
    for (size_t j = 0; j < n; j++) r->params[j] = params[j];
    double loss_sum =
        mlp_reference_gradient(r, r->params, pixels, labels, order, first, count, correct);
    for (size_t j = 0; j < n; j++) params[j] -= (float)(learning_rate * r->grad[j]);
    return loss_sum;
}
