/* Unit tests of the model and of chapter 00, the reference every GPU chapter
 * is checked against: the initial weights, the gradient against finite
 * differences of the loss (double precision, a tiny synthetic problem), and
 * the timing statistics. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

/* Chapter 00's train_iteration() is static: include the chapter itself. */
#define main chapter00_main
#include "00-cpu-reference/train.c"
#undef main

#include "difference.h"
#include "timing.h"

static void init_weights_follow_the_formula(void **state)
{
    (void)state;
    float w[MODEL_WEIGHTS];
    model_init_weights(w);
    for (uint32_t i = 0; i < MODEL_WEIGHTS; i += 97) {
        /* u(s) written out again from the model's definition */
        uint32_t s = i + 1234567u;
        s = (s ^ (s >> 16)) * 0x85ebca6bu;
        s = (s ^ (s >> 13)) * 0xc2b2ae35u;
        s ^= s >> 16;
        double u = (double)(s >> 8) / 16777216.0;
        assert_float_equal(w[i], 0.01 * (u - 0.5), 1e-9);
    }
    for (int i = 0; i < MODEL_WEIGHTS; i++) {
        assert_true(w[i] >= -0.005f && w[i] < 0.005f);
    }
    assert_true(model_hash_uniform(0) >= 0.0f && model_hash_uniform(0xffffffffu) < 1.0f);
}

/* A tiny problem: a few images of pseudo-random pixels. */
#define TINY_IMAGES 7
static float tiny_x[TINY_IMAGES * MODEL_FEATURES];
static unsigned char tiny_labels[TINY_IMAGES];

static void make_tiny_problem(void)
{
    for (int i = 0; i < TINY_IMAGES; i++) {
        for (int k = 0; k < MODEL_PIXELS; k++)
            tiny_x[i * MODEL_FEATURES + k] =
                (float)(int)(255 * model_hash_uniform((uint32_t)(i * 1000 + k))) / 255.0f;
        tiny_x[i * MODEL_FEATURES + MODEL_PIXELS] = 1.0f;
        tiny_labels[i] = (unsigned char)(i * 3 % MODEL_CLASSES);
    }
}

/* L(W) = (1/N) sum (W x - y)^2 in double, independently of chapter 00. */
static double tiny_loss(const double *w)
{
    double total = 0;
    for (int i = 0; i < TINY_IMAGES; i++)
        for (int c = 0; c < MODEL_CLASSES; c++) {
            double s = 0;
            for (int k = 0; k < MODEL_FEATURES; k++)
                s += w[c * MODEL_FEATURES + k] * tiny_x[i * MODEL_FEATURES + k];
            double r = s - (c == tiny_labels[i]);
            total += r * r;
        }
    return total / TINY_IMAGES;
}

static void gradient_matches_finite_differences(void **state)
{
    (void)state;
    make_tiny_problem();
    float w[MODEL_WEIGHTS];
    model_init_weights(w);
    static double gradient[MODEL_WEIGHTS], wd[MODEL_WEIGHTS];
    float before[MODEL_WEIGHTS];
    for (int j = 0; j < MODEL_WEIGHTS; j++) before[j] = w[j];
    float loss, accuracy;
    /* A learning rate of 0 leaves W as it is and fills the gradient. */
    train_iteration(tiny_x, tiny_labels, TINY_IMAGES, w, 0.0f, gradient, &loss, &accuracy);
    for (int j = 0; j < MODEL_WEIGHTS; j++) {
        assert_true(w[j] == before[j]);
        wd[j] = w[j];
    }
    assert_float_equal(loss, tiny_loss(wd), 1e-5 * tiny_loss(wd));

    const double h = 1e-4;
    double worst = 0;
    for (int j = 0; j < MODEL_WEIGHTS; j += 13) {
        double saved = wd[j];
        wd[j] = saved + h;
        double up = tiny_loss(wd);
        wd[j] = saved - h;
        double down = tiny_loss(wd);
        wd[j] = saved;
        double numeric = (up - down) / (2 * h); /* exact for a quadratic, up to rounding */
        double error = fabs(numeric - gradient[j]) / (fabs(numeric) + 1e-3);
        if (error > worst) worst = error;
    }
    print_message("worst relative gradient error: %.3g\n", worst);
    assert_true(worst < 1e-6);
}

