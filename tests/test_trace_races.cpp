/* Tests of the CPU executor's trace build (common/tracer/trace*.cpp):
 * the checks of HIPCPU_RACECHECK=1 (races within a block, races between
 * blocks, plain accesses against atomics in both, races on parts of a word,
 * uninitialised __shared__ reads, the classic block reduction without its
 * barriers), each with its positive control, and the call sites their
 * messages name.
 *
 * Build: make HIP_PLATFORM=cpu TRACE=1 build/trace/tests/test_trace_races (and
 * WAVE=32 for build/trace-wave32/tests/test_trace_races): the Makefile's trace
 * build flags (INSTRUMENT), the ones the chapters get. Run from the
 * repository root with CMOCKA_MESSAGE_OUTPUT=TAP for TAP output.
 *
 * The race check is on for the whole run (main sets it before the first
 * launch): each race, and each positive control, runs in a forked child. */
#include <math.h>
#include <stdint.h>
#include <hip/hip_runtime.h>

#include "tracer/trace.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
extern "C" { /* cmocka 1.1.5's header has no C++ guard */
#include <cmocka.h>
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "executor_helpers.h"

/* A call site as the race check names it: "tests/test_trace_races.cpp:LINE"
 * when run from the repository root, with the directory in front otherwise
 * (the '*' of a pattern: see contains). */
static std::string site(int line) { return std::string("*") + __FILE__ + ":" + std::to_string(line); }

/* ---- Race check: within a block ------------------------------------------------ */

/* Every thread fills its slot, then, in one barrier phase, thread 0 reads
 * thread 1's slot (other = 1) while thread 1 writes it. The index is a
 * parameter so that clang cannot prove the read in bounds: with a constant
 * index it loads the slot in every thread, before the write, and keeps only
 * thread 0's value (the load then has no source line). Keep the two line
 * constants below in step with the lines of the read and the write. */
__global__ void shared_race_kernel(int *out, unsigned other) {
    __shared__ int race_slots[64];
    const unsigned t = threadIdx.x;
    race_slots[t] = int(t);
    __syncthreads();
    int v = 0;
    if (t == 0) v = race_slots[other];
    if (t == 1) race_slots[other] = 7;
    out[t] = v;
}
static const int kSharedRaceRead = __LINE__ - 4, kSharedRaceWrite = __LINE__ - 3;

static bool run_shared_race() {
    int *out = named_alloc<int>(W, "race_out");
    hipLaunchKernelGGL(shared_race_kernel, 1, W, 0, 0, out, 1u);
    return true;
}

/* Two threads of a block store to one global int. */
__global__ void global_race_kernel(int *flag) {
    if (threadIdx.x < 2) flag[0] = int(threadIdx.x);
}
static const int kGlobalRaceStore = __LINE__ - 2;

static bool run_global_race() {
    int *flag = named_alloc<int>(1, "race_flag");
    hipLaunchKernelGGL(global_race_kernel, 1, W, 0, 0, flag);
    return true;
}

static void test_race_within_block(void **) {
    /* Thread 0 ran first (lanes run in order) and read race_slots[1], bytes
     * 4..7; thread 1's store to it is the race. */
    expect_abort(run_shared_race, {"kernel 'shared_race_kernel' block (0,0,0)", "race on __shared__ race_slots",
                                   "byte 4", "thread (0,0,0) read it at " + site(kSharedRaceRead),
                                   "thread (1,0,0) wrote it at " + site(kSharedRaceWrite),
                                   "with no __syncthreads between"});
    expect_abort(run_global_race, {"kernel 'global_race_kernel' block (0,0,0)",
                                   "race on device buffer 'race_flag' (byte 0 of 4)",
                                   "thread (0,0,0) wrote it at " + site(kGlobalRaceStore),
                                   "thread (1,0,0) wrote it at " + site(kGlobalRaceStore)});
}

/* ---- Race check: plain accesses against atomics within a block ------------------ */

/* One barrier phase: thread 0 adds to counter[0] atomically and thread 1
 * reads it; with `sync`, a __syncthreads between orders them: no race. Keep
 * the line constants below each kernel in step with its lines. */
__global__ void atomic_read_kernel(int *counter, int *out, int sync) {
    const unsigned t = threadIdx.x;
    if (t == 0) atomicAdd(counter, 1);
    if (sync) __syncthreads();
    if (t == 1) out[0] = counter[0];
}
static const int kAtomicReadAtomic = __LINE__ - 4, kAtomicReadRead = __LINE__ - 2;

/* The other way round: thread 0 reads counter[0], thread 1 adds to it. */
__global__ void read_atomic_kernel(int *counter, int *out) {
    const unsigned t = threadIdx.x;
    if (t == 0) out[0] = counter[0];
    if (t == 1) atomicAdd(counter, 1);
}
static const int kReadAtomicRead = __LINE__ - 3, kReadAtomicAtomic = __LINE__ - 2;

/* Thread 0 adds to counter[0] atomically, thread 1 stores it. */
__global__ void atomic_store_kernel(int *counter) {
    const unsigned t = threadIdx.x;
    if (t == 0) atomicAdd(counter, 1);
    if (t == 1) counter[0] = 5;
}
static const int kAtomicStoreAtomic = __LINE__ - 3, kAtomicStoreStore = __LINE__ - 2;

static int *zeroed_counter(const char *name) {
    int *counter = named_alloc<int>(1, name);
    HIP_OK(hipMemset(counter, 0, sizeof(int)));
    return counter;
}

static bool run_atomic_read(int sync) {
    int *counter = zeroed_counter("mix_counter"), *out = named_alloc<int>(1, "mix_out");
    hipLaunchKernelGGL(atomic_read_kernel, 1, W, 0, 0, counter, out, sync);
    return hipGetLastError() == hipSuccess && download(out, 1)[0] == 1;
}
static bool run_atomic_then_read() { return run_atomic_read(0); }
static bool run_atomic_barrier_read() { return run_atomic_read(1); }

static bool run_read_then_atomic() {
    int *counter = zeroed_counter("mix_counter"), *out = named_alloc<int>(1, "mix_out");
    hipLaunchKernelGGL(read_atomic_kernel, 1, W, 0, 0, counter, out);
    return true;
}

static bool run_atomic_then_store() {
    hipLaunchKernelGGL(atomic_store_kernel, 1, W, 0, 0, zeroed_counter("mix_counter"));
    return true;
}

static void test_atomic_race_within_block(void **) {
    /* Lanes run in order: thread 0's access is first, thread 1's the race. */
    expect_abort(run_atomic_then_read,
                 {"kernel 'atomic_read_kernel' block (0,0,0)", "race on device buffer 'mix_counter' (byte 0 of 4)",
                  "thread (0,0,0) updated it atomically at " + site(kAtomicReadAtomic),
                  "thread (1,0,0) read it at " + site(kAtomicReadRead), "with no __syncthreads between"});
    expect_abort(run_read_then_atomic,
                 {"kernel 'read_atomic_kernel' block (0,0,0)", "race on device buffer 'mix_counter' (byte 0 of 4)",
                  "thread (0,0,0) read it at " + site(kReadAtomicRead),
                  "thread (1,0,0) updated it atomically at " + site(kReadAtomicAtomic)});
    /* Caught before too, but the atomic was named a read. */
    expect_abort(run_atomic_then_store,
                 {"kernel 'atomic_store_kernel' block (0,0,0)", "race on device buffer 'mix_counter' (byte 0 of 4)",
                  "thread (0,0,0) updated it atomically at " + site(kAtomicStoreAtomic),
                  "thread (1,0,0) wrote it at " + site(kAtomicStoreStore)});
    expect_clean(run_atomic_barrier_read);
}

/* ---- Race check: between blocks ---------------------------------------------- */

/* Block 0 stores cell[0]; block 1 then reads it (mode 0) or stores it
 * (mode 1). Blocks of one launch are not ordered, so either is a race. */
__global__ void block_race_kernel(int *cell, int *out, int mode) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        cell[0] = 1;
    } else if (mode == 0) {
        out[blockIdx.x] = cell[0];
    } else {
        cell[0] = 2;
    }
}
static const int kBlockRaceStore0 = __LINE__ - 7, kBlockRaceRead = __LINE__ - 5, kBlockRaceStore1 = __LINE__ - 3;

