#define _POSIX_C_SOURCE 200809L
#include "mlp_session.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "report.h"
#include "viewer.h"

void mlp_session_begin(mlp_session *s, int argc, char **argv, const char *chapter,
                       const char *platform)
{
    memset(s, 0, sizeof *s);
    s->options[MLP_OPTION_HIDDEN] = (cli_option){"--hidden", "N", "units in the hidden layer",
                                                 1, MLP_MAX_HIDDEN, MLP_DEFAULT_HIDDEN, 0};
    s->options[MLP_OPTION_BATCH] = (cli_option){"--batch", "N", "images per mini-batch",
                                                1, MLP_MAX_BATCH, MLP_DEFAULT_BATCH, 0};
    s->cli.model = "784-H-10 MLP (ReLU, softmax cross-entropy), mini-batch SGD";
    s->cli.iterations_name = "EPOCHS";
    s->cli.iterations_option = "--epochs";
    s->cli.default_iterations = MLP_DEFAULT_EPOCHS;
    s->cli.default_learning_rate = MLP_DEFAULT_LEARNING_RATE;
    s->cli.check_reference = "chapter 09's CPU reference";
    s->cli.options = s->options;
    s->cli.option_count = MLP_OPTIONS;

    cli_set_chapter(&s->cli);
    session_begin(&s->base, argc, argv, chapter, platform);
    cli_set_chapter(NULL);

    s->epochs = s->base.opts.iterations;
    mlp_layout_init(&s->layout, (int)s->options[MLP_OPTION_HIDDEN].value);
    int images = s->base.data.train.count;
    long batch = s->options[MLP_OPTION_BATCH].value;
    s->batch = batch < images ? (int)batch : images; /* one batch: the whole set */
    s->batches = (images + s->batch - 1) / s->batch;
    s->test_loss = calloc((size_t)s->epochs, sizeof *s->test_loss);
    s->test_accuracy = calloc((size_t)s->epochs, sizeof *s->test_accuracy);
    if (!s->test_loss || !s->test_accuracy) fatal(1, "out of host memory for the test history");
}

int mlp_batch_count(const mlp_session *s, int b)
{
    int left = s->base.data.train.count - b * s->batch;
    return left < s->batch ? left : s->batch;
}

void mlp_session_start(mlp_session *s, const char *device)
{
    const report_run *run = &s->base.run;
    s->base.run.device = device;
    report_header_dataset(run);
    printf("model 784-%d-10: ReLU hidden layer, softmax cross-entropy, %zu parameters\n",
           s->layout.hidden, s->layout.count);
    int last = mlp_batch_count(s, s->batches - 1);
    printf("training %d epoch%s of %d mini-batch%s of %d", s->epochs, s->epochs == 1 ? "" : "s",
           s->batches, s->batches == 1 ? "" : "es", s->batch);
    if (last != s->batch) printf(" (the last %d)", last);
    printf("\n  learning rate %g, shuffled each epoch", (double)run->learning_rate);
    if (s->options[MLP_OPTION_BATCH].value > s->batch)
        printf(" (--batch %ld: the whole set)", s->options[MLP_OPTION_BATCH].value);
    printf("\n");
    fflush(stdout);
}

void mlp_session_epoch(const mlp_session *s, int e)
{
    /* A loss that is no longer finite gets no line: mlp_session_finish says
     * where it diverged. */
    if (s->base.opts.quiet || !isfinite(s->base.loss[e]) || !isfinite(s->test_loss[e])) return;
    printf("  epoch %4d  loss %.6f  train %6.2f%%  test %6.2f%%  %10.1f ms\n",
           e + 1, (double)s->base.loss[e], 100.0 * s->base.train_accuracy[e],
           100.0 * s->test_accuracy[e], s->base.iteration_ms[e]);
    fflush(stdout);
}

static int write_csv(const mlp_session *s, const char *path, char *err, size_t err_size)
{
    char tmp[4096];
    FILE *f = report_open_temporary(path, tmp, sizeof tmp, err, err_size);
    if (!f) return -1;
    fprintf(f, "epoch,loss,train_accuracy,test_loss,test_accuracy\n");
    for (int e = 0; e < s->epochs; e++)
        fprintf(f, "%d,%.9g,%.9g,%.9g,%.9g\n", e + 1, (double)s->base.loss[e],
                (double)s->base.train_accuracy[e], (double)s->test_loss[e],
                (double)s->test_accuracy[e]);
    return report_commit_file(f, tmp, path, err, err_size);
}

typedef struct {
    const mlp_session *session;
    const float *params;
    double *a1; /* the hidden layer's activations, scratch for one image */
} mlp_model_state;

static int predict(const void *model, const uint8_t *image)
{
    const mlp_model_state *m = (const mlp_model_state *)model;
    return mlp_predict(&m->session->layout, m->params, image, m->a1, NULL, 0);
}

static int evaluate(const void *model, const session *b, report_result *r)
{
    const mlp_model_state *m = (const mlp_model_state *)model;
    double test_loss;
    if (mlp_evaluate(&m->session->layout, m->params, &b->data.train, &r->train_accuracy,
                     &r->final_loss) != 0 ||
        mlp_evaluate(&m->session->layout, m->params, &b->data.test, &r->test_accuracy,
                     &test_loss) != 0)
        return -1;
    return 0;
}

static void summary(const void *model, const session *b, const report_result *r)
{
    const mlp_session *s = ((const mlp_model_state *)model)->session;
    char per_batch[96], evaluation[96];
    snprintf(per_batch, sizeof per_batch, "  ms per mini-batch  %.4f (median epoch / %d mini-batches)",
             r->time.median_ms / s->batches, s->batches);
    snprintf(evaluation, sizeof evaluation,
             "  test evaluation    %.1f ms in all (not in the per-epoch time)", s->evaluation_ms);
    const report_units epochs = {"epoch", "parameters", " (training cross-entropy)", 3, per_batch,
                                 evaluation};
    report_summary_in(&b->run, r, &epochs);
}

static int write_model_csv(const void *model, const session *b, const char *path, char *err,
                           size_t err_size)
{
    (void)b;
    return write_csv(((const mlp_model_state *)model)->session, path, err, err_size);
}

int mlp_session_finish(mlp_session *s, const float *params)
{
    double *a1 = malloc((size_t)s->layout.hidden * sizeof *a1);
    if (!a1) fatal(1, "out of host memory for the predictions");
    mlp_model_state state = {s, params, a1};
    const session_model mlp = {
        .step = "epoch",
        .step_at = "in epoch",
        .parameters = "parameters",
        .steps = s->epochs,
        .values = params,
        .count = s->layout.count,
        .model = &state,
        .evaluate = evaluate,
        .summary = summary,
        .write_csv = write_model_csv,
        .predict = predict,
    };
    int status = session_finish_model(&s->base, &mlp);
    free(a1);
    return status;
}

void mlp_session_end(mlp_session *s)
{
    free(s->test_loss);
    free(s->test_accuracy);
    session_end(&s->base);
    memset(s, 0, sizeof *s);
}
