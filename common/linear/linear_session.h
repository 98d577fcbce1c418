/* The linear model's end of a training run (linear_session.c): the
 * session's common steps (common/session/session.h) for W. */
#ifndef COMMON_LINEAR_SESSION_H
#define COMMON_LINEAR_SESSION_H

#include "session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* session_finish_model for the linear model: W after the iterations. */
int session_finish(session *s, const float *final_weights);

#ifdef __cplusplus
}
#endif

#endif
