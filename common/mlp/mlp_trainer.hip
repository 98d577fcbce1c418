/* The GPU harness of chapter 09 (see mlp_trainer.h). Compiled per platform
 * by the same compiler as the chapter: hipcc, nvcc, or the C++ compiler with
 * the CPU executor's headers. Chapter 09 links it in place of
 * gpu_trainer.hip. */
#include "mlp_trainer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "gpu_runtime.h"
#include "kernel_times.h"
#include "mlp_reference.h"
#include "mlp_session.h"
#include "timing.h"

/* The records one epoch's kernels add into, on the device. */
enum { TRAIN_LOSS, TEST_LOSS, RECORDS };

/* --check: the first `steps` mini-batch steps of epoch 1, as the kernels took
 * them (`run_params`, the parameters after them, and `run_loss`, each step's
 * mean loss) against chapter 09's CPU reference (common/mlp/mlp_reference.c)
 * taking the same steps on the host. Returns 0 when they match. */
static int check_first_steps(const mlp_session *s, const float *run_params,
                             const float *run_loss, int steps)
{
    const mnist_set *train = &s->base.data.train;
    const mlp_layout *layout = &s->layout;
    double start = timing_now_ms();
    float *params = (float *)malloc(layout->count * sizeof(float));
    int *order = (int *)malloc((size_t)train->count * sizeof(int));
    mlp_reference r;
    if (!params || !order || mlp_reference_init(&r, layout->hidden) != 0)
        fatal(1, "out of host memory for --check");
    mlp_init_params(layout, params);
    mlp_shuffle(order, train->count, 0);
    float reference_loss[CLI_CHECK_STEPS];
    for (int b = 0; b < steps; b++) {
        long correct = 0;
        int count = mlp_batch_count(s, b);
        double loss_sum = mlp_reference_step(&r, params, s->base.opts.learning_rate,
                                             train->images, train->labels, order, b * s->batch,
                                             count, &correct);
        reference_loss[b] = (float)(loss_sum / count);
    }
    double reference_ms = timing_now_ms() - start;

    session_check_tensor tensors[4] = {
        {"W1", run_params + layout->w1, params + layout->w1, layout->b1 - layout->w1, MLP_INPUTS},
        {"b1", run_params + layout->b1, params + layout->b1, layout->w2 - layout->b1, 0},
        {"W2", run_params + layout->w2, params + layout->w2, layout->b2 - layout->w2,
         layout->hidden},
        {"b2", run_params + layout->b2, params + layout->b2, layout->count - layout->b2, 0}};
    session_check check;
    memset(&check, 0, sizeof check);
    check.reference = s->cli.check_reference; /* the name --help gives it */
    check.what = "parameter";
    check.step_name = "mini-batch step";
    check.steps = steps;
    check.run_loss = run_loss;
    check.reference_loss = reference_loss;
    check.tensors = tensors;
    check.tensor_count = 4;
    check.reference_ms = reference_ms;
    check.timing_note = "after epoch 1, not in its time";
    int status = session_check_compare(&check);
    mlp_reference_free(&r);
    free(order);
    free(params);
    return status;
}

