/* The one GPU harness (see harness.h). Compiled per platform by the same
 * compiler as the chapters: hipcc, nvcc, or the C++ compiler with the CPU
 * executor's headers. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "errors.h"
#include "gpu_runtime.h"
#include "kernel_times.h"
#include "timing.h"

/* Epochs queued before the host waits for their records, unless
 * --event-chunk says otherwise. The executor runs each launch to completion,
 * so reading the records after every epoch costs nothing and gives live
 * progress; a GPU should not wait between epochs. */
#if defined(__HIPCPU__)
#define DEFAULT_EVENT_CHUNK 1
#else
#define DEFAULT_EVENT_CHUNK 256
#endif

/* Records per epoch on the device: the training steps', then the test set's
 * when the model evaluates it. */
enum { TRAIN_RECORD, TEST_RECORD };

typedef struct {
    const trainer_model *model;
    trainer_shape shape;
    int stride;             /* records per epoch: 1, or 2 with a test-set evaluation */
    float *device_params;
    float *loss_sum;        /* [epochs * stride] */
    unsigned int *correct;  /* [epochs * stride] */
    /* --check: the checked steps add into records of their own (one per
     * step), and when they end inside an epoch, the parameters after them
     * are copied aside, so that the host compares them once the epoch is
     * over, without waiting in the middle of it. */
    int copy_aside;
    float *check_params, *check_loss;
    unsigned int *check_correct;
    hipEvent_t copy_start, copy_end;
    float run_loss_sums[CLI_CHECK_STEPS]; /* the checked steps' loss sums */
    /* A chunk's records on the host: [chunk * stride] each. */
    float *chunk_sums;
    unsigned int *chunk_counts;
    kernel_times *times;    /* --kernel-times; NULL when off */
} harness;

/* Launches epoch `epoch`'s steps; the checked ones add into their own records. */
static void run_epoch(harness *h, int epoch)
{
    const trainer_shape *shape = &h->shape;
    for (int b = 0; b < shape->steps; b++) {
        int global = epoch * shape->steps + b;
        trainer_records records = {h->loss_sum, h->correct, epoch * h->stride + TRAIN_RECORD};
        if (global < shape->check_steps) {
            trainer_records own = {h->check_loss, h->check_correct, global};
            records = own;
        }
        h->model->step(epoch, b, &records);
        if (h->copy_aside && global == shape->check_steps - 1) {
            /* Taken off the epoch's time by collect() (with --kernel-times it
             * counts in the next kernel's: a few microseconds on a GPU). */
            HIP_CHECK(hipEventRecord(h->copy_start, 0));
            HIP_CHECK(hipMemcpyAsync(h->check_params, h->device_params,
                                     shape->parameters * sizeof(float), hipMemcpyDeviceToDevice, 0));
            HIP_CHECK(hipEventRecord(h->copy_end, 0));
        }
    }
}

/* Waits for epochs [first, end), evaluates the test set after each when the
 * model does (one epoch per chunk then), and reads back their times and
 * records into the session's history: start[i] and stop[i] were recorded
 * around epoch first + i. */
