/* session_finish, the end of a linear model's run (linear_session.c): the
 * session's common steps (session.h) for W. Chapter 00 and the linear
 * model's harness file (linear/gpu_trainer.hip) include this header; the
 * MLP's session has its own finish (mlp/mlp_session.h). */
#ifndef COMMON_LINEAR_SESSION_H
#define COMMON_LINEAR_SESSION_H

#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* session_finish_model for the linear model: W after the iterations. Returns
 * the process exit status, as session_finish_model does. */
int session_finish(session *s, const float *final_weights);

#ifdef __cplusplus
}
#endif

#endif
