/* A device's figures (device.h), as a device table gives them: each NaN until set, so that a figure
   the table lacks is named, not read as zero. */
#include "device.h"
#include "tsv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int model_devices_read(const char *path, const char *code_for, ModelDevice *devices, int most) {
    Table t;
    int count_read = 0;
    open_table(&t, path);
    while (next_row(&t)) {
        const char *name = cell(&t, "device"), *figure = cell(&t, "figure"), *text = cell(&t, "value");
        if (code_for && !model_listed(code_for, name)) continue; /* another compiled code's device */
        int d = 0;
        while (d < count_read && strcmp(devices[d].name, name) != 0) d++;
        if (d == count_read) {
            if (count_read == most) {
                char what[64];
                snprintf(what, sizeof what, "more than %d devices", most);
                tsv_die(path, what);
            }
            model_device_init(&devices[count_read++], name);
        }
        char *end;
        const double value = strtod(text, &end);
        if (end == text || *end || !isfinite(value)) {
            char what[200];
            snprintf(what, sizeof what, "line %ld: figure %s of %s is '%s', not a number", t.number, figure, name, text);
            tsv_die(path, what);
        }
        model_device_set(&devices[d], figure, value); /* figures the model does not use are kept for readers */
    }
    fclose(t.f);
    if (code_for)
        for (const char *p = code_for; *p;) {
            const char *end = strchr(p, ',');
            const size_t len = end ? (size_t)(end - p) : strlen(p);
            int found = 0;
            for (int d = 0; d < count_read; d++)
                if (strlen(devices[d].name) == len && strncmp(devices[d].name, p, len) == 0) found = 1;
            if (!found) {
                char what[200];
                snprintf(what, sizeof what, "no device '%.*s' (--code-for %.100s)", (int)(len < 64 ? len : 64), p, code_for);
                tsv_die(path, what);
            }
            if (!end) break;
            p = end + 1;
        }
    for (int d = 0; d < count_read; d++)
        if (model_device_missing(&devices[d])) {
            char what[400];
            snprintf(what, sizeof what, "device %.32s has no figure '%.64s'", devices[d].name, model_device_missing(&devices[d]));
            tsv_die(path, what);
        }
    if (count_read == 0) tsv_die(path, "no devices");
    return count_read;
}