static bool run_block_race(int mode) {
    int *cell = named_alloc<int>(1, "block_cell");
    int *out = named_alloc<int>(2, "block_out");
    hipLaunchKernelGGL(block_race_kernel, 2, W, 0, 0, cell, out, mode);
    return true;
}
static bool run_block_race_read() { return run_block_race(0); }
static bool run_block_race_store() { return run_block_race(1); }

/* The positive control: 8 blocks add to one address atomically, and each
 * stores its own element of a second buffer. */
__global__ void block_atomic_kernel(int *total, int *own) {
    atomicAdd(total, 1);
    if (threadIdx.x == 0) own[blockIdx.x] = int(blockIdx.x);
}

static bool run_block_atomics() {
    int *total = named_alloc<int>(1, "atomic_total");
    int *own = named_alloc<int>(8, "own");
    HIP_OK(hipMemset(total, 0, sizeof(int)));
    hipLaunchKernelGGL(block_atomic_kernel, 8, W, 0, 0, total, own);
    return hipGetLastError() == hipSuccess && download(total, 1)[0] == int(8 * W) && download(own, 8)[7] == 7;
}

/* Block 0 zeroes counter[0] (mode 0) or reads it (mode 1) while every
 * other block adds to it atomically, all in one launch. Keep the line
 * constants below in step with the kernel's lines. */
