#define _POSIX_C_SOURCE 200809L
#include "session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "difference.h"
#include "errors.h"
#include "timing.h"

static void *checked_calloc(size_t count, size_t size, const char *what)
{
    void *p = calloc(count, size);
    if (!p) fatal(1, "out of host memory for %s (%zu bytes)", what, count * size);
    return p;
}

void session_begin(session *s, int argc, char **argv, const char *chapter, const char *platform)
{
    memset(s, 0, sizeof *s);
    cli_parse(argc, argv, chapter, &s->opts);

    char err[ERROR_TEXT_SIZE];
    if (mnist_load(s->opts.dataset_dir, &s->data, err, sizeof err) != 0) fatal(1, "%s", err);
    if (s->data.train.pixels != MNIST_PIXELS)
        fatal(1, "%s: images are %dx%d, but the model expects %d pixels (28x28)",
             s->opts.dataset_dir, s->data.train.rows, s->data.train.cols, MNIST_PIXELS);
    int available = s->data.train.count;
    if (s->opts.train_limit > available) {
        error_report("--train-limit %ld: more than the %d training images",
                     s->opts.train_limit, available);
        exit(CLI_USAGE_STATUS);
    }
    if (s->opts.train_limit > 0 &&
        mnist_limit(&s->data.train, (int)s->opts.train_limit, err, sizeof err) != 0)
        fatal(1, "%s", err);

    int n = s->opts.iterations;
    s->loss = checked_calloc((size_t)n, sizeof *s->loss, "the loss history");
    s->train_accuracy = checked_calloc((size_t)n, sizeof *s->train_accuracy, "the accuracy history");
    s->iteration_ms = checked_calloc((size_t)n, sizeof *s->iteration_ms, "the timings");

    s->run.chapter = chapter;
    s->run.platform = platform;
    s->run.device = "";
    s->run.train_images = s->data.train.count;
    s->run.train_available = available;
    s->run.test_images = s->data.test.count;
    s->run.rows = s->data.train.rows;
    s->run.cols = s->data.train.cols;
    s->run.iterations = n;
    s->run.learning_rate = s->opts.learning_rate;
    s->run.dataset_dir = s->opts.dataset_dir;
}

void session_start(session *s, const char *device)
{
    s->run.device = device;
    report_header(&s->run);
}

void session_progress(const session *s, int i)
{
    /* A loss that is no longer finite gets no line: session_finish says
     * where it diverged. */
    if (s->opts.quiet || !isfinite(s->loss[i])) return;
    if ((i + 1) % SESSION_PROGRESS_EVERY != 0 && i != 0 && i + 1 != s->opts.iterations) return;
    report_progress(i + 1, s->loss[i], s->train_accuracy[i], s->iteration_ms[i]);
}

int session_finish_model(session *s, const session_model *m)
{
    /* A learning rate that is too large makes the loss grow without bound;
     * say where instead of printing NaN accuracies. */
    for (int i = 0; i < m->steps; i++) {
        if (!isfinite(s->loss[i])) {
            error_report("the loss diverged %s %d (loss = %g)\n"
                         "  with learning rate %g; try a smaller learning rate",
                         m->step_at, i + 1, (double)s->loss[i], (double)s->opts.learning_rate);
            return 1;
        }
    }
    for (size_t j = 0; j < m->count; j++) {
        if (!isfinite(m->values[j])) {
            error_report("the %s are no longer finite after %s %d\n"
                         "  (learning rate %g); try a smaller learning rate",
                         m->parameters, m->step, m->steps, (double)s->opts.learning_rate);
            return 1;
        }
    }

    report_result r;
    memset(&r, 0, sizeof r);
    if (m->evaluate(m->model, s, &r) != 0) fatal(1, "out of host memory for the evaluation");
    timing_compute(s->iteration_ms, m->steps, &r.time);
    r.upload_ms = s->upload_ms;
    m->summary(m->model, s, &r);

    char err[ERROR_TEXT_SIZE];
    int status = 0;
    if (s->opts.csv_path && m->write_csv(m->model, s, s->opts.csv_path, err, sizeof err) != 0) {
        error_report("%s", err);
        status = 1;
    }
    if (s->opts.weights_path &&
        report_write_weights(s->opts.weights_path, m->values, m->count, err, sizeof err) != 0) {
        error_report("%s", err);
        status = 1;
    }
    /* A bench row's iterations are the model's steps, its ms per step. */
    if (s->opts.bench_path &&
        report_append_bench(s->opts.bench_path, &s->run, &r, m->count, err, sizeof err) != 0) {
        error_report("%s", err);
        status = 1;
    }
    if (s->opts.predictions_path) {
        const mnist_set *t = &s->data.test;
        unsigned char *pred = checked_calloc((size_t)t->count, 1, "the predictions");
        for (int i = 0; i < t->count; i++)
            pred[i] = (unsigned char)m->predict(m->model, t->images + (size_t)i * t->pixels);
        if (report_write_predictions(s->opts.predictions_path, t->labels, pred, t->images,
                                     t->count, t->pixels, err, sizeof err) != 0) {
            error_report("%s", err);
            status = 1;
        }
        free(pred);
    }
    if (s->opts.view) viewer_run(&s->data.test, m->predict, m->model);
    return status;
}

