/* The measure of every check against a reference: see difference.h. */
#include "difference.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

tensor_difference difference_of_tensors(const float *reference, const float *run, size_t count)
{
    tensor_difference d = {0.0, 0};
    double largest = 0.0, largest_difference = -1.0;
    for (size_t i = 0; i < count; i++) {
        double difference = isfinite(run[i]) ? fabs((double)run[i] - reference[i]) : INFINITY;
        largest = fmax(largest, fabs(reference[i]));
        if (difference > largest_difference) {
            largest_difference = difference;
            d.worst = i;
        }
    }
    if (count == 0) return d;
    d.error = largest > 0.0 ? largest_difference / largest : largest_difference;
    return d;
}

double difference_of_values(double reference, double run)
{
    if (!isfinite(run)) return INFINITY;
    return fabs(run - reference) / (reference != 0.0 ? fabs(reference) : 1.0);
}

int difference_read_floats(const char *path, float *out, size_t count, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "%s: cannot open it", path);
        return -1;
    }
    size_t n = 0;
    unsigned char b[4];
    while (n < count && fread(b, 1, 4, f) == 4) {
        unsigned int bits = b[0] | b[1] << 8 | b[2] << 16 | (unsigned int)b[3] << 24;
        memcpy(&out[n++], &bits, 4);
    }
    int extra = fgetc(f) != EOF;
    fclose(f);
    if (n != count || extra) {
        snprintf(err, err_size, "%s: expected exactly %zu float32 values", path, count);
        return -1;
    }
    for (size_t i = 0; i < count; i++)
        if (!isfinite(out[i])) {
            snprintf(err, err_size, "%s: value %zu is %g", path, i, (double)out[i]);
            return -1;
        }
    return 0;
}