__global__ void block_atomic_mix_kernel(int *counter, int *out, int mode) {
    if (blockIdx.x == 0) {
        if (threadIdx.x == 0 && mode == 0) counter[0] = 0;
        if (threadIdx.x == 0 && mode == 1) out[0] = counter[0];
    } else {
        atomicAdd(counter, 1);
    }
}
static const int kBlockMixStore = __LINE__ - 6, kBlockMixRead = __LINE__ - 5, kBlockMixAtomic = __LINE__ - 3;

static bool run_block_atomic_mix(int mode) {
    int *counter = named_alloc<int>(1, "block_counter");
    int *out = named_alloc<int>(1, "block_mix_out");
    HIP_OK(hipMemset(counter, 0, sizeof(int)));
    hipLaunchKernelGGL(block_atomic_mix_kernel, 4, W, 0, 0, counter, out, mode);
    return true;
}
static bool run_block_store_against_atomics() { return run_block_atomic_mix(0); }
static bool run_block_read_against_atomics() { return run_block_atomic_mix(1); }

/* Atomics against atomics, the patterns the chapters use: in one phase every
 * thread of every block updates one global word (add, max, CAS) and one
 * shared word, which thread 0 zeroed before a barrier; after a barrier,
 * thread 0 reads the shared word and adds it to a global total. */
__global__ void atomics_only_kernel(int *word, int *total) {
    __shared__ int block_count;
    const unsigned t = threadIdx.x;
    if (t == 0) block_count = 0;
    __syncthreads();
    atomicAdd(word, 1);
    atomicMax(word + 1, int(blockIdx.x * blockDim.x + t));
    atomicCAS(word + 2, 0, 1);
    atomicAdd(&block_count, 1);
    __syncthreads();
    if (t == 0) atomicAdd(total, block_count);
}

static bool run_atomics_only() {
    const unsigned blocks = 8;
    int *word = named_alloc<int>(3, "atomic_words");
    int *total = named_alloc<int>(1, "atomic_block_total");
    HIP_OK(hipMemset(word, 0, 3 * sizeof(int)));
    HIP_OK(hipMemset(total, 0, sizeof(int)));
    hipLaunchKernelGGL(atomics_only_kernel, blocks, W, 0, 0, word, total);
    if (hipGetLastError() != hipSuccess) return false;
    const std::vector<int> w = download(word, 3);
    return w[0] == int(blocks * W) && w[1] == int(blocks * W - 1) && w[2] == 1 &&
           download(total, 1)[0] == int(blocks * W);
}

static void test_atomic_race_between_blocks(void **) {
    /* Block 0 runs first; block 1's first atomic is the race. */
    expect_abort(run_block_store_against_atomics,
                 {"kernel 'block_atomic_mix_kernel' block (1,0,0)",
                  "race between blocks on device buffer 'block_counter' (byte 0 of 4)",
                  "block (0,0,0) thread (0,0,0) wrote it at " + site(kBlockMixStore),
                  "thread (0,0,0) of this block updated it atomically at " + site(kBlockMixAtomic)});
    expect_abort(run_block_read_against_atomics,
                 {"kernel 'block_atomic_mix_kernel' block (1,0,0)",
                  "race between blocks on device buffer 'block_counter' (byte 0 of 4)",
                  "block (0,0,0) thread (0,0,0) read it at " + site(kBlockMixRead),
                  "thread (0,0,0) of this block updated it atomically at " + site(kBlockMixAtomic)});
    expect_clean(run_atomics_only);
}

