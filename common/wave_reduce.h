/* Sums over the lanes of a wave, with shuffles: taught in chapter 06
 * (wave_sum, wave_count), which defines them in its own train.hip as its
 * lesson; wave_allsum, the butterfly, is chapter 07's. Chapters 07 to 09
 * include this header. WAVE_SIZE is the build's (gpu_runtime.h): the steps
 * are WAVE_SIZE/2, ..., 2, 1 at wave 64 and at wave 32. Every lane of the
 * wave must call them (no lane may have returned early). */
#ifndef COMMON_WAVE_REDUCE_H
#define COMMON_WAVE_REDUCE_H

#include <hip/hip_runtime.h>

#include "gpu_runtime.h" /* WAVE_SIZE */

/* The sum of v over the lanes of a wave, in lane 0. Each step adds the value
 * `offset` lanes up: after the steps WAVE_SIZE/2, ..., 2, 1, lane 0 holds the
 * whole wave's sum (the other lanes hold partial sums, unused). */
static inline __device__ float wave_sum(float v)
{
    for (int offset = WAVE_SIZE / 2; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    return v;
}

/* The same for a count. */
static inline __device__ unsigned int wave_count(unsigned int v)
{
    for (int offset = WAVE_SIZE / 2; offset > 0; offset /= 2)
        v += __shfl_down(v, offset);
    return v;
}

/* The sum of v over the lanes of a wave, in every lane: a butterfly. At each
 * step every lane adds the value of the lane `offset` away (its index with
 * one bit flipped), so both lanes of a pair compute the same sum. */
static inline __device__ float wave_allsum(float v)
{
    for (int offset = WAVE_SIZE / 2; offset > 0; offset /= 2)
        v += __shfl_xor(v, offset);
    return v;
}

#endif
