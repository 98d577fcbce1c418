/* How far a run is from its reference: the one measure behind every check
 * against a reference (--check in common/session/session.c, tests/compare_runs.c,
 * tests/compare_mlp.c), passed when it is at most CLI_CHECK_LIMIT (cli.h),
 * and the reader of the float32 files those checks compare. */
#ifndef DIFFERENCE_H
#define DIFFERENCE_H

#include <stddef.h>

typedef struct {
    double error; /* max|run - reference| / max|reference| */
    size_t worst; /* the element with the largest difference */
} tensor_difference;

/* The largest difference over COUNT values, relative to the largest
 * reference value (absolute when the reference is all zeros, as biases
 * before any step); a run value that is not finite counts as infinite. */
tensor_difference difference_of_tensors(const float *reference, const float *run, size_t count);

/* |run - reference| / |reference| (absolute when the reference is 0);
 * infinite when run is not finite. */
double difference_of_values(double reference, double run);

/* Reads exactly COUNT little-endian float32 values, every one finite, from
 * PATH into OUT. Returns 0, or -1 with a message naming the file in ERR. */
int difference_read_floats(const char *path, float *out, size_t count, char *err, size_t err_size);

#endif