static void test_race_between_blocks(void **) {
    expect_abort(run_block_race_read,
                 {"kernel 'block_race_kernel' block (1,0,0)", "race between blocks on device buffer 'block_cell'",
                  "(byte 0 of 4)", "block (0,0,0) thread (0,0,0) wrote it at " + site(kBlockRaceStore0),
                  "thread (0,0,0) of this block read it at " + site(kBlockRaceRead)});
    expect_abort(run_block_race_store,
                 {"kernel 'block_race_kernel' block (1,0,0)", "race between blocks on device buffer 'block_cell'",
                  "block (0,0,0) thread (0,0,0) wrote it at " + site(kBlockRaceStore0),
                  "thread (0,0,0) of this block wrote it at " + site(kBlockRaceStore1)});
    expect_clean(run_block_atomics);
}

/* ---- Uninitialised shared-memory reads -------------------------------------------- */

/* Thread t reads element t+1 of uninit_tile; only with write_first does
 * every thread write its own element (and wait at a barrier) first. */
__global__ void uninit_kernel(float *out, int write_first) {
    __shared__ float uninit_tile[256];
    const unsigned t = threadIdx.x;
    if (write_first) {
        uninit_tile[t] = float(t);
        __syncthreads();
    }
    out[t] = uninit_tile[(t + 1) % blockDim.x];
}
static const int kUninitRead = __LINE__ - 2;

static bool run_uninit(int write_first) {
    float *out = named_alloc<float>(W, "uninit_out");
    hipLaunchKernelGGL(uninit_kernel, 1, W, 0, 0, out, write_first);
    if (hipGetLastError() != hipSuccess) return false;
    const std::vector<float> result = download(out, W);
    for (unsigned t = 0; t < W; t++)
        if (result[t] != float((t + 1) % W)) return false;
    return true;
}
static bool run_uninit_read() { return run_uninit(0); }
static bool run_uninit_written() { return run_uninit(1); }

/* Block 0 fills the tile; every block then reads it. Shared memory is per
 * block: what block 0 wrote is garbage to block 1. */
__global__ void other_block_kernel(float *out) {
    __shared__ float other_tile[256];
    const unsigned t = threadIdx.x;
    if (blockIdx.x == 0) other_tile[t] = float(t);
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = other_tile[t];
}

static bool run_other_block() {
    float *out = named_alloc<float>(2 * W, "other_out");
    hipLaunchKernelGGL(other_block_kernel, 2, W, 0, 0, out);
    return true;
}

static void test_uninitialised_read(void **) {
    /* Thread 0 runs first and reads element 1 (bytes 4..7): nobody wrote it. */
    expect_abort(run_uninit_read, {"kernel 'uninit_kernel' block (0,0,0)", "uninitialised read of __shared__ uninit_tile",
                                   "byte 4", "thread (0,0,0) read it at " + site(kUninitRead),
                                   "no thread of this block has written it"});
    expect_clean(run_uninit_written);
    /* Block 0 is clean; block 1 reads element 0 written only by block 0. */
    expect_abort(run_other_block, {"kernel 'other_block_kernel' block (1,0,0)",
                                   "uninitialised read of __shared__ other_tile", "byte 0", "thread (0,0,0) read it"});
}

/* ---- Race check: parts of a word, and the blocks behind a stamp ------------------ */

/* The check keeps a record per 4-byte word until an access covers only part
 * of one, which splits it into a record per byte. In one phase, threads 0-7
 * store their own byte of `bytes` (8 bytes, two words: no race), then:
 * mode 1, thread 9 loads word 0 (it races with thread 0's byte 0); mode 2,
 * thread 9 loads 4 bytes from byte 2 (words 0 and 1 in part: thread 2's byte
 * 2). Mode 3: thread 0 loads word 1 whole, before any store, then thread 4
 * stores its byte, 4, which splits the word: each byte's record starts as a
 * copy of the word's, so the race is on byte 4, with thread 0's read. After
 * a barrier thread 0 reads both words: no race. */
