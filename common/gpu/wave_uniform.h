/* WAVE_UNIFORM(v): v, which the caller knows is the same in every lane of a
 * wave, told to the compiler as such. Chapter 08 uses it: on gfx9 (gfx906,
 * and the CDNA parts gfx908 and gfx90a, which share its wave64 and scalar
 * unit) readfirstlane puts the value in an SGPR, so that what is indexed by
 * it (W at a uniform feature) comes through scalar loads. readfirstlane
 * takes lane 0's value on trust; the CPU executor checks the claim in every
 * lane instead. Elsewhere, and when TILE_IMAGES (the caller's) is not whole
 * waves, the plain value: the same results. */
#ifndef COMMON_WAVE_UNIFORM_H
#define COMMON_WAVE_UNIFORM_H

/* the executor's on the CPU platform, the NVIDIA mapping under nvcc, ROCm's under hipcc */
#include <hip/hip_runtime.h>

#include "gpu_runtime.h" /* WAVE_SIZE */

#if defined(WAVE_UNIFORM_UNSURE)
#define WAVE_UNIFORM(v) (v)
#elif defined(__gfx906__) || defined(__gfx908__) || defined(__gfx90a__)
#define WAVE_UNIFORM(v) __builtin_amdgcn_readfirstlane(v)
#elif defined(__HIPCPU__)
#define WAVE_UNIFORM(v) hipcpu_wave_uniform(v)
#else
#define WAVE_UNIFORM(v) (v)
#endif

#endif