int main(int argc, char **argv)
{
    mlp_session s;
    cli_enable_kernel_times();
    mlp_session_begin(&s, argc, argv, chapter_name, PLATFORM_NAME);

    hipDeviceProp_t properties;
    char device_name[512];
    gpu_open_device(chapter_name, &properties, device_name, sizeof device_name);
    mlp_session_start(&s, device_name);

    const mnist_set *train = &s.base.data.train, *test = &s.base.data.test;
    const mlp_layout *layout = &s.layout;
    mlp_problem p;
    memset(&p, 0, sizeof p);
    p.hidden = layout->hidden;
    p.batch = s.batch;
    p.max_images = s.batch > MLP_EVALUATE_CHUNK ? s.batch : MLP_EVALUATE_CHUNK;
    p.learning_rate = s.base.opts.learning_rate;

    /* Images (as bytes: a quarter of the float features), labels and the
     * parameters, uploaded once; reported apart. */
    double t0 = timing_now_ms();
    const unsigned int *train_pixels = (const unsigned int *)upload(
        train->images, (size_t)train->count * MLP_INPUTS, "training images");
    const uint8_t *train_labels = (const uint8_t *)upload(train->labels, (size_t)train->count,
                                                          "training labels");
    const unsigned int *test_pixels = (const unsigned int *)upload(
        test->images, (size_t)test->count * MLP_INPUTS, "test images");
    const uint8_t *test_labels = (const uint8_t *)upload(test->labels, (size_t)test->count,
                                                         "test labels");
    float *params = (float *)malloc(layout->count * sizeof(float));
    int *order = (int *)malloc((size_t)train->count * sizeof(int));
    if (!params || !order) fatal(1, "out of host memory for the parameters");
    mlp_init_params(layout, params);
    float *device_params = (float *)upload(params, layout->count * sizeof(float), "parameters");
    p.w1 = device_params + layout->w1;
    p.b1 = device_params + layout->b1;
    p.w2 = device_params + layout->w2;
    p.b2 = device_params + layout->b2;
    int *device_order = (int *)gpu_alloc((size_t)train->count * sizeof(int), "order");
    /* Per epoch: loss sums (float) and right predictions (unsigned). */
    float *loss_sum = (float *)gpu_alloc((size_t)s.epochs * RECORDS * sizeof(float), "loss sums");
    unsigned int *correct = (unsigned int *)gpu_alloc(
        (size_t)s.epochs * RECORDS * sizeof(unsigned int), "accuracy counts");
    HIP_CHECK(hipMemset(loss_sum, 0, (size_t)s.epochs * RECORDS * sizeof(float)));
    HIP_CHECK(hipMemset(correct, 0, (size_t)s.epochs * RECORDS * sizeof(unsigned int)));
    HIP_CHECK(hipDeviceSynchronize());
    s.base.upload_ms = timing_now_ms() - t0;

    /* --check: epoch 1's first mini-batch steps record their losses apart,
     * and the parameters after them are copied aside on the device, so that
     * the host compares them with chapter 09's CPU reference once the epoch
     * is over, without waiting in the middle of it. */
    int check_steps = !s.base.opts.check ? 0 : s.batches < CLI_CHECK_STEPS ? s.batches
                                                                          : CLI_CHECK_STEPS;
    float *check_params = NULL, *check_loss = NULL;
    unsigned int *check_correct = NULL;
    hipEvent_t copy_start = NULL, copy_end = NULL;
    if (check_steps > 0) {
        check_params = (float *)gpu_alloc(layout->count * sizeof(float), "check parameters");
        check_loss = (float *)gpu_alloc(check_steps * sizeof(float), "check loss sums");
        check_correct = (unsigned int *)gpu_alloc(check_steps * sizeof(unsigned int),
                                                  "check accuracy counts");
        HIP_CHECK(hipMemset(check_loss, 0, check_steps * sizeof(float)));
        HIP_CHECK(hipMemset(check_correct, 0, check_steps * sizeof(unsigned int)));
        HIP_CHECK(hipEventCreate(&copy_start));
        HIP_CHECK(hipEventCreate(&copy_end));
    }
    int check_status = 0;

    void *scratch = NULL;
    chapter_mlp_setup(&p, &scratch);
    HIP_CHECK(hipDeviceSynchronize());

    hipEvent_t start, stop;
    HIP_CHECK(hipEventCreate(&start));
    HIP_CHECK(hipEventCreate(&stop));
    if (s.base.opts.kernel_times) kernel_times_begin(s.epochs);
    for (int e = 0; e < s.epochs && check_status == 0; e++) {
        /* The epoch's order: a few hundred KB, copied before its timing starts. */
        mlp_shuffle(order, train->count, e);
        HIP_CHECK(hipMemcpy(device_order, order, (size_t)train->count * sizeof(int),
                            hipMemcpyHostToDevice));
        mlp_batch batch = {train_pixels, train_labels, device_order, 0, 0,
                           loss_sum + e * RECORDS + TRAIN_LOSS,
                           correct + e * RECORDS + TRAIN_LOSS};
        HIP_CHECK(hipEventRecord(start, 0));
        kernel_times_iteration_start(); /* the training batches only, not the test set */
        for (int b = 0; b < s.batches; b++) {
            batch.first = b * s.batch;
            batch.count = mlp_batch_count(&s, b);
            int checked = e == 0 && b < check_steps;
            if (checked) {
                mlp_batch step = batch;
                step.loss_sum = check_loss + b;
                step.correct = check_correct + b;
                chapter_mlp_train(&p, scratch, &step);
            } else {
                chapter_mlp_train(&p, scratch, &batch);
            }
            if (checked && b == check_steps - 1) {
                /* Taken off the epoch's time below (with --kernel-times it
                 * counts in the next kernel's: a few microseconds on a GPU). */
                HIP_CHECK(hipEventRecord(copy_start, 0));
                HIP_CHECK(hipMemcpyAsync(check_params, device_params,
                                         layout->count * sizeof(float),
                                         hipMemcpyDeviceToDevice, 0));
                HIP_CHECK(hipEventRecord(copy_end, 0));
            }
        }
        HIP_CHECK(hipEventRecord(stop, 0));
        kernel_times_iteration_end();

        /* The test set at the epoch's final parameters, timed apart. */
        HIP_CHECK(hipEventSynchronize(stop));
        double evaluation_start = timing_now_ms();
        mlp_batch eval = {test_pixels, test_labels, NULL, 0, 0, loss_sum + e * RECORDS + TEST_LOSS,
                          correct + e * RECORDS + TEST_LOSS};
        for (int first = 0; first < test->count; first += p.max_images) {
            eval.first = first;
            eval.count = test->count - first < p.max_images ? test->count - first : p.max_images;
            chapter_mlp_evaluate(&p, scratch, &eval);
        }
        float sums[RECORDS];
        unsigned int counts[RECORDS];
        HIP_CHECK(hipMemcpy(sums, loss_sum + e * RECORDS, sizeof sums, hipMemcpyDeviceToHost));
        HIP_CHECK(hipMemcpy(counts, correct + e * RECORDS, sizeof counts, hipMemcpyDeviceToHost));
        s.evaluation_ms += timing_now_ms() - evaluation_start;

        float ms = 0.0f;
        HIP_CHECK(hipEventElapsedTime(&ms, start, stop));
        float run_loss[CLI_CHECK_STEPS];
        if (e == 0 && check_steps > 0) {
            float copy_ms = 0.0f, step_sums[CLI_CHECK_STEPS];
            unsigned int step_counts[CLI_CHECK_STEPS];
            HIP_CHECK(hipEventElapsedTime(&copy_ms, copy_start, copy_end));
            ms -= copy_ms;
            HIP_CHECK(hipMemcpy(step_sums, check_loss, check_steps * sizeof(float),
                                hipMemcpyDeviceToHost));
            HIP_CHECK(hipMemcpy(step_counts, check_correct, check_steps * sizeof(unsigned int),
                                hipMemcpyDeviceToHost));
            for (int b = 0; b < check_steps; b++) {
                sums[TRAIN_LOSS] += step_sums[b];
                counts[TRAIN_LOSS] += step_counts[b];
                run_loss[b] = step_sums[b] / mlp_batch_count(&s, b);
            }
        }
        s.base.iteration_ms[e] = ms;
        s.base.loss[e] = sums[TRAIN_LOSS] / train->count;
        s.base.train_accuracy[e] = (float)counts[TRAIN_LOSS] / train->count;
        s.test_loss[e] = sums[TEST_LOSS] / test->count;
        s.test_accuracy[e] = (float)counts[TEST_LOSS] / test->count;
        mlp_session_epoch(&s, e);
        if (e == 0 && check_steps > 0) {
            HIP_CHECK(hipMemcpy(params, check_params, layout->count * sizeof(float),
                                hipMemcpyDeviceToHost));
            check_status = check_first_steps(&s, params, run_loss, check_steps);
        }
    }
    if (check_steps > 0) {
        HIP_CHECK(hipEventDestroy(copy_start));
        HIP_CHECK(hipEventDestroy(copy_end));
        gpu_free(check_correct);
        gpu_free(check_loss);
        gpu_free(check_params);
    }
    HIP_CHECK(hipEventDestroy(start));
    HIP_CHECK(hipEventDestroy(stop));

    HIP_CHECK(hipMemcpy(params, device_params, layout->count * sizeof(float),
                        hipMemcpyDeviceToHost));
    chapter_mlp_teardown(scratch);
    gpu_free(correct);
    gpu_free(loss_sum);
    gpu_free(device_order);
    gpu_free(device_params);
    gpu_free((void *)test_labels);
    gpu_free((void *)test_pixels);
    gpu_free((void *)train_labels);
    gpu_free((void *)train_pixels);

    /* A failed --check stopped the training after epoch 1: no summary, no files. */
    int status = check_status != 0 ? 1 : mlp_session_finish(&s, params);
    if (check_status == 0)
        kernel_times_report("epoch", s.base.opts.kernel_times_path, chapter_name, PLATFORM_NAME);
    free(order);
    free(params);
    mlp_session_end(&s);
    return status;
}
