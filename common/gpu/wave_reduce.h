/* Sums over the lanes of a wave, with shuffles: taught in chapter 06
 * (wave_sum, wave_count), which defines them in its own train.hip as its
 * lesson; wave_allsum (the butterfly) and block_add_records, which a fused
 * kernel needs for its loss, are chapter 07's. Chapters 07 to 09 include
 * this header. WAVE_SIZE is the build's (gpu_runtime.h): the steps
 * are WAVE_SIZE/2, ..., 2, 1 at wave 64 and at wave 32. Every lane of the
 * wave must call them (no lane may have returned early). */
#ifndef COMMON_WAVE_REDUCE_H
#define COMMON_WAVE_REDUCE_H

/* the executor's on the CPU platform, the NVIDIA mapping under nvcc, ROCm's under hipcc */
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

/* A block's loss and hits added into the iteration's records: each wave's
 * sums with shuffles, the waves' through LDS (one slot per wave in wave_loss
 * and wave_hits), then one atomic each from thread 0. It has a barrier:
 * every thread of the block must call it. */
static inline __device__ void block_add_records(float squared, unsigned int hits,
                                                float *wave_loss, unsigned int *wave_hits,
                                                float *loss_sum, unsigned int *correct)
{
    int lane = threadIdx.x % WAVE_SIZE, wave = threadIdx.x / WAVE_SIZE;
    squared = wave_sum(squared);
    hits = wave_count(hits);
    if (lane == 0) {
        wave_loss[wave] = squared;
        wave_hits[wave] = hits;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        float block_loss = 0.0f;
        unsigned int block_hits = 0;
        for (int w = 0; w < (int)(blockDim.x / WAVE_SIZE); w++) {
            block_loss += wave_loss[w];
            block_hits += wave_hits[w];
        }
        atomicAdd(loss_sum, block_loss);
        atomicAdd(correct, block_hits);
    }
}

#endif
