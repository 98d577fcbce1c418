#include "model.h"

float model_hash_uniform(uint32_t s)
{
    s = (s ^ (s >> 16)) * 0x85ebca6bu;
    s = (s ^ (s >> 13)) * 0xc2b2ae35u;
    s ^= s >> 16;
    return (float)(s >> 8) / 16777216.0f; /* top 24 bits / 2^24: exact in float */
}

void model_init_weights(float *w)
{
    for (uint32_t i = 0; i < MODEL_WEIGHTS; i++)
        w[i] = MODEL_INIT_SCALE * (model_hash_uniform(i + MODEL_INIT_SEED) - 0.5f);
}

/* Scores in double so that the host's verdict does not depend on any chapter's
 * summation order. */
static void scores(const float *w, const uint8_t *image, double *out)
{
    for (int c = 0; c < MODEL_CLASSES; c++) {
        const float *row = w + c * MODEL_FEATURES;
        double sum = row[MODEL_PIXELS]; /* bias: x[784] = 1 */
        for (int k = 0; k < MODEL_PIXELS; k++)
            sum += (double)row[k] * ((double)image[k] / 255.0);
        out[c] = sum;
    }
}

int model_predict(const float *w, const uint8_t *image)
{
    double s[MODEL_CLASSES];
    scores(w, image, s);
    int best = 0;
    for (int c = 1; c < MODEL_CLASSES; c++)
        if (s[c] > s[best]) best = c; /* strict: ties keep the lower class */
    return best;
}

double model_accuracy(const float *w, const mnist_set *set)
{
    long correct = 0;
    for (int i = 0; i < set->count; i++)
        correct += model_predict(w, set->images + (size_t)i * set->pixels) == set->labels[i];
    return set->count ? (double)correct / set->count : 0.0;
}

double model_loss(const float *w, const mnist_set *set)
{
    double total = 0.0;
    double s[MODEL_CLASSES];
    for (int i = 0; i < set->count; i++) {
        scores(w, set->images + (size_t)i * set->pixels, s);
        for (int c = 0; c < MODEL_CLASSES; c++) {
            double r = s[c] - (c == set->labels[i] ? 1.0 : 0.0);
            total += r * r;
        }
    }
    return set->count ? total / set->count : 0.0;
}
