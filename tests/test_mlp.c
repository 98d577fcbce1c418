/* Unit tests of chapter 09's model and CPU reference (common/mlp/mlp_model.c,
 * common/mlp/mlp_reference.c), the oracle its kernels are checked against: the
 * initial parameters, the shuffle, the gradient against central finite
 * differences of an independent loss (double precision, a tiny problem), the
 * SGD step, and the softmax with very large scores. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mlp_model.h"
#include "mlp_reference.h"

/* u(s) written out again from the model's definition. */
static double hash_uniform(uint32_t s)
{
    s = (s ^ (s >> 16)) * 0x85ebca6bu;
    s = (s ^ (s >> 13)) * 0xc2b2ae35u;
    s ^= s >> 16;
    return (double)(s >> 8) / 16777216.0;
}

static void layout_and_init_follow_the_formula(void **state)
{
    (void)state;
    mlp_layout l;
    mlp_layout_init(&l, 128);
    assert_int_equal(l.w1, 0);
    assert_int_equal(l.b1, 128 * 784);
    assert_int_equal(l.w2, 128 * 785);
    assert_int_equal(l.b2, 128 * 785 + 1280);
    assert_int_equal(l.count, 101770);
    float *p = malloc(l.count * sizeof *p);
    assert_non_null(p);
    mlp_init_params(&l, p);
    double a1 = sqrt(6.0 / 784), a2 = sqrt(6.0 / 128);
    for (size_t j = 0; j < 128 * 784; j += 101)
        assert_float_equal(p[l.w1 + j], a1 * (2 * hash_uniform((uint32_t)j + 1234567u) - 1), 1e-6);
    for (size_t j = 0; j < 1280; j += 7)
        assert_float_equal(p[l.w2 + j], a2 * (2 * hash_uniform((uint32_t)j + 7654321u) - 1), 1e-6);
    double sum = 0, squares = 0;
    for (size_t j = 0; j < 128 * 784; j++) {
        assert_true(fabs(p[l.w1 + j]) <= a1);
        sum += p[l.w1 + j];
        squares += (double)p[l.w1 + j] * p[l.w1 + j];
    }
    /* He: variance 2 / fan-in. */
    double n = 128 * 784, variance = squares / n - (sum / n) * (sum / n);
    assert_float_equal(variance, 2.0 / 784, 0.02 * 2.0 / 784);
    for (int h = 0; h < 128; h++) assert_true(p[l.b1 + h] == 0.0f);
    for (int c = 0; c < 10; c++) assert_true(p[l.b2 + c] == 0.0f);
    free(p);
}

static void shuffle_is_a_fixed_permutation_per_epoch(void **state)
{
    (void)state;
    enum { N = 1037 };
    static int a[N], b[N], c[N];
    static char seen[N];
    mlp_shuffle(a, N, 0);
    mlp_shuffle(b, N, 0);
    mlp_shuffle(c, N, 1);
    assert_memory_equal(a, b, sizeof a);
    assert_memory_not_equal(a, c, sizeof a);
    memset(seen, 0, sizeof seen);
    int in_place = 0;
    for (int i = 0; i < N; i++) {
        assert_true(a[i] >= 0 && a[i] < N);
        assert_false(seen[a[i]]);
        seen[a[i]] = 1;
        in_place += a[i] == i;
    }
    assert_true(in_place < 20); /* shuffled, not the identity (about 1 expected) */
    int one;
    mlp_shuffle(&one, 1, 5);
    assert_int_equal(one, 0);
}

/* A tiny problem: 7 images of sparse pseudo-random pixels, 5 hidden units. */
#define TINY_IMAGES 7
#define TINY_HIDDEN 5
static uint8_t tiny_pixels[TINY_IMAGES * MLP_INPUTS];
static uint8_t tiny_labels[TINY_IMAGES];

static void make_tiny_problem(void)
{
    for (int i = 0; i < TINY_IMAGES; i++) {
        for (int k = 0; k < MLP_INPUTS; k++) {
            double u = hash_uniform((uint32_t)(i * 1000 + k));
            tiny_pixels[i * MLP_INPUTS + k] = u < 0.7 ? 0 : (uint8_t)(255 * (u - 0.7) / 0.3);
        }
        tiny_labels[i] = (uint8_t)(i * 3 % MLP_CLASSES);
    }
}

/* The parameters as double, with nonzero biases so that they are tested too. */
static void tiny_params(const mlp_layout *l, double *p)
{
    float *f = malloc(l->count * sizeof *f);
    assert_non_null(f);
    mlp_init_params(l, f);
    for (size_t j = 0; j < l->count; j++) p[j] = f[j];
    for (int h = 0; h < l->hidden; h++) p[l->b1 + h] = 0.1 * (hash_uniform(99 + h) - 0.5);
    for (int c = 0; c < MLP_CLASSES; c++) p[l->b2 + c] = 0.1 * (hash_uniform(199 + c) - 0.5);
    free(f);
}

/* The mean cross-entropy of images `order` in double, written plainly (every
 * pixel, no shortcuts), independently of the reference. */
