/* Chapter 09's harness file (see mlp_trainer.h): the one GPU harness
 * (common/harness/harness.hip) calls these, and they call the chapter's
 * chapter_mlp_* hooks: epochs of shuffled mini-batches, and the test set
 * evaluated on the device after each epoch. Compiled per platform by the same
 * compiler as the chapter: hipcc, nvcc, or the C++ compiler with the CPU
 * executor's headers. */
#include "mlp_trainer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "gpu_runtime.h"
#include "harness.h"
#include "mlp_reference.h"
#include "mlp_session.h"
#include "timing.h"

static mlp_session mlp;
static mlp_problem problem;
static void *scratch;
/* Images (as bytes: a quarter of the float features) and labels, on the device. */
static const unsigned int *train_pixels, *test_pixels;
static const uint8_t *train_labels, *test_labels;
static int *order, *device_order; /* the epoch's shuffle, on the host and the device */

static void begin(int argc, char **argv, trainer_shape *shape)
{
    mlp_session_begin(&mlp, argc, argv, chapter_name, PLATFORM_NAME);
    shape->session = &mlp.base;
    shape->epochs = mlp.epochs;
    shape->steps = mlp.batches;
    shape->check_steps = !mlp.base.opts.check ? 0 : mlp.batches < CLI_CHECK_STEPS ? mlp.batches
                                                                                   : CLI_CHECK_STEPS;
    shape->parameters = mlp.layout.count;
    problem.hidden = mlp.layout.hidden;
    problem.batch = mlp.batch;
    problem.max_images = mlp.batch > MLP_EVALUATE_CHUNK ? mlp.batch : MLP_EVALUATE_CHUNK;
    problem.learning_rate = mlp.base.opts.learning_rate;
}

static void start(const char *device, int compute_units)
{
    (void)compute_units;
    mlp_session_start(&mlp, device);
}

static void upload_data(void)
{
    const mnist_set *train = &mlp.base.data.train, *test = &mlp.base.data.test;
    train_pixels = (const unsigned int *)upload(train->images, (size_t)train->count * MLP_INPUTS,
                                                "training images");
    train_labels = (const uint8_t *)upload(train->labels, (size_t)train->count, "training labels");
    test_pixels = (const unsigned int *)upload(test->images, (size_t)test->count * MLP_INPUTS,
                                               "test images");
    test_labels = (const uint8_t *)upload(test->labels, (size_t)test->count, "test labels");
    order = (int *)malloc((size_t)train->count * sizeof(int));
    if (!order) fatal(1, "out of host memory for the shuffle");
    device_order = (int *)gpu_alloc((size_t)train->count * sizeof(int), "order");
}

static void init(float *params) { mlp_init_params(&mlp.layout, params); }

static void setup(float *device_params)
{
    const mlp_layout *layout = &mlp.layout;
    problem.w1 = device_params + layout->w1;
    problem.b1 = device_params + layout->b1;
    problem.w2 = device_params + layout->w2;
    problem.b2 = device_params + layout->b2;
    chapter_mlp_setup(&problem, &scratch);
}

/* The epoch's order: a few hundred KB, copied before its timing starts. */
static void epoch_begin(int epoch)
{
    int images = mlp.base.data.train.count;
    mlp_shuffle(order, images, epoch);
    HIP_CHECK(hipMemcpy(device_order, order, (size_t)images * sizeof(int), hipMemcpyHostToDevice));
}

static void step(int epoch, int b, const trainer_records *records)
{
    (void)epoch;
    mlp_batch batch = {train_pixels, train_labels, device_order, b * mlp.batch, mlp_batch_count(&mlp, b),
                       records->loss_sum + records->record, records->correct + records->record};
    chapter_mlp_train(&problem, scratch, &batch);
}

