/* The time model's names and its device (timemodel.h): the figures a device file gives, each
   NaN until set, so that a figure the file lacks is named, not read as zero. */
#include "timemodel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const double model_reuse_bytes[MODEL_REUSE_BUCKETS] = {262144.0, 1048576.0, 4194304.0, 16777216.0, 67108864.0,
                                                       268435456.0};
const char *const model_reuse_names[MODEL_REUSE_BUCKETS] = {"256k", "1m", "4m", "16m", "64m", "256m"};

const char *const model_term_names[MODEL_TERM_COUNT] = {
#define MODEL_TERM_NAME(name, what) #name,
    MODEL_TERMS(MODEL_TERM_NAME)
#undef MODEL_TERM_NAME
};

void model_device_init(ModelDevice *device, const char *name) {
    memset(device, 0, sizeof *device);
    snprintf(device->name, sizeof device->name, "%s", name);
#define MODEL_FIGURE_NAN(name) device->name = NAN;
    MODEL_DEVICE_FIGURES(MODEL_FIGURE_NAN)
#undef MODEL_FIGURE_NAN
}

int model_device_set(ModelDevice *device, const char *figure, double value) {
#define MODEL_FIGURE_SET(name)                                                                     \
    if (strcmp(figure, #name) == 0) {                                                              \
        device->name = value;                                                                      \
        return 1;                                                                                  \
    }
    MODEL_DEVICE_FIGURES(MODEL_FIGURE_SET)
#undef MODEL_FIGURE_SET
    return 0;
}

const char *model_device_missing(const ModelDevice *device) {
#define MODEL_FIGURE_MISSING(name)                                                                 \
    if (isnan(device->name)) return #name;
    MODEL_DEVICE_FIGURES(MODEL_FIGURE_MISSING)
#undef MODEL_FIGURE_MISSING
    return NULL;
}
