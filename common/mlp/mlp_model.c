/* The model of chapter 09: see mlp_model.h. */
#include "mlp_model.h"

#include <math.h>
#include <stdlib.h>

void mlp_layout_init(mlp_layout *l, int hidden)
{
    l->hidden = hidden;
    l->w1 = 0;
    l->b1 = l->w1 + (size_t)hidden * MLP_INPUTS;
    l->w2 = l->b1 + (size_t)hidden;
    l->b2 = l->w2 + (size_t)MLP_CLASSES * hidden;
    l->count = l->b2 + MLP_CLASSES;
}

void mlp_init_params(const mlp_layout *l, float *params)
{
    const float a1 = sqrtf(6.0f / (float)MLP_INPUTS), a2 = sqrtf(6.0f / (float)l->hidden);
    for (size_t j = 0; j < (size_t)l->hidden * MLP_INPUTS; j++)
        params[l->w1 + j] = a1 * (2.0f * model_hash_uniform((uint32_t)j + MLP_SEED_W1) - 1.0f);
    for (int h = 0; h < l->hidden; h++) params[l->b1 + h] = 0.0f;
    for (size_t j = 0; j < (size_t)MLP_CLASSES * l->hidden; j++)
        params[l->w2 + j] = a2 * (2.0f * model_hash_uniform((uint32_t)j + MLP_SEED_W2) - 1.0f);
    for (int c = 0; c < MLP_CLASSES; c++) params[l->b2 + c] = 0.0f;
}

void mlp_shuffle(int *order, int count, int epoch)
{
    for (int i = 0; i < count; i++) order[i] = i;
    uint32_t base = MLP_SHUFFLE_SEED + 0x9e3779b9u * (uint32_t)epoch;
    for (int i = count - 1; i > 0; i--) {
        /* u < 1 (24 bits), so j <= i; exact in double for any int i. */
        int j = (int)((double)model_hash_uniform(base + (uint32_t)i) * (double)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

int mlp_predict(const mlp_layout *l, const float *params, const uint8_t *image, double *a1,
                double *loss_out, int label)
{
    /* Most MNIST pixels are 0: the sums skip them, which changes no sum. */
    int nonzero[MLP_INPUTS];
    double x[MLP_INPUTS];
    int n = 0;
    for (int k = 0; k < MLP_INPUTS; k++)
        if (image[k]) {
            nonzero[n] = k;
            x[n++] = (double)(image[k] * MLP_PIXEL_SCALE);
        }
    const float *w1 = params + l->w1, *b1 = params + l->b1;
    const float *w2 = params + l->w2, *b2 = params + l->b2;
    for (int h = 0; h < l->hidden; h++) {
        const float *row = w1 + (size_t)h * MLP_INPUTS;
        double z = b1[h];
        for (int j = 0; j < n; j++) z += (double)row[nonzero[j]] * x[j];
        a1[h] = z > 0.0 ? z : 0.0;
    }
    double z2[MLP_CLASSES];
    int best = 0;
    for (int c = 0; c < MLP_CLASSES; c++) {
        const float *row = w2 + (size_t)c * l->hidden;
        double z = b2[c];
        for (int h = 0; h < l->hidden; h++) z += (double)row[h] * a1[h];
        z2[c] = z;
        if (z > z2[best]) best = c; /* strict: ties keep the lower class */
    }
    if (loss_out) {
        double sum = 0.0;
        for (int c = 0; c < MLP_CLASSES; c++) sum += exp(z2[c] - z2[best]);
        *loss_out = log(sum) - (z2[label] - z2[best]);
    }
    return best;
}

int mlp_evaluate(const mlp_layout *l, const float *params, const mnist_set *set,
                 double *accuracy, double *loss)
{
    double *a1 = malloc((size_t)l->hidden * sizeof *a1);
    if (!a1) return -1;
    long correct = 0;
    double total = 0.0;
    for (int i = 0; i < set->count; i++) {
        double image_loss;
        int label = set->labels[i];
        correct += mlp_predict(l, params, set->images + (size_t)i * set->pixels, a1, &image_loss,
                               label) == label;
        total += image_loss;
    }
    free(a1);
    *accuracy = set->count ? (double)correct / set->count : 0.0;
    *loss = set->count ? total / set->count : 0.0;
    return 0;
}