/* The test set at the epoch's final parameters, in chunks the scratch buffers hold. */
static void evaluate(const trainer_records *records)
{
    int images = mlp.base.data.test.count;
    mlp_batch eval = {test_pixels, test_labels, NULL, 0, 0, records->loss_sum + records->record,
                      records->correct + records->record};
    for (int first = 0; first < images; first += problem.max_images) {
        eval.first = first;
        eval.count = images - first < problem.max_images ? images - first : problem.max_images;
        chapter_mlp_evaluate(&problem, scratch, &eval);
    }
}

static void epoch_end(int epoch, float test_loss, float test_accuracy, double evaluation_ms)
{
    mlp.test_loss[epoch] = test_loss;
    mlp.test_accuracy[epoch] = test_accuracy;
    mlp.evaluation_ms += evaluation_ms;
    mlp_session_epoch(&mlp, epoch);
}

/* --check: the first `steps` mini-batch steps of epoch 1 against chapter 09's
 * CPU reference (common/mlp/mlp_reference.c) taking the same steps on the host. */
static int check(const float *run_params, const float *run_loss_sums, int steps)
{
    const mnist_set *train = &mlp.base.data.train;
    const mlp_layout *layout = &mlp.layout;
    double start_ms = timing_now_ms();
    float *params = (float *)malloc(layout->count * sizeof(float));
    int *reference_order = (int *)malloc((size_t)train->count * sizeof(int));
    mlp_reference r;
    if (!params || !reference_order || mlp_reference_init(&r, layout->hidden) != 0)
        fatal(1, "out of host memory for --check");
    mlp_init_params(layout, params);
    mlp_shuffle(reference_order, train->count, 0);
    float run_loss[CLI_CHECK_STEPS], reference_loss[CLI_CHECK_STEPS];
    for (int b = 0; b < steps; b++) {
        long correct = 0;
        int count = mlp_batch_count(&mlp, b);
        run_loss[b] = run_loss_sums[b] / count;
        double loss_sum = mlp_reference_step(&r, params, mlp.base.opts.learning_rate, train->images,
                                             train->labels, reference_order, b * mlp.batch, count,
                                             &correct);
        reference_loss[b] = (float)(loss_sum / count);
    }
    double reference_ms = timing_now_ms() - start_ms;

    session_check_tensor tensors[4] = {
        {"W1", run_params + layout->w1, params + layout->w1, layout->b1 - layout->w1, MLP_INPUTS},
        {"b1", run_params + layout->b1, params + layout->b1, layout->w2 - layout->b1, 0},
        {"W2", run_params + layout->w2, params + layout->w2, layout->b2 - layout->w2, layout->hidden},
        {"b2", run_params + layout->b2, params + layout->b2, layout->count - layout->b2, 0}};
    session_check c;
    memset(&c, 0, sizeof c);
    c.reference = mlp.cli.check_reference; /* the name --help gives it */
    c.what = "parameter";
    c.step_name = "mini-batch step";
    c.steps = steps;
    c.run_loss = run_loss;
    c.reference_loss = reference_loss;
    c.tensors = tensors;
    c.tensor_count = 4;
    c.reference_ms = reference_ms;
    c.timing_note = "after epoch 1, not in its time";
    int status = session_check_compare(&c);
    mlp_reference_free(&r);
    free(reference_order);
    free(params);
    return status;
}

static void teardown(void)
{
    chapter_mlp_teardown(scratch);
    gpu_free(device_order);
    gpu_free((void *)test_labels);
    gpu_free((void *)test_pixels);
    gpu_free((void *)train_labels);
    gpu_free((void *)train_pixels);
    free(order);
}

static int finish(const float *params) { return mlp_session_finish(&mlp, params); }
static void end(void) { mlp_session_end(&mlp); }

const trainer_model *harness_model(void)
{
    /* In trainer_model's order (harness.h). */
    static const trainer_model model = {
        "epoch",      /* epoch_unit */
        "parameters", /* parameters_name */
        begin, start, upload_data, init, setup, epoch_begin, step, evaluate, epoch_end, check, teardown,
        finish, end,
    };
    return &model;
}