static void collect(harness *h, hipEvent_t *start, hipEvent_t *stop, int first, int end)
{
    const trainer_shape *shape = &h->shape;
    session *s = shape->session;
    int count = end - first, stride = h->stride;
    HIP_CHECK(hipEventSynchronize(stop[count - 1]));

    double evaluation_start = timing_now_ms();
    if (h->model->evaluate) {
        trainer_records test = {h->loss_sum, h->correct, first * stride + TEST_RECORD};
        h->model->evaluate(&test);
    }
    float *sums = h->chunk_sums;
    unsigned int *counts = h->chunk_counts;
    HIP_CHECK(hipMemcpy(sums, h->loss_sum + first * stride, count * stride * sizeof(float),
                        hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(counts, h->correct + first * stride, count * stride * sizeof(unsigned int),
                        hipMemcpyDeviceToHost));
    double evaluation_ms = timing_now_ms() - evaluation_start;

    /* The checked steps among these epochs: their records back into the epochs' sums. */
    int check_first = first * shape->steps, check_end = end * shape->steps;
    if (check_end > shape->check_steps) check_end = shape->check_steps;
    for (int g = check_first; g < check_end; g++) {
        float step_sum;
        unsigned int step_correct;
        HIP_CHECK(hipMemcpy(&step_sum, h->check_loss + g, sizeof step_sum, hipMemcpyDeviceToHost));
        HIP_CHECK(hipMemcpy(&step_correct, h->check_correct + g, sizeof step_correct,
                            hipMemcpyDeviceToHost));
        int i = g / shape->steps - first;
        sums[i * stride + TRAIN_RECORD] += step_sum;
        counts[i * stride + TRAIN_RECORD] += step_correct;
        h->run_loss_sums[g] = step_sum;
    }

    int train_images = s->data.train.count, test_images = s->data.test.count;
    for (int i = 0; i < count; i++) {
        int e = first + i;
        float ms = 0.0f;
        HIP_CHECK(hipEventElapsedTime(&ms, start[i], stop[i]));
        if (h->copy_aside && e == (shape->check_steps - 1) / shape->steps) {
            float copy_ms = 0.0f;
            HIP_CHECK(hipEventElapsedTime(&copy_ms, h->copy_start, h->copy_end));
            ms -= copy_ms;
        }
        s->iteration_ms[e] = ms;
        s->loss[e] = sums[i * stride + TRAIN_RECORD] / train_images;
        s->train_accuracy[e] = (float)counts[i * stride + TRAIN_RECORD] / train_images;
        float test_loss = 0.0f, test_accuracy = 0.0f;
        if (h->model->evaluate) {
            test_loss = sums[i * stride + TEST_RECORD] / test_images;
            test_accuracy = (float)counts[i * stride + TEST_RECORD] / test_images;
        }
        h->model->epoch_end(e, test_loss, test_accuracy, evaluation_ms);
    }
}

/* --check, once its last step's epoch is collected: the parameters after the
 * checked steps (copied aside, or still in place) against the reference. */
static int check_first_steps(harness *h, float *params)
{
    const float *after = h->copy_aside ? h->check_params : h->device_params;
    HIP_CHECK(hipMemcpy(params, after, h->shape.parameters * sizeof(float), hipMemcpyDeviceToHost));
    return h->model->check(params, h->run_loss_sums, h->shape.check_steps);
}

/* The model's data, the initial parameters and the records, uploaded once
 * and timed apart from training; returns the parameters' host copy. */
static float *upload_model(harness *h)
{
    const trainer_model *m = h->model;
    const trainer_shape *shape = &h->shape;
    double t0 = timing_now_ms();
    m->upload();
    float *params = (float *)malloc(shape->parameters * sizeof(float));
    if (!params) fatal(1, "out of host memory for the %s", m->parameters_name);
    m->init(params);
    h->device_params = (float *)upload(params, shape->parameters * sizeof(float), m->parameters_name);
    h->stride = m->evaluate ? 2 : 1;
    size_t records = (size_t)shape->epochs * h->stride;
    h->loss_sum = (float *)gpu_alloc(records * sizeof(float), "loss_sum");
    h->correct = (unsigned int *)gpu_alloc(records * sizeof(unsigned int), "correct");
    HIP_CHECK(hipMemset(h->loss_sum, 0, records * sizeof(float)));
    HIP_CHECK(hipMemset(h->correct, 0, records * sizeof(unsigned int)));
    HIP_CHECK(hipDeviceSynchronize());
    shape->session->upload_ms = timing_now_ms() - t0;
    return params;
}

/* --check's own records, and the room for the parameters copied aside when
 * the checked steps end inside an epoch. */
static void allocate_check(harness *h)
{
    int checked = h->shape.check_steps;
    if (checked == 0) return;
    h->check_loss = (float *)gpu_alloc(checked * sizeof(float), "check loss sums");
    h->check_correct = (unsigned int *)gpu_alloc(checked * sizeof(unsigned int), "check accuracy counts");
    HIP_CHECK(hipMemset(h->check_loss, 0, checked * sizeof(float)));
    HIP_CHECK(hipMemset(h->check_correct, 0, checked * sizeof(unsigned int)));
    h->copy_aside = checked % h->shape.steps != 0;
    if (h->copy_aside) {
        h->check_params = (float *)gpu_alloc(h->shape.parameters * sizeof(float), "check parameters");
        HIP_CHECK(hipEventCreate(&h->copy_start));
        HIP_CHECK(hipEventCreate(&h->copy_end));
    }
}

static void free_check(harness *h)
{
    if (h->shape.check_steps == 0) return;
    if (h->copy_aside) {
        HIP_CHECK(hipEventDestroy(h->copy_start));
        HIP_CHECK(hipEventDestroy(h->copy_end));
        gpu_free(h->check_params);
    }
    gpu_free(h->check_correct);
    gpu_free(h->check_loss);
}

/* The epochs queued before the host waits: one when the model evaluates the
 * test set after each, else --event-chunk or the platform's default. */
static int chunk_epochs(const harness *h)
{
    const options *opts = &h->shape.session->opts;
    if (h->model->evaluate) return 1;
    return opts->event_chunk > 0 ? opts->event_chunk : DEFAULT_EVENT_CHUNK;
}

/* Every epoch, with events around each; the host waits only when a chunk of
 * them is full, never inside an epoch. --check ends a chunk with the epoch of
 * its last step and compares there, between two timed epochs. Returns
 * --check's status: training stops at a failed check. */
static int train(harness *h, float *params)
{
    const trainer_shape *shape = &h->shape;
    int chunk = chunk_epochs(h);
    int check_epochs = shape->check_steps > 0 ? (shape->check_steps - 1) / shape->steps + 1 : 0;
    hipEvent_t *start = (hipEvent_t *)malloc(2 * chunk * sizeof(hipEvent_t));
    h->chunk_sums = (float *)malloc(chunk * h->stride * sizeof(float));
    h->chunk_counts = (unsigned int *)malloc(chunk * h->stride * sizeof(unsigned int));
    if (!start || !h->chunk_sums || !h->chunk_counts)
        fatal(1, "out of host memory for %d epochs' events and records", chunk);
    hipEvent_t *stop = start + chunk;
    for (int i = 0; i < chunk; i++) {
        HIP_CHECK(hipEventCreate(&start[i]));
        HIP_CHECK(hipEventCreate(&stop[i]));
    }
    int check_status = 0;
    for (int first = 0, end; first < shape->epochs && check_status == 0; first = end) {
        end = first + chunk < shape->epochs ? first + chunk : shape->epochs;
        if (first < check_epochs && end > check_epochs) end = check_epochs;
        for (int e = first; e < end; e++) {
            if (h->model->epoch_begin) h->model->epoch_begin(e);
            HIP_CHECK(hipEventRecord(start[e - first], 0));
            kernel_times_sample_start(h->times);
            run_epoch(h, e);
            HIP_CHECK(hipEventRecord(stop[e - first], 0));
            kernel_times_sample_end(h->times); /* waits, with --kernel-times only */
        }
        collect(h, start, stop, first, end);
        if (end == check_epochs) check_status = check_first_steps(h, params);
    }
    for (int i = 0; i < chunk; i++) {
        HIP_CHECK(hipEventDestroy(start[i]));
        HIP_CHECK(hipEventDestroy(stop[i]));
    }
    free(start);
    free(h->chunk_sums);
    free(h->chunk_counts);
    return check_status;
}

/* The final parameters back into `params`; the device's buffers freed. */
static void download_and_free(harness *h, float *params)
{
    HIP_CHECK(hipMemcpy(params, h->device_params, h->shape.parameters * sizeof(float),
                        hipMemcpyDeviceToHost));
    h->model->teardown();
    gpu_free(h->correct);
    gpu_free(h->loss_sum);
    gpu_free(h->device_params);
}

int main(int argc, char **argv)
{
    harness h;
    memset(&h, 0, sizeof h);
    h.model = harness_model();
    const trainer_model *m = h.model;
    cli_enable_gpu_options();
    m->begin(argc, argv, &h.shape);
    session *s = h.shape.session;

    hipDeviceProp_t properties;
    char device_name[512];
    gpu_open_device(chapter_name, &properties, device_name, sizeof device_name);
    m->start(device_name, properties.multiProcessorCount);

    float *params = upload_model(&h);
    allocate_check(&h);
    m->setup(h.device_params);
    HIP_CHECK(hipDeviceSynchronize());
    if (s->opts.kernel_times) h.times = kernel_times_begin(h.shape.epochs);

    int check_status = train(&h, params);
    free_check(&h);
    download_and_free(&h, params);

    /* A failed --check stopped the training: no summary, no files. */
    int status = check_status != 0 ? 1 : m->finish(params);
    if (check_status == 0)
        kernel_times_report(h.times, m->epoch_unit, s->opts.kernel_times_path, chapter_name,
                            PLATFORM_NAME);
    kernel_times_end(h.times);
    free(params);
    m->end();
    return status;
}
