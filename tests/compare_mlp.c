/* Compares a chapter 09 run with its CPU reference's on the same images:
 *   compare_mlp HIDDEN REF.params REF.csv RUN.params RUN.csv [TOLERANCE]
 * The parameter files hold W1 (HIDDEN x 784), b1 (HIDDEN), W2 (10 x HIDDEN)
 * and b2 (10) as little-endian float32 (common/mlp/mlp_model.h). Passes (exit 0)
 * when, for each of the four tensors, max|P_run - P_ref| / max|P_ref| is
 * within TOLERANCE (default CLI_CHECK_LIMIT, 1e-4: the measure of --check,
 * common/host/difference.h), when every epoch's training and test loss
 * agree within the same relative TOLERANCE, and nothing is NaN or infinite.
 * Prints every figure either way; exit 1 on a mismatch or a bad file, 2 on
 * bad arguments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "difference.h"

#define INPUTS 784
#define CLASSES 10
#define MAX_HIDDEN 4096
#define MAX_EPOCHS 100000

static float *read_params(const char *path, size_t count)
{
    char err[512];
    float *p = malloc(count * sizeof *p);
    if (p && difference_read_floats(path, p, count, err, sizeof err) == 0) return p;
    fprintf(stderr, "compare_mlp: %s\n", p ? err : "out of memory");
    free(p);
    return NULL;
}

/* Columns of the CSV: epoch, loss, train_accuracy, test_loss, test_accuracy. */
static int read_csv(const char *path, double (*rows)[4])
{
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "compare_mlp: cannot open %s\n", path); return -1; }
    char line[512];
    int n = 0;
    if (!fgets(line, sizeof line, f) || strncmp(line, "epoch,loss,", 11) != 0) n = -1;
    while (n >= 0 && n < MAX_EPOCHS && fgets(line, sizeof line, f)) {
        int epoch;
        double *r = rows[n];
        if (sscanf(line, "%d,%lf,%lf,%lf,%lf", &epoch, &r[0], &r[1], &r[2], &r[3]) != 5 ||
            epoch != n + 1) {
            n = -1;
            break;
        }
        for (int j = 0; j < 4; j++)
            if (!isfinite(r[j])) {
                fprintf(stderr, "compare_mlp: %s: epoch %d has a value %g\n", path, epoch, r[j]);
                fclose(f);
                return -1;
            }
        n++;
    }
    fclose(f);
    if (n <= 0) fprintf(stderr, "compare_mlp: %s: no valid epoch rows\n", path);
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: compare_mlp HIDDEN REF.params REF.csv RUN.params RUN.csv [TOLERANCE]\n");
        return 2;
    }
    int hidden = atoi(argv[1]);
    if (hidden < 1 || hidden > MAX_HIDDEN) {
        fprintf(stderr, "compare_mlp: HIDDEN must be 1..%d, got '%s'\n", MAX_HIDDEN, argv[1]);
        return 2;
    }
    double tolerance = argc == 7 ? atof(argv[6]) : CLI_CHECK_LIMIT;
    const char *names[4] = {"W1", "b1", "W2", "b2"};
    size_t sizes[4] = {(size_t)hidden * INPUTS, (size_t)hidden, (size_t)CLASSES * hidden, CLASSES};
    size_t count = sizes[0] + sizes[1] + sizes[2] + sizes[3];
    float *ref = read_params(argv[2], count), *run = read_params(argv[4], count);
    if (!ref || !run) return 1;
    static double ref_rows[MAX_EPOCHS][4], run_rows[MAX_EPOCHS][4];
    int ref_n = read_csv(argv[3], ref_rows), run_n = read_csv(argv[5], run_rows);
    if (ref_n <= 0 || run_n <= 0) return 1;
    if (ref_n != run_n) {
        fprintf(stderr, "compare_mlp: %d epochs in %s but %d in %s\n", ref_n, argv[3], run_n,
                argv[5]);
        return 1;
    }

    int ok = 1;
    size_t at = 0;
    for (int t = 0; t < 4; t++) {
        double error = difference_of_tensors(ref + at, run + at, sizes[t]).error;
        int good = error <= tolerance;
        printf("  %-2s (%7zu): max|dP|/max|P| = %.3g%s\n", names[t], sizes[t], error,
               good ? "" : "  <- over the tolerance");
        ok &= good;
        at += sizes[t];
    }
    for (int e = 0; e < ref_n; e++) {
        double train = difference_of_values(ref_rows[e][0], run_rows[e][0]);
        double test = difference_of_values(ref_rows[e][2], run_rows[e][2]);
        int good = train <= tolerance && test <= tolerance;
        printf("  epoch %d: loss relative difference %.3g (train), %.3g (test); accuracy "
               "%.4f/%.4f (train), %.4f/%.4f (test, run/reference)%s\n",
               e + 1, train, test, run_rows[e][1], ref_rows[e][1], run_rows[e][3], ref_rows[e][3],
               good ? "" : "  <- over the tolerance");
        ok &= good;
    }
    printf("%s: hidden %d, %d epoch(s), tolerance %.0e\n", ok ? "match" : "MISMATCH", hidden,
           ref_n, tolerance);
    free(ref);
    free(run);
    return ok ? 0 : 1;
}
