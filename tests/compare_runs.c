/* Compares a chapter's run with chapter 00's on the same images:
 *   compare_runs REF.weights REF.csv RUN.weights RUN.csv [TOLERANCE]
 * Passes (exit 0) when max|W_run - W_ref| / max|W_ref| and, for every
 * iteration, |loss_run - loss_ref| / |loss_ref| are within TOLERANCE (default
 * 1e-4), and nothing is NaN or infinite. Prints both figures either way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WEIGHTS 7850
#define MAX_ITERATIONS 100000

static int read_weights(const char *path, float *w)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "compare_runs: cannot open %s\n", path); return -1; }
    unsigned char b[4];
    int n = 0;
    while (n < WEIGHTS && fread(b, 1, 4, f) == 4) {
        unsigned int bits = b[0] | b[1] << 8 | b[2] << 16 | (unsigned int)b[3] << 24;
        memcpy(&w[n++], &bits, 4);
    }
    int extra = fgetc(f) != EOF;
    fclose(f);
    if (n != WEIGHTS || extra) {
        fprintf(stderr, "compare_runs: %s: expected exactly %d float32 weights\n", path, WEIGHTS);
        return -1;
    }
    for (int i = 0; i < WEIGHTS; i++)
        if (!isfinite(w[i])) {
            fprintf(stderr, "compare_runs: %s: weight %d is %g\n", path, i, (double)w[i]);
            return -1;
        }
    return 0;
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
    double tolerance = argc == 6 ? atof(argv[5]) : 1e-4;
    static float ref_w[WEIGHTS], run_w[WEIGHTS];
    static double ref_loss[MAX_ITERATIONS], run_loss[MAX_ITERATIONS];
    if (read_weights(argv[1], ref_w) || read_weights(argv[3], run_w)) return 1;
    int ref_n = read_losses(argv[2], ref_loss), run_n = read_losses(argv[4], run_loss);
    if (ref_n <= 0 || run_n <= 0) return 1;
    if (ref_n != run_n) {
        fprintf(stderr, "compare_runs: %d iterations in %s but %d in %s\n", ref_n, argv[2], run_n,
                argv[4]);
        return 1;
    }
    double max_w = 0, max_dw = 0;
    for (int i = 0; i < WEIGHTS; i++) {
        max_w = fmax(max_w, fabs(ref_w[i]));
        max_dw = fmax(max_dw, fabs((double)run_w[i] - ref_w[i]));
    }
    double weight_error = max_dw / max_w;
    double loss_error = 0;
    int worst = 0;
    for (int i = 0; i < ref_n; i++) {
        double e = fabs(run_loss[i] - ref_loss[i]) / fabs(ref_loss[i]);
        if (e > loss_error) { loss_error = e; worst = i; }
    }
    int ok = weight_error <= tolerance && loss_error <= tolerance;
    printf("%s: max|dW|/max|W| = %.3g, worst loss relative difference = %.3g (iteration %d), "
           "tolerance %.0e\n", ok ? "match" : "MISMATCH", weight_error, loss_error, worst + 1,
           tolerance);
    return ok ? 0 : 1;
}