static double tiny_loss(const mlp_layout *l, const double *p, const int *order, int count)
{
    double total = 0;
    for (int n = 0; n < count; n++) {
        int i = order[n];
        double a1[TINY_HIDDEN], z2[MLP_CLASSES];
        for (int h = 0; h < l->hidden; h++) {
            double z = p[l->b1 + h];
            for (int k = 0; k < MLP_INPUTS; k++)
                z += p[l->w1 + (size_t)h * MLP_INPUTS + k] *
                     (double)(tiny_pixels[i * MLP_INPUTS + k] * MLP_PIXEL_SCALE);
            a1[h] = z > 0 ? z : 0;
        }
        double sum = 0;
        for (int c = 0; c < MLP_CLASSES; c++) {
            double z = p[l->b2 + c];
            for (int h = 0; h < l->hidden; h++) z += p[l->w2 + (size_t)c * l->hidden + h] * a1[h];
            z2[c] = z;
            sum += exp(z);
        }
        total += log(sum) - z2[tiny_labels[i]];
    }
    return total / count;
}

static void gradient_matches_finite_differences(void **state)
{
    (void)state;
    make_tiny_problem();
    mlp_reference r;
    assert_int_equal(mlp_reference_init(&r, TINY_HIDDEN), 0);
    const mlp_layout *l = &r.layout;
    double *p = malloc(l->count * sizeof *p);
    assert_non_null(p);
    tiny_params(l, p);
    /* A mini-batch of 5 of the 7 images, in a shuffled order. */
    int order[TINY_IMAGES] = {3, 6, 0, 5, 2, 1, 4};
    long correct = 0;
    double loss_sum = mlp_reference_gradient(&r, p, tiny_pixels, tiny_labels, order, 1, 5, &correct);
    double loss = tiny_loss(l, p, order + 1, 5);
    assert_float_equal(loss_sum / 5, loss, 1e-12 * loss);
    assert_true(correct >= 0 && correct <= 5);

    const double h = 1e-5;
    double worst = 0;
    size_t worst_at = 0;
    for (size_t j = 0; j < l->count; j++) {
        /* Every parameter of the output layer and the biases; every 7th of W1. */
        if (j < l->b1 && j % 7 != 0) continue;
        double saved = p[j];
        p[j] = saved + h;
        double up = tiny_loss(l, p, order + 1, 5);
        p[j] = saved - h;
        double down = tiny_loss(l, p, order + 1, 5);
        p[j] = saved;
        double numeric = (up - down) / (2 * h);
        double error = fabs(numeric - r.grad[j]) / (fabs(numeric) + 1e-3);
        if (error > worst) {
            worst = error;
            worst_at = j;
        }
    }
    print_message("worst relative gradient error: %.3g (parameter %zu)\n", worst, worst_at);
    assert_true(worst < 1e-6);
    free(p);
    mlp_reference_free(&r);
}

static void steps_lower_the_loss(void **state)
{
    (void)state;
    make_tiny_problem();
    mlp_reference r;
    assert_int_equal(mlp_reference_init(&r, TINY_HIDDEN), 0);
    float *p = malloc(r.layout.count * sizeof *p);
    float *before = malloc(r.layout.count * sizeof *before);
    assert_non_null(p);
    assert_non_null(before);
    mlp_init_params(&r.layout, p);
    double previous = INFINITY;
    for (int it = 0; it < 20; it++) {
        memcpy(before, p, r.layout.count * sizeof *p);
        long correct = 0;
        double loss = mlp_reference_step(&r, p, 0.1f, tiny_pixels, tiny_labels, NULL, 0,
                                         TINY_IMAGES, &correct) / TINY_IMAGES;
        assert_true(loss < previous);
        previous = loss;
        /* The step is params -= (float)(learning_rate * gradient). */
        for (size_t j = 0; j < r.layout.count; j += 13)
            assert_true(p[j] == before[j] - (float)(0.1f * r.grad[j]));
    }
    long correct = 0;
    mlp_reference_step(&r, p, 0.0f, tiny_pixels, tiny_labels, NULL, 0, TINY_IMAGES, &correct);
    assert_int_equal(correct, TINY_IMAGES); /* 7 images, 20 steps: learnt by heart */
    free(before);
    free(p);
    mlp_reference_free(&r);
}

static void large_scores_stay_finite(void **state)
{
    (void)state;
    make_tiny_problem();
    mlp_reference r;
    assert_int_equal(mlp_reference_init(&r, TINY_HIDDEN), 0);
    const mlp_layout *l = &r.layout;
    double *p = malloc(l->count * sizeof *p);
    float *f = malloc(l->count * sizeof *f);
    assert_non_null(p);
    assert_non_null(f);
    tiny_params(l, p);
    p[l->b2 + 3] = 1000.0; /* exp(1000) overflows: the softmax must subtract the maximum */
    long correct = 0;
    double loss = mlp_reference_gradient(&r, p, tiny_pixels, tiny_labels, NULL, 0, TINY_IMAGES,
                                         &correct);
    assert_true(isfinite(loss));
    for (size_t j = 0; j < l->count; j++) assert_true(isfinite(r.grad[j]));
    /* Image 1 has label 3: loss near 0, predicted right. */
    for (size_t j = 0; j < l->count; j++) f[j] = (float)p[j];
    double a1[TINY_HIDDEN], image_loss;
    assert_int_equal(mlp_predict(l, f, tiny_pixels + MLP_INPUTS, a1, &image_loss, 3), 3);
    assert_true(image_loss >= 0 && image_loss < 1e-6);
    assert_int_equal(mlp_predict(l, f, tiny_pixels, a1, &image_loss, 0), 3);
    assert_true(isfinite(image_loss) && image_loss > 900);
    free(f);
    free(p);
    mlp_reference_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(layout_and_init_follow_the_formula),
        cmocka_unit_test(shuffle_is_a_fixed_permutation_per_epoch),
        cmocka_unit_test(gradient_matches_finite_differences),
        cmocka_unit_test(steps_lower_the_loss),
        cmocka_unit_test(large_scores_stay_finite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
