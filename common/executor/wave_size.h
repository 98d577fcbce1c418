/* The executor's wave size, fixed at compile time (-DHIPCPU_WAVE_SIZE=64 or
 * 32; 64 by default, as gfx906): what hip/hip_runtime.h and device_limits.h
 * both read, so that neither needs the other for it. */
#ifndef HIPCPU_WAVE_SIZE_H
#define HIPCPU_WAVE_SIZE_H

#ifndef HIPCPU_WAVE_SIZE
#define HIPCPU_WAVE_SIZE 64
#endif
#if HIPCPU_WAVE_SIZE != 64 && HIPCPU_WAVE_SIZE != 32
#error "HIPCPU_WAVE_SIZE must be 64 or 32"
#endif

#endif