/* "W[3][412]" or "b1[17]" */
static void element_name(const session_check_tensor *t, size_t i, char *name, size_t size)
{
    if (t->columns > 0)
        snprintf(name, size, "%s[%zu][%zu]", t->name, i / (size_t)t->columns,
                 i % (size_t)t->columns);
    else
        snprintf(name, size, "%s[%zu]", t->name, i);
}

int session_check_compare(const session_check *c)
{
    /* The reference itself must be finite: with a learning rate that makes
     * it diverge within the checked steps there is nothing to compare. */
    for (int t = 0; t < c->tensor_count; t++) {
        const session_check_tensor *tensor = &c->tensors[t];
        for (size_t i = 0; i < tensor->count; i++) {
            if (isfinite(tensor->reference[i])) continue;
            char name[64];
            element_name(tensor, i, name, sizeof name);
            error_report("--check: %s's own %s is no longer finite after %d %s%s: it "
                         "diverged, so there is nothing to compare; try a smaller learning rate",
                         c->reference, name, c->steps, c->step_name, c->steps == 1 ? "" : "s");
            return 1;
        }
    }

    /* The worst tensor by the checks' one measure (difference.h), and its
     * worst element. */
    double weight_error = 0.0;
    const session_check_tensor *worst_tensor = NULL;
    size_t worst = 0;
    for (int t = 0; t < c->tensor_count; t++) {
        const session_check_tensor *tensor = &c->tensors[t];
        tensor_difference d = difference_of_tensors(tensor->reference, tensor->run, tensor->count);
        if (!worst_tensor || d.error > weight_error) {
            weight_error = d.error;
            worst_tensor = tensor;
            worst = d.worst;
        }
    }

    double loss_error = 0.0;
    int first_bad_loss = -1;
    for (int k = 0; k < c->steps; k++) {
        double error = difference_of_values(c->reference_loss[k], c->run_loss[k]);
        if (error > loss_error) loss_error = error;
        if (error > CLI_CHECK_LIMIT && first_bad_loss < 0) first_bad_loss = k;
    }

    /* The verdict, then what was compared and by how much, a line each
     * (each within 80 columns): on stdout when they match, else on stderr
     * with the element and the loss that differ. */
    int match = weight_error <= CLI_CHECK_LIMIT && first_bad_loss < 0;
    FILE *out = match ? stdout : stderr;
    if (match)
        printf("matches %s\n", c->reference);
    else
        error_report("--check: does not match %s", c->reference);
    fprintf(out, "  compared           the %ss after %d %s%s, and the %d loss%s\n", c->what,
            c->steps, c->step_name, c->steps == 1 ? "" : "s", c->steps, c->steps == 1 ? "" : "es");
    char plural[32];
    snprintf(plural, sizeof plural, "%ss", c->what);
    fprintf(out, "  %-18s max relative difference %.1e (limit %s)\n", plural, weight_error,
            CLI_CHECK_LIMIT_TEXT);
    fprintf(out, "  losses             max relative difference %.1e (limit %s)\n", loss_error,
            CLI_CHECK_LIMIT_TEXT);
    if (match) {
        printf("  reference time     %.0f ms on the host, %s\n", c->reference_ms, c->timing_note);
        fflush(stdout);
        return 0;
    }
    if (worst_tensor && weight_error > CLI_CHECK_LIMIT) {
        char name[64];
        element_name(worst_tensor, worst, name, sizeof name);
        fprintf(stderr, "  worst %-12s %s = %.9g (reference %.9g)\n", c->what, name,
                (double)worst_tensor->run[worst], (double)worst_tensor->reference[worst]);
    }
    if (first_bad_loss >= 0)
        fprintf(stderr, "  first loss off     %s %d = %.9g (reference %.9g)\n", c->step_name,
                first_bad_loss + 1, (double)c->run_loss[first_bad_loss],
                (double)c->reference_loss[first_bad_loss]);
    return 1;
}

void session_end(session *s)
{
    free(s->loss);
    free(s->train_accuracy);
    free(s->iteration_ms);
    mnist_free(&s->data);
    memset(s, 0, sizeof *s);
}
