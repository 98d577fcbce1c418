// Cooperative groups as CUDA spells them: a block cut into warp tiles of 32
// (thread_block_tile<32>), each summed by cg::reduce, the tile's sum kept by
// its meta_group_rank(), and the block's by a second reduce over those.
#include "check.cuh"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void tile_sums(const int *in, int *tile_out, int *block_out) {
    __shared__ int per_tile[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int value = in[blockIdx.x * blockDim.x + block.thread_rank()];
    int sum = cg::reduce(tile, value, cg::plus<int>());
    if (tile.thread_rank() == 0) {
        per_tile[tile.meta_group_rank()] = sum;
        tile_out[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = sum;
    }
    block.sync();
    if (tile.meta_group_rank() == 0) {
        int part = tile.thread_rank() < tile.meta_group_size() ? per_tile[tile.thread_rank()] : 0;
        int largest = cg::reduce(tile, part, cg::greater<int>());
        part = cg::reduce(tile, part, cg::plus<int>());
        if (tile.thread_rank() == 0) block_out[2 * blockIdx.x] = part, block_out[2 * blockIdx.x + 1] = largest;
    }
}

int main(void) {
    const int blocks = 3, threads = 256, n = blocks * threads, tiles = n / 32;
    int host[n], tile_result[tiles], block_result[2 * blocks];
    for (int i = 0; i < n; i++) host[i] = i;
    int *d_in, *d_tiles, *d_blocks;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof host));
    CUDA_CHECK(cudaMalloc(&d_tiles, sizeof tile_result));
    CUDA_CHECK(cudaMalloc(&d_blocks, sizeof block_result));
    CUDA_CHECK(cudaMemcpy(d_in, host, sizeof host, cudaMemcpyHostToDevice));
    tile_sums<<<blocks, threads>>>(d_in, d_tiles, d_blocks);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(tile_result, d_tiles, sizeof tile_result, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(block_result, d_blocks, sizeof block_result, cudaMemcpyDeviceToHost));
    for (int t = 0; t < tiles; t++) {
        int want = 32 * 32 * t + 31 * 32 / 2;
        if (tile_result[t] != want) {
            fprintf(stderr, "cg_reduce: tile %d sums to %d, not %d\n", t, tile_result[t], want);
            return 1;
        }
    }
    for (int b = 0; b < blocks; b++) {
        int want = 0, largest = tile_result[(b + 1) * threads / 32 - 1];
        for (int i = b * threads; i < (b + 1) * threads; i++) want += i;
        if (block_result[2 * b] != want || block_result[2 * b + 1] != largest) {
            fprintf(stderr, "cg_reduce: block %d: sum %d (want %d), largest tile %d (want %d)\n", b, block_result[2 * b],
                    want, block_result[2 * b + 1], largest);
            return 1;
        }
    }
    printf("cg_reduce: %d tiles and %d blocks reduced\n", tiles, blocks);
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_tiles));
    CUDA_CHECK(cudaFree(d_blocks));
    return 0;
}
