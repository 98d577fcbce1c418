/* The device the CPU executor stands for: its limits per block and per CU,
 * written once and read by the executor (the launch's checks,
 * hipGetDeviceProperties, the occupancy calls, the dynamic shared memory
 * area), by its tracer (tracer/trace_internal.h) and by the settings table
 * (HIPCPU_COMPUTE_UNITS's default). At wave 64 the device is a gfx906
 * (Radeon Pro VII, MI50), at wave 32 an H100 SXM; model/devices.tsv cites
 * the per-CU figures. Not for kernel code. */
#ifndef HIPCPU_DEVICE_LIMITS_H
#define HIPCPU_DEVICE_LIMITS_H

#include "wave_size.h"

#include <stddef.h>

namespace hipcpu_limits {

/* ---- Per block: HIP's and CUDA's limits, the same on both devices ----------- */

constexpr unsigned kWave = HIPCPU_WAVE_SIZE;
constexpr unsigned kMaxThreads = 1024; /* per block */
constexpr unsigned kMaxWaves = kMaxThreads / kWave;
constexpr unsigned kMaxBlockDimX = 1024, kMaxBlockDimY = 1024, kMaxBlockDimZ = 64;
constexpr unsigned kMaxGridDimX = 0x7FFFFFFFu, kMaxGridDimY = 65535, kMaxGridDimZ = 65535;
/* Shared memory a block may use: one gfx906 CU's LDS. The dynamic shared
 * memory area (HIP_DYNAMIC_SHARED) is this large, and a launch may ask for
 * what the static __shared__ variables leave of it. */
constexpr size_t kLdsBytes = 65536;
constexpr int kRegistersPerBlock = 65536;
constexpr size_t kConstantBytes = 65536;

/* ---- Per CU: the modelled device ----------------------------------------------- */

/* The CUs the executor reports: at wave 64 gfx906's 60, at wave 32 an H100
 * SXM's 132 SMs, so that a grid sized from the device (multiProcessorCount x
 * blocks per CU) is the grid that device gets, and the trace counts what it
 * would do. HIPCPU_COMPUTE_UNITS sets another count. Blocks still run one at
 * a time. */
constexpr unsigned kComputeUnits = kWave == 64 ? 60 : 132;

/* The modelled device's limits per CU (common/model/devices.tsv): at wave
 * 64 gfx906's 40 waves (10 per SIMD), 16 blocks (40 of one wave) and 64 KiB of
 * LDS; at wave 32 an H100 SM's 64 warps, 32 blocks and 228 KiB of shared
 * memory, 1 KiB of it reserved per block. Registers are not counted: the
 * executor does not know them. */
constexpr int kWavesPerCu = kWave == 64 ? 40 : 64;
constexpr int kBlocksPerCu = kWave == 64 ? 16 : 32, kOneWaveBlocksPerCu = kWave == 64 ? 40 : 32;
constexpr size_t kLdsPerCu = kWave == 64 ? 65536 : 233472, kLdsReservedPerBlock = kWave == 64 ? 0 : 1024;
/* The L2 (model/devices.tsv's l2_bytes): gfx906's 4 MiB, an H100 SXM's 50 MB. */
constexpr int kL2Bytes = kWave == 64 ? 4 << 20 : 50 << 20;

} /* namespace hipcpu_limits */

#endif