__global__ void byte_race_kernel(uint8_t *bytes, unsigned *out, int mode) {
    const unsigned t = threadIdx.x;
    unsigned v = 0;
    if (mode == 3 && t == 0) v = reinterpret_cast<const unsigned *>(bytes)[1];
    if (t < 8) bytes[t] = uint8_t(t);
    if (mode == 1 && t == 9) v = reinterpret_cast<const unsigned *>(bytes)[0];
    if (mode == 2 && t == 9) __builtin_memcpy(&v, bytes + 2, 4);
    __syncthreads();
    if (t == 0) v += reinterpret_cast<const unsigned *>(bytes)[0] + reinterpret_cast<const unsigned *>(bytes)[1];
    out[t] = v;
}
static const int kByteWholeRead = __LINE__ - 8, kByteStore = __LINE__ - 7, kByteWordRead = __LINE__ - 6,
                 kBytePartRead = __LINE__ - 6;

static bool run_byte_race(int mode) {
    uint8_t *bytes = named_alloc<uint8_t>(8, "byte_cells");
    unsigned *out = named_alloc<unsigned>(W, "byte_out");
    hipLaunchKernelGGL(byte_race_kernel, 1, W, 0, 0, bytes, out, mode);
    if (hipGetLastError() != hipSuccess) return false;
    return download(out, 1)[0] == 0x03020100u + 0x07060504u;
}
static bool run_bytes_clean() { return run_byte_race(0); }
static bool run_byte_then_word() { return run_byte_race(1); }
static bool run_byte_then_straddle() { return run_byte_race(2); }
static bool run_word_then_byte() { return run_byte_race(3); }

/* Blocks b = 0..3 each store byte b of one word: different bytes, no race;
 * with `clash`, block 2 stores byte 1 too, which block 1 stored. */
__global__ void block_bytes_kernel(uint8_t *bytes, int clash) {
    if (threadIdx.x != 0) return;
    bytes[blockIdx.x] = uint8_t(blockIdx.x);
    if (clash && blockIdx.x == 2) bytes[1] = 0;
}
static const int kBlockByteStore = __LINE__ - 3, kBlockByteClash = __LINE__ - 2;

static bool run_block_bytes(int clash) {
    uint8_t *bytes = named_alloc<uint8_t>(4, "block_bytes");
    hipLaunchKernelGGL(block_bytes_kernel, 4, W, 0, 0, bytes, clash);
    return hipGetLastError() == hipSuccess && download(bytes, 4)[3] == 3;
}
static bool run_block_bytes_clean() { return run_block_bytes(0); }
static bool run_block_bytes_clash() { return run_block_bytes(1); }

/* A shared word whose first three bytes thread t < 3 stores, read whole
 * after a barrier: byte 3 was never written. */
__global__ void byte_tile_kernel(unsigned *out) {
    __shared__ unsigned byte_tile[1];
    const unsigned t = threadIdx.x;
    if (t < 3) reinterpret_cast<uint8_t *>(byte_tile)[t] = uint8_t(t);
    __syncthreads();
    out[t] = byte_tile[0];
}

static bool run_byte_tile() {
    hipLaunchKernelGGL(byte_tile_kernel, 1, W, 0, 0, named_alloc<unsigned>(W, "byte_tile_out"));
    return true;
}

/* Blocks of a 2x2 grid pass barriers, so that stamps move on; block (1,0)
 * reads cell[0] and, later, block (1,1) stores it (mode 0): the race must
 * name block (1,0,0). Mode 1: only the store, and a second launch's read,
 * which a launch boundary orders: no race. */
__global__ void late_block_kernel(int *cell, int *out, int mode) {
    const bool first = threadIdx.x == 0;
    __syncthreads();
    __syncthreads();
    if (first && mode != 1 && blockIdx.x == 1 && blockIdx.y == 0) out[0] = cell[0];
    __syncthreads();
    if (first && mode != 2 && blockIdx.x == 1 && blockIdx.y == 1) cell[0] = 3;
}
static const int kLateRead = __LINE__ - 4, kLateStore = __LINE__ - 2;

static bool run_late_block(int mode) {
    int *cell = named_alloc<int>(1, "late_cell"), *out = named_alloc<int>(1, "late_out");
    HIP_OK(hipMemset(cell, 0, sizeof(int)));
    hipLaunchKernelGGL(late_block_kernel, dim3(2, 2), W, 0, 0, cell, out, mode);
    if (mode == 1) hipLaunchKernelGGL(late_block_kernel, dim3(2, 2), W, 0, 0, cell, out, 2);
    return hipGetLastError() == hipSuccess && (mode == 0 || download(out, 1)[0] == 3);
}
static bool run_late_block_race() { return run_late_block(0); }
static bool run_late_block_launches() { return run_late_block(1); }

