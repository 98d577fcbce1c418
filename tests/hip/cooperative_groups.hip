// Cooperative groups: the block and its tiles of 16, each summed through
// shared memory with the group's sync(), launched with
// hipLaunchCooperativeKernel.
#include "check.h" /* hip_runtime.h first: ROCm's cooperative groups header needs it */

#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ int group_sum(cg::thread_group g, int *scratch, int value) {
    unsigned rank = g.thread_rank();
    for (unsigned half = g.size() / 2; half > 0; half /= 2) {
        scratch[rank] = value;
        g.sync();
        if (rank < half) value += scratch[rank + half];
        g.sync();
    }
    return value;
}

template <unsigned TILE> __global__ void sums(const int *in, int *block_sum, int *tile_sums) {
    __shared__ int scratch[256];
    cg::thread_block block = cg::this_thread_block();
    unsigned t = block.thread_rank();
    int total = group_sum(block, scratch, in[t]);
    if (t == 0) *block_sum = total;
    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
    unsigned base = t - tile.thread_rank();
    int part = group_sum(tile, scratch + base, in[t]);
    if (tile.thread_rank() == 0) tile_sums[t / TILE] = part;
}

int main(void) {
    const int threads = 256, tile = 16;
    int host[256], block_sum = 0, tile_sums[16];
    for (int i = 0; i < threads; i++) host[i] = i;
    int *d_in = nullptr, *d_block = nullptr, *d_tiles = nullptr;
    HIP_CHECK(hipMalloc(&d_in, sizeof host));
    HIP_CHECK(hipMalloc(&d_block, sizeof(int)));
    HIP_CHECK(hipMalloc(&d_tiles, sizeof tile_sums));
    HIP_CHECK(hipMemcpy(d_in, host, sizeof host, hipMemcpyHostToDevice));
    void *args[] = {&d_in, &d_block, &d_tiles};
    HIP_CHECK(hipLaunchCooperativeKernel(sums<tile>, dim3(1), dim3(threads), args, 0, hipStreamDefault));
    HIP_CHECK(hipMemcpy(&block_sum, d_block, sizeof(int), hipMemcpyDeviceToHost));
    HIP_CHECK(hipMemcpy(tile_sums, d_tiles, sizeof tile_sums, hipMemcpyDeviceToHost));
    if (block_sum != threads * (threads - 1) / 2) {
        fprintf(stderr, "cooperative_groups: the block sums to %d\n", block_sum);
        return 1;
    }
    for (int k = 0; k < threads / tile; k++) {
        int want = 0;
        for (int i = 0; i < tile; i++) want += k * tile + i;
        if (tile_sums[k] != want) {
            fprintf(stderr, "cooperative_groups: tile %d sums to %d, not %d\n", k, tile_sums[k], want);
            return 1;
        }
    }
    printf("cooperative_groups: the block and its %d tiles summed\n", threads / tile);
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_block));
    HIP_CHECK(hipFree(d_tiles));
    return 0;
}
