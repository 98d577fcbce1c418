/* Chapter 09's CPU reference trainer: the MLP of common/mlp/mlp_model.h trained
 * by common/mlp/mlp_reference.c in plain C, one thread, with the same command
 * line, output and files as the chapter. The chapter check compares the
 * kernels' parameters with this program's. */
#include <stdio.h>
#include <stdlib.h>

#include "errors.h"
#include "mlp_reference.h"
#include "mlp_session.h"
#include "timing.h"

int main(int argc, char **argv)
{
    mlp_session s;
    mlp_session_begin(&s, argc, argv, "09-hidden-layer-reference", "cpu");
    mlp_session_start(&s, "host CPU, plain C, one thread");
    if (s.base.opts.check)
        printf("--check: this is chapter 09's CPU reference, which the chapter's --check\n"
               "  compares with, so there is nothing to compare it against (tests/test_mlp.c\n"
               "  checks its gradient against finite differences)\n");

    const mnist_set *train = &s.base.data.train;
    float *params = malloc(s.layout.count * sizeof *params);
    int *order = malloc((size_t)train->count * sizeof *order);
    mlp_reference r;
    if (!params || !order || mlp_reference_init(&r, s.layout.hidden) != 0)
        fatal(1, "out of host memory for the parameters");
    mlp_init_params(&s.layout, params);

    for (int e = 0; e < s.epochs; e++) {
        mlp_shuffle(order, train->count, e);
        double start = timing_now_ms(), loss_sum = 0.0;
        long correct = 0;
        for (int b = 0; b < s.batches; b++)
            loss_sum += mlp_reference_step(&r, params, s.base.opts.learning_rate, train->images,
                                           train->labels, order, b * s.batch,
                                           mlp_batch_count(&s, b), &correct);
        s.base.iteration_ms[e] = timing_now_ms() - start;
        s.base.loss[e] = (float)(loss_sum / train->count);
        s.base.train_accuracy[e] = (float)((double)correct / train->count);

        start = timing_now_ms();
        double accuracy, loss;
        if (mlp_evaluate(&s.layout, params, &s.base.data.test, &accuracy, &loss) != 0)
            fatal(1, "out of host memory for the evaluation");
        s.test_accuracy[e] = (float)accuracy;
        s.test_loss[e] = (float)loss;
        s.evaluation_ms += timing_now_ms() - start;
        mlp_session_epoch(&s, e);
    }

    int status = mlp_session_finish(&s, params);
    mlp_reference_free(&r);
    free(order);
    free(params);
    mlp_session_end(&s);
    return status;
}
