/* The linear model's harness file (see gpu_trainer.h): the one GPU harness
 * (common/harness/harness.hip) calls these, and they call a chapter's
 * chapter_setup, chapter_iteration and chapter_teardown. Full batch: one step
 * per epoch, and an epoch is an iteration. Compiled per platform by the same
 * compiler as the chapters: hipcc, nvcc, or the C++ compiler with the CPU
 * executor's headers. */
#include "gpu_trainer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_reference.h"
#include "errors.h"
#include "gpu_runtime.h"
#include "harness.h"
#include "linear_session.h"
#include "timing.h"

static session linear;
static gpu_problem problem;
static void *scratch;
static float *check_x; /* --check: the image-major copy, kept until chapter 00 has run on it */

static void begin(int argc, char **argv, trainer_shape *shape)
{
    session_begin(&linear, argc, argv, chapter_name, PLATFORM_NAME);
    const options *o = &linear.opts;
    shape->session = &linear;
    shape->epochs = o->iterations;
    shape->steps = 1;
    shape->check_steps = !o->check ? 0 : o->iterations < CLI_CHECK_STEPS ? o->iterations : CLI_CHECK_STEPS;
    shape->parameters = MODEL_WEIGHTS;
    problem.images = linear.data.train.count;
    problem.iterations = o->iterations;
    problem.learning_rate = o->learning_rate;
}

static void start(const char *device, int compute_units)
{
    session_start(&linear, device);
    if (problem.images > MODEL_GPU_MAX_IMAGES)
        fatal(1, "%d training images: the GPU chapters index 10 scores per image with int, so they"
                 " take at most %d (use --train-limit)", problem.images, MODEL_GPU_MAX_IMAGES);
    problem.compute_units = compute_units;
}

/* The layouts the chapter asks for, built on the host. */
static void upload_data(void)
{
    const mnist_set *train = &linear.data.train;
    size_t feature_bytes = (size_t)problem.images * MODEL_FEATURES * sizeof(float);
    if (chapter_needs & NEEDS_X_ROWS) {
        float *x = mnist_features_rows(train);
        if (!x) fatal(1, "out of host memory for the image-major features");
        problem.x_rows = (const float *)upload(x, feature_bytes, "x_rows");
        if (linear.opts.check) check_x = x;
        else free(x);
    }
    if (chapter_needs & NEEDS_X_COLS) {
        float *x = mnist_features_cols(train);
        if (!x) fatal(1, "out of host memory for the feature-major features");
        problem.x_cols = (const float *)upload(x, feature_bytes, "x_cols");
        free(x);
    }
    if (chapter_needs & NEEDS_PIXELS)
        problem.pixels = (const uint8_t *)upload(train->images, (size_t)problem.images * MODEL_PIXELS, "pixels");
    problem.labels = (const uint8_t *)upload(train->labels, (size_t)problem.images, "labels");
}

static void setup(float *device_params)
{
    problem.w = device_params;
    chapter_setup(&problem, &scratch);
}

/* The chapter adds into problem.loss_sum[iteration]: the harness's records. */
static void step(int epoch, int b, const trainer_records *records)
{
    (void)epoch;
    (void)b;
    problem.loss_sum = records->loss_sum;
    problem.correct = records->correct;
    chapter_iteration(&problem, scratch, records->record);
}

static void epoch_end(int epoch, float test_loss, float test_accuracy, double evaluation_ms)
{
    (void)test_loss;
    (void)test_accuracy;
    (void)evaluation_ms;
    session_progress(&linear, epoch);
}

/* --check: chapter 00's own step (chapters/00-cpu-reference/train.c) run as
 * many times on the host, from the same initial weights on the same images. */
static int check(const float *run_w, const float *run_loss_sums, int steps)
{
    float run_loss[CLI_CHECK_STEPS];
    for (int it = 0; it < steps; it++) run_loss[it] = run_loss_sums[it] / problem.images;
    float reference_w[MODEL_WEIGHTS];
    double start_ms = timing_now_ms();
    const mnist_set *train = &linear.data.train;
    float *own_x = check_x ? NULL : mnist_features_rows(train);
    double *gradient = (double *)malloc(MODEL_WEIGHTS * sizeof(double));
    if ((!check_x && !own_x) || !gradient) fatal(1, "out of host memory for --check");
    float reference_loss[CLI_CHECK_STEPS], reference_accuracy[CLI_CHECK_STEPS];
    model_init_weights(reference_w);
    for (int it = 0; it < steps; it++)
        train_iteration(check_x ? check_x : own_x, train->labels, train->count, reference_w,
                        problem.learning_rate, gradient, &reference_loss[it], &reference_accuracy[it]);
    double reference_ms = timing_now_ms() - start_ms;
    free(gradient);
    free(own_x);
    free(check_x);
    check_x = NULL;

    session_check_tensor w = {"W", run_w, reference_w, MODEL_WEIGHTS, MODEL_FEATURES};
    session_check c;
    memset(&c, 0, sizeof c);
    c.reference = "chapter 00";
    c.what = "weight";
    c.step_name = "iteration";
    c.steps = steps;
    c.run_loss = run_loss;
    c.reference_loss = reference_loss;
    c.tensors = &w;
    c.tensor_count = 1;
    c.reference_ms = reference_ms;
    c.timing_note = "between two timed iterations";
    return session_check_compare(&c);
}

static void teardown(void)
{
    chapter_teardown(scratch);
    gpu_free((void *)problem.labels);
    gpu_free((void *)problem.pixels);
    gpu_free((void *)problem.x_cols);
    gpu_free((void *)problem.x_rows);
    free(check_x);
    check_x = NULL;
}

static int finish(const float *w) { return session_finish(&linear, w); }
static void end(void) { session_end(&linear); }

const trainer_model *harness_model(void)
{
    /* In trainer_model's order (harness.h). */
    static const trainer_model model = {
        "iteration",        /* epoch_unit */
        "w",                /* parameters_name */
        begin, start, upload_data,
        model_init_weights, /* init */
        setup,
        NULL,               /* epoch_begin: full batch, nothing to shuffle */
        step,
        NULL,               /* evaluate: the test set only at the end, on the host */
        epoch_end, check, teardown, finish, end,
    };
    return &model;
}
