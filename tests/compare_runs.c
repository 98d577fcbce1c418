/* Compares a chapter's run with chapter 00's on the same images:
 *   compare_runs REF.weights REF.csv RUN.weights RUN.csv [TOLERANCE]
 * Passes (exit 0) when max|W_run - W_ref| / max|W_ref| and, for every
 * iteration, |loss_run - loss_ref| / |loss_ref| are within TOLERANCE (default
 * CLI_CHECK_LIMIT, 1e-4: the measure of --check, common/host/difference.h), and
 * nothing is NaN or infinite. Prints both figures either way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "difference.h"
#include "model.h"

#define MAX_ITERATIONS 100000

static int read_weights(const char *path, float *w)
{
    char err[512];
    if (difference_read_floats(path, w, MODEL_WEIGHTS, err, sizeof err) == 0) return 0;
    fprintf(stderr, "compare_runs: %s\n", err);
    return -1;
}

static int read_losses(const char *path, double *loss)
{
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "compare_runs: cannot open %s\n", path); return -1; }
    char line[256];
    int n = 0;
    if (!fgets(line, sizeof line, f)) n = -1; /* header */
    while (n >= 0 && n < MAX_ITERATIONS && fgets(line, sizeof line, f)) {
        int iteration;
        double l, accuracy;
        if (sscanf(line, "%d,%lf,%lf", &iteration, &l, &accuracy) != 3) { n = -1; break; }
        if (!isfinite(l) || !isfinite(accuracy)) {
            fprintf(stderr, "compare_runs: %s: iteration %d has loss %g, accuracy %g\n", path,
                    iteration, l, accuracy);
            n = -1;
            break;
        }
        loss[n++] = l;
    }
    fclose(f);
    if (n <= 0) fprintf(stderr, "compare_runs: %s: no valid loss rows\n", path);
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: compare_runs REF.weights REF.csv RUN.weights RUN.csv [TOLERANCE]\n");
        return 2;
    }
    double tolerance = argc == 6 ? atof(argv[5]) : CLI_CHECK_LIMIT;
    static float ref_w[MODEL_WEIGHTS], run_w[MODEL_WEIGHTS];
    static double ref_loss[MAX_ITERATIONS], run_loss[MAX_ITERATIONS];
    if (read_weights(argv[1], ref_w) || read_weights(argv[3], run_w)) return 1;
    int ref_n = read_losses(argv[2], ref_loss), run_n = read_losses(argv[4], run_loss);
    if (ref_n <= 0 || run_n <= 0) return 1;
    if (ref_n != run_n) {
        fprintf(stderr, "compare_runs: %d iterations in %s but %d in %s\n", ref_n, argv[2], run_n,
                argv[4]);
        return 1;
    }
    double weight_error = difference_of_tensors(ref_w, run_w, MODEL_WEIGHTS).error;
    double loss_error = 0;
    int worst = 0;
    for (int i = 0; i < ref_n; i++) {
        double e = difference_of_values(ref_loss[i], run_loss[i]);
        if (e > loss_error) { loss_error = e; worst = i; }
    }
    int ok = weight_error <= tolerance && loss_error <= tolerance;
    printf("%s: max|dW|/max|W| = %.3g, worst loss relative difference = %.3g (iteration %d), "
           "tolerance %.0e\n", ok ? "match" : "MISMATCH", weight_error, loss_error, worst + 1,
           tolerance);
    return ok ? 0 : 1;
}
