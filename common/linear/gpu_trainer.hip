/* The GPU trainer harness (see gpu_trainer.h). Compiled per platform by the
 * same compiler as the chapters: hipcc, nvcc, or the C++ compiler with the
 * CPU executor's headers. */
#include "gpu_trainer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_reference.h"
#include "errors.h"
#include "gpu_runtime.h"
#include "kernel_times.h"
#include "session.h"
#include "timing.h"

#if defined(__HIPCPU__)
/* The executor runs each launch to completion, so reading the records after
 * every iteration costs nothing and gives live progress. */
#define EVENT_CHUNK 1
#else
#define EVENT_CHUNK 256
#endif

/* Reads back the records of iterations [first, end) and their times:
 * event[i] was recorded before iteration first + i. */
static void collect(session *s, const gpu_problem *p, hipEvent_t *event, int first, int end)
{
    int count = end - first;
    HIP_CHECK(hipEventSynchronize(event[count]));
    for (int i = 0; i < count; i++) {
        float ms = 0.0f;
        HIP_CHECK(hipEventElapsedTime(&ms, event[i], event[i + 1]));
        s->iteration_ms[first + i] = ms;
    }
    float loss_sum[EVENT_CHUNK];
    unsigned int correct[EVENT_CHUNK];
    HIP_CHECK(hipMemcpy(loss_sum, p->loss_sum + first, count * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(correct, p->correct + first, count * sizeof(unsigned), hipMemcpyDeviceToHost));
    for (int i = 0; i < count; i++) {
        s->loss[first + i] = loss_sum[i] / p->images;
        s->train_accuracy[first + i] = (float)correct[i] / p->images;
        session_progress(s, first + i);
    }
}

/* --check, after the first `steps` iterations: W read back, and chapter 00's
 * own step (chapters/00-cpu-reference/train.c) run as many times on the host
 * from the same initial weights on the same images. `x_rows` is the harness's
 * image-major copy when it kept one, else NULL. Returns 0 when they match. */
static int check_first_iterations(const session *s, const gpu_problem *p, const float *x_rows,
                                  int steps)
{
    float run_w[MODEL_WEIGHTS], reference_w[MODEL_WEIGHTS];
    HIP_CHECK(hipMemcpy(run_w, p->w, sizeof run_w, hipMemcpyDeviceToHost));

    double start = timing_now_ms();
    const mnist_set *train = &s->data.train;
    float *own_x = x_rows ? NULL : mnist_features_rows(train);
    double *gradient = (double *)malloc(MODEL_WEIGHTS * sizeof(double));
    if ((!x_rows && !own_x) || !gradient) fatal(1, "out of host memory for --check");
    float reference_loss[CLI_CHECK_STEPS], reference_accuracy[CLI_CHECK_STEPS];
    model_init_weights(reference_w);
    for (int it = 0; it < steps; it++)
        train_iteration(x_rows ? x_rows : own_x, train->labels, train->count, reference_w,
                        p->learning_rate, gradient, &reference_loss[it], &reference_accuracy[it]);
    double reference_ms = timing_now_ms() - start;
    free(gradient);
    free(own_x);

    session_check_tensor w = {"W", run_w, reference_w, MODEL_WEIGHTS, MODEL_FEATURES};
    session_check check;
    memset(&check, 0, sizeof check);
    check.reference = "chapter 00";
    check.what = "weight";
    check.step_name = "iteration";
    check.steps = steps;
    check.run_loss = s->loss;
    check.reference_loss = reference_loss;
    check.tensors = &w;
    check.tensor_count = 1;
    check.reference_ms = reference_ms;
    check.timing_note = "between two timed iterations";
    return session_check_compare(&check);
}

int main(int argc, char **argv)
{
    session s;
    cli_enable_kernel_times();
    session_begin(&s, argc, argv, chapter_name, PLATFORM_NAME);

    hipDeviceProp_t properties;
    char device_name[512];
    gpu_open_device(chapter_name, &properties, device_name, sizeof device_name);
    session_start(&s, device_name);

    const mnist_set *train = &s.data.train;
    gpu_problem p;
    memset(&p, 0, sizeof p);
    p.images = train->count;
    if (p.images > MODEL_GPU_MAX_IMAGES)
        fatal(1, "%d training images: the GPU chapters index 10 scores per image with int, so they"
                 " take at most %d (use --train-limit)", p.images, MODEL_GPU_MAX_IMAGES);
    p.compute_units = properties.multiProcessorCount;
    p.iterations = s.opts.iterations;
    p.learning_rate = s.opts.learning_rate;

    /* Build the layouts on the host and upload them; reported apart. With
     * --check the image-major copy stays until chapter 00 has run on it. */
    double t0 = timing_now_ms();
    float *check_x = NULL;
    if (chapter_needs & NEEDS_X_ROWS) {
        float *x = mnist_features_rows(train);
        if (!x) fatal(1, "out of host memory for the image-major features");
        p.x_rows = (const float *)upload(x, (size_t)p.images * MODEL_FEATURES * sizeof(float), "x_rows");
        if (s.opts.check) check_x = x;
        else free(x);
    }
    if (chapter_needs & NEEDS_X_COLS) {
        float *x = mnist_features_cols(train);
        if (!x) fatal(1, "out of host memory for the feature-major features");
        p.x_cols = (const float *)upload(x, (size_t)p.images * MODEL_FEATURES * sizeof(float), "x_cols");
        free(x);
    }
    if (chapter_needs & NEEDS_PIXELS)
        p.pixels = (const uint8_t *)upload(train->images, (size_t)p.images * MODEL_PIXELS, "pixels");
    p.labels = (const uint8_t *)upload(train->labels, (size_t)p.images, "labels");

    float w[MODEL_WEIGHTS];
    model_init_weights(w);
    p.w = (float *)upload(w, sizeof w, "w");
    p.loss_sum = (float *)gpu_alloc(p.iterations * sizeof(float), "loss_sum");
    p.correct = (unsigned int *)gpu_alloc(p.iterations * sizeof(unsigned int), "correct");
    HIP_CHECK(hipMemset(p.loss_sum, 0, p.iterations * sizeof(float)));
    HIP_CHECK(hipMemset(p.correct, 0, p.iterations * sizeof(unsigned int)));
    HIP_CHECK(hipDeviceSynchronize());
    s.upload_ms = timing_now_ms() - t0;

    void *scratch = NULL;
    chapter_setup(&p, &scratch);
    HIP_CHECK(hipDeviceSynchronize());

    /* Events around every iteration; the host waits only when a chunk of
     * events is full (every EVENT_CHUNK iterations on a GPU), never between
     * an iteration's two events. --check ends a chunk after its first
     * iterations and compares them with chapter 00 there, between two timed
     * iterations. */
    hipEvent_t event[EVENT_CHUNK + 1];
    for (int i = 0; i <= EVENT_CHUNK; i++) HIP_CHECK(hipEventCreate(&event[i]));
    if (s.opts.kernel_times) kernel_times_begin(p.iterations);
    int check_after = !s.opts.check ? 0 : p.iterations < CLI_CHECK_STEPS ? p.iterations
                                                                          : CLI_CHECK_STEPS;
    int check_status = 0;
    for (int first = 0, end; first < p.iterations && check_status == 0; first = end) {
        end = first + EVENT_CHUNK < p.iterations ? first + EVENT_CHUNK : p.iterations;
        if (first < check_after && end > check_after) end = check_after;
        HIP_CHECK(hipEventRecord(event[0], 0));
        for (int it = first; it < end; it++) {
            kernel_times_iteration_start();
            chapter_iteration(&p, scratch, it);
            HIP_CHECK(hipEventRecord(event[it - first + 1], 0));
            kernel_times_iteration_end(); /* waits, with --kernel-times only */
        }
        collect(&s, &p, event, first, end);
        if (end == check_after) {
            check_status = check_first_iterations(&s, &p, check_x, check_after);
            free(check_x);
            check_x = NULL;
        }
    }
    for (int i = 0; i <= EVENT_CHUNK; i++) HIP_CHECK(hipEventDestroy(event[i]));
    free(check_x);

    HIP_CHECK(hipMemcpy(w, p.w, sizeof w, hipMemcpyDeviceToHost));
    chapter_teardown(scratch);
    gpu_free(p.w);
    gpu_free(p.loss_sum);
    gpu_free(p.correct);
    gpu_free((void *)p.labels);
    gpu_free((void *)p.pixels);
    gpu_free((void *)p.x_cols);
    gpu_free((void *)p.x_rows);

    /* A failed --check stopped the training: no summary, no files. */
    int status = check_status != 0 ? 1 : session_finish(&s, w);
    if (check_status == 0)
        kernel_times_report("iteration", s.opts.kernel_times_path, chapter_name, PLATFORM_NAME);
    session_end(&s);
    return status;
}
