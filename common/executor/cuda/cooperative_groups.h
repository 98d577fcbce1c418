/* cooperative_groups.h for a CUDA program of one's own: HIP's cooperative
 * groups (on the executor, the block and its tiles: hip/hip_cooperative_groups.h
 * says what a tile's sync() is there), with CUDA's reduce. */
#ifndef HIPCPU_CUDA_COOPERATIVE_GROUPS_H
#define HIPCPU_CUDA_COOPERATIVE_GROUPS_H
#include "cuda_runtime.h"
#include <hip/hip_cooperative_groups.h>
#include "cooperative_groups/reduce.h"
#endif