static void test_race_on_part_of_a_word(void **) {
    expect_clean(run_bytes_clean);
    expect_abort(run_byte_then_word, {"kernel 'byte_race_kernel' block (0,0,0)",
                                      "race on device buffer 'byte_cells' (byte 0 of 8)",
                                      "thread (0,0,0) wrote it at " + site(kByteStore),
                                      "thread (9,0,0) read it at " + site(kByteWordRead)});
    expect_abort(run_byte_then_straddle, {"race on device buffer 'byte_cells' (byte 2 of 8)",
                                          "thread (2,0,0) wrote it at " + site(kByteStore),
                                          "thread (9,0,0) read it at " + site(kBytePartRead)});
    expect_abort(run_word_then_byte, {"race on device buffer 'byte_cells' (byte 4 of 8)",
                                      "thread (0,0,0) read it at " + site(kByteWholeRead),
                                      "thread (4,0,0) wrote it at " + site(kByteStore)});
    expect_clean(run_block_bytes_clean);
    expect_abort(run_block_bytes_clash, {"kernel 'block_bytes_kernel' block (2,0,0)",
                                         "race between blocks on device buffer 'block_bytes' (byte 1 of 4)",
                                         "block (1,0,0) thread (0,0,0) wrote it at " + site(kBlockByteStore),
                                         "thread (0,0,0) of this block wrote it at " + site(kBlockByteClash)});
    expect_abort(run_byte_tile, {"kernel 'byte_tile_kernel' block (0,0,0)",
                                 "uninitialised read of __shared__ byte_tile", "byte 3", "thread (0,0,0) read it"});
}

static void test_race_names_the_earlier_block(void **) {
    expect_abort(run_late_block_race, {"kernel 'late_block_kernel' block (1,1,0)",
                                       "race between blocks on device buffer 'late_cell' (byte 0 of 4)",
                                       "block (1,0,0) thread (0,0,0) read it at " + site(kLateRead),
                                       "thread (0,0,0) of this block wrote it at " + site(kLateStore)});
    expect_clean(run_late_block_launches);
}

/* ---- The classic block reduction ------------------------------------------------- */

/* Tree reduction in shared memory, a barrier after every level; with
 * `broken`, the barriers inside the loop are left out (the classic bug). */
__global__ void tree_sum_kernel(float *out, const float *in, int broken) {
    __shared__ float tree_partial[256];
    const unsigned t = threadIdx.x;
    tree_partial[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) tree_partial[t] += tree_partial[t + s];
        if (!broken) __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = tree_partial[0];
}

static bool run_tree_sum(int broken) {
    const unsigned blocks = 4, threads = 256;
    std::vector<float> host(blocks * threads);
    for (size_t i = 0; i < host.size(); i++) host[i] = float(i % 13);
    float *in = upload(host), *out = named_alloc<float>(blocks, "tree_out");
    hipLaunchKernelGGL(tree_sum_kernel, blocks, threads, 0, 0, out, in, broken);
    if (hipGetLastError() != hipSuccess) return false;
    const std::vector<float> result = download(out, blocks);
    for (unsigned b = 0; b < blocks; b++) {
        float expected = 0.0f;
        for (unsigned i = b * threads; i < (b + 1) * threads; i++) expected += host[i];
        if (result[b] != expected) return false;
    }
    return true;
}
static bool run_tree_sum_correct() { return run_tree_sum(0); }
static bool run_tree_sum_broken() { return run_tree_sum(1); }

static void test_block_reduction(void **) {
    expect_clean(run_tree_sum_correct);
    /* Without the loop's barriers, thread 0 reads tree_partial[64] at the
     * second level, which thread 64 writes at the first, in one phase. */
    expect_abort(run_tree_sum_broken, {"kernel 'tree_sum_kernel' block (0,0,0)", "race on __shared__ tree_partial"});
}

int main(void) {
    trace_every_launch();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_race_within_block),
        cmocka_unit_test(test_race_between_blocks),
        cmocka_unit_test(test_atomic_race_within_block),
        cmocka_unit_test(test_atomic_race_between_blocks),
        cmocka_unit_test(test_uninitialised_read),
        cmocka_unit_test(test_race_on_part_of_a_word),
        cmocka_unit_test(test_race_names_the_earlier_block),
        cmocka_unit_test(test_block_reduction),
    };
    return cmocka_run_group_tests_name("trace races (wave " STRINGIFY(HIPCPU_WAVE_SIZE) ")", tests, nullptr, nullptr);
}