static void one_step_lowers_the_loss(void **state)
{
    (void)state;
    make_tiny_problem();
    float w[MODEL_WEIGHTS];
    model_init_weights(w);
    static double gradient[MODEL_WEIGHTS];
    float previous = INFINITY;
    for (int it = 0; it < 20; it++) {
        float loss, accuracy;
        train_iteration(tiny_x, tiny_labels, TINY_IMAGES, w, 0.001f, gradient, &loss, &accuracy);
        assert_true(loss <= previous);
        previous = loss;
    }
}

/* The GPU chapters' image limit is the largest count whose index
 * c * images + i (c < 10, i < images) fits an int, and no larger: one more
 * image would overflow the last class's index. */
static void gpu_image_limit_is_the_int_index_boundary(void **state)
{
    (void)state;
    int64_t limit = MODEL_GPU_MAX_IMAGES;
    assert_int_equal(limit, 214748364);
    int64_t last_index = (int64_t)(MODEL_CLASSES - 1) * limit + (limit - 1);
    assert_true(last_index <= INT_MAX);
    assert_true((int64_t)MODEL_CLASSES * limit <= INT_MAX); /* the forward's thread count */
    int64_t one_more = limit + 1;
    assert_true((int64_t)MODEL_CLASSES * one_more > INT_MAX);
}

static void timing_statistics_leave_out_the_warmup(void **state)
{
    (void)state;
    double ms[] = {100, 90, 80, 3, 1, 2, 5};
    timing_stats t;
    timing_compute(ms, 7, &t);
    assert_int_equal(t.warmup, TIMING_WARMUP);
    assert_int_equal(t.measured, 4);
    assert_float_equal(t.median_ms, 2.5, 1e-12);
    assert_float_equal(t.min_ms, 1, 1e-12);
    assert_float_equal(t.max_ms, 5, 1e-12);
    assert_float_equal(t.total_ms, 11, 1e-12);
    double few[] = {4, 2};
    timing_compute(few, 2, &t);
    assert_int_equal(t.measured, 2);
    assert_float_equal(t.median_ms, 3, 1e-12);
}

/* The one measure of every check (common/host/difference.h), worked by hand. */
static void difference_is_relative_to_the_largest_reference_value(void **state)
{
    (void)state;
    const float reference[] = {1.0f, -4.0f, 2.0f}, run[] = {1.5f, -4.0f, 2.25f};
    tensor_difference d = difference_of_tensors(reference, run, 3);
    assert_float_equal(d.error, 0.5 / 4.0, 1e-12); /* the largest difference over max|reference| */
    assert_int_equal(d.worst, 0);
    const float zeros[] = {0.0f, 0.0f}, small[] = {0.0f, 1e-3f};
    d = difference_of_tensors(zeros, small, 2); /* all zeros: absolute */
    assert_float_equal(d.error, 1e-3, 1e-9);
    assert_int_equal(d.worst, 1);
    const float not_finite[] = {1.0f, NAN, 2.0f};
    d = difference_of_tensors(reference, not_finite, 3);
    assert_true(isinf(d.error));
    assert_int_equal(d.worst, 1);
    assert_float_equal(difference_of_values(2.0, 2.5), 0.25, 1e-12);
    assert_float_equal(difference_of_values(0.0, 0.5), 0.5, 1e-12);
    assert_true(isinf(difference_of_values(1.0, INFINITY)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(init_weights_follow_the_formula),
        cmocka_unit_test(gradient_matches_finite_differences),
        cmocka_unit_test(one_step_lowers_the_loss),
        cmocka_unit_test(timing_statistics_leave_out_the_warmup),
        cmocka_unit_test(gpu_image_limit_is_the_int_index_boundary),
        cmocka_unit_test(difference_is_relative_to_the_largest_reference_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
