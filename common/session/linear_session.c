/* session_finish: the end of a linear model's run (chapters 00-08), that is
 * session_finish_model (session.c) with the linear model's hooks, on its
 * host-side code (linear/model.h, the layer below this one). */
#include "model.h"
#include "linear_session.h"

static int evaluate(const void *model, const session *s, report_result *r)
{
    const float *w = (const float *)model;
    r->train_accuracy = model_accuracy(w, &s->data.train);
    r->test_accuracy = model_accuracy(w, &s->data.test);
    r->final_loss = model_loss(w, &s->data.train);
    return 0;
}

static void summary(const void *model, const session *s, const report_result *r)
{
    (void)model;
    report_summary(&s->run, r);
}

static int write_csv(const void *model, const session *s, const char *path, char *err,
                     size_t err_size)
{
    (void)model;
    return report_write_csv(path, s->loss, s->train_accuracy, s->opts.iterations, err, err_size);
}

static int predict(const void *model, const uint8_t *image)
{
    return model_predict((const float *)model, image);
}

int session_finish(session *s, const float *w)
{
    const session_model linear = {
        .step = "iteration",
        .step_at = "at iteration",
        .parameters = "weights",
        .steps = s->opts.iterations,
        .values = w,
        .count = MODEL_WEIGHTS,
        .model = w,
        .evaluate = evaluate,
        .summary = summary,
        .write_csv = write_csv,
        .predict = predict,
    };
    return session_finish_model(s, &linear);
}
