// Warp votes: __ballot_sync, __any_sync, __all_sync and __activemask, each
// warp of 32 voting on whether its lanes' values are odd; clock64() brackets
// the votes (it must not run backwards).
#include "check.cuh"

__global__ void vote(const int *values, unsigned *ballots, int *any, int *all, unsigned *active) {
    long long start = clock64();
    int i = blockIdx.x * blockDim.x + threadIdx.x, warp = i / 32;
    unsigned mask = __activemask();
    int odd = values[i] & 1;
    unsigned ballot = __ballot_sync(mask, odd);
    int some = __any_sync(mask, odd), every = __all_sync(mask, odd);
    if (threadIdx.x % 32 == 0) {
        ballots[warp] = ballot;
        any[warp] = some;
        all[warp] = every;
        active[warp] = clock64() >= start ? mask : 0u;
    }
}

int main(void) {
    const int warps = 4, n = warps * 32;
    int values[n];
    for (int i = 0; i < n; i++) values[i] = i < 32 ? 2 * i : i < 64 ? 2 * i + 1 : i < 96 ? i : 2 * i + (i == 100);
    int *d_values, *d_any, *d_all, any[warps], all[warps];
    unsigned *d_ballots, *d_active, ballots[warps], active[warps];
    CUDA_CHECK(cudaMalloc(&d_values, sizeof values));
    CUDA_CHECK(cudaMalloc(&d_ballots, sizeof ballots));
    CUDA_CHECK(cudaMalloc(&d_any, sizeof any));
    CUDA_CHECK(cudaMalloc(&d_all, sizeof all));
    CUDA_CHECK(cudaMalloc(&d_active, sizeof active));
    CUDA_CHECK(cudaMemcpy(d_values, values, sizeof values, cudaMemcpyHostToDevice));
    vote<<<2, 64>>>(d_values, d_ballots, d_any, d_all, d_active);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(ballots, d_ballots, sizeof ballots, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(any, d_any, sizeof any, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(all, d_all, sizeof all, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(active, d_active, sizeof active, cudaMemcpyDeviceToHost));
    const unsigned want_ballot[warps] = {0u, 0xffffffffu, 0xaaaaaaaau, 1u << 4};
    const int want_any[warps] = {0, 1, 1, 1}, want_all[warps] = {0, 1, 0, 0};
    for (int w = 0; w < warps; w++)
        if (ballots[w] != want_ballot[w] || any[w] != want_any[w] || all[w] != want_all[w] || active[w] != 0xffffffffu) {
            fprintf(stderr, "warp_vote: warp %d: ballot %08x any %d all %d active %08x\n", w, ballots[w], any[w], all[w],
                    active[w]);
            return 1;
        }
    printf("warp_vote: %d warps voted as CUDA's 32 lanes do\n", warps);
    CUDA_CHECK(cudaFree(d_values));
    CUDA_CHECK(cudaFree(d_ballots));
    CUDA_CHECK(cudaFree(d_any));
    CUDA_CHECK(cudaFree(d_all));
    CUDA_CHECK(cudaFree(d_active));
    return 0;
}
