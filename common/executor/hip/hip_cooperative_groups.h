/* hip/hip_cooperative_groups.h for the CPU platform: the block and its tiles.
 *
 * this_thread_block(), tiled_partition (fixed and run-time sizes),
 * thread_group, thread_block_tile's shuffles and votes, sync(). A group's
 * sync() is the block's barrier here, for a tile too: every thread of the
 * block must reach it the same number of times (as in a tiled reduction);
 * the trace counts it under barriers, and the race check sees it as one.
 * Grid-wide sync (this_grid(), grid_group) is not supported: the executor
 * runs one block at a time, so no block can wait for another; the front end
 * (common/executor/front/) names it in one line. */
#ifndef HIPCPU_HIP_COOPERATIVE_GROUPS_H
#define HIPCPU_HIP_COOPERATIVE_GROUPS_H

#include <hip/hip_runtime.h> /* the executor's (hip/ beside this file): CPU platform only */

namespace cooperative_groups {

inline unsigned hipcpu_block_rank() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* Any group: the whole block (tile 0) or tiles of `tile` threads. */
class thread_group {
  public:
    explicit thread_group(unsigned tile = 0) : tile_(tile) {}
    unsigned size() const { return tile_ ? tile_ : blockDim.x * blockDim.y * blockDim.z; }
    unsigned num_threads() const { return size(); }
    unsigned thread_rank() const { return tile_ ? hipcpu_block_rank() % tile_ : hipcpu_block_rank(); }
    bool is_valid() const { return true; }
    void sync() const { __syncthreads(); }

  protected:
    unsigned tile_;
};

class thread_block : public thread_group {
  public:
    thread_block() : thread_group(0) {}
    dim3 group_index() const { return blockIdx; }
    dim3 thread_index() const { return threadIdx; }
    dim3 group_dim() const { return blockDim; }
    dim3 dim_threads() const { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }

template <unsigned Size> class thread_block_tile : public thread_group {
    static_assert(Size > 0 && (Size & (Size - 1)) == 0, "a tile's size is a power of two");

  public:
    thread_block_tile() : thread_group(Size) {}
    unsigned meta_group_rank() const { return hipcpu_block_rank() / Size; }
    unsigned meta_group_size() const { return (blockDim.x * blockDim.y * blockDim.z + Size - 1) / Size; }
    template <typename T> T shfl(T v, int lane) const { return __shfl(v, lane, int(Size)); }
    template <typename T> T shfl_down(T v, unsigned delta) const { return __shfl_down(v, delta, int(Size)); }
    template <typename T> T shfl_up(T v, unsigned delta) const { return __shfl_up(v, delta, int(Size)); }
    template <typename T> T shfl_xor(T v, int mask) const { return __shfl_xor(v, mask, int(Size)); }
    /* Votes over the tile's own lanes: the wave's ballot, this tile's bits. */
    unsigned long long ballot(int p) const {
        const unsigned long long mask = Size >= 64 ? ~0ull : (1ull << Size) - 1;
        return Size >= unsigned(warpSize) ? __ballot(p) : __ballot(p) >> (__lane_id() / Size * Size) & mask;
    }
    int any(int p) const { return ballot(p) != 0; }
    int all(int p) const { return __popcll(ballot(p)) == int(Size < unsigned(warpSize) ? Size : warpSize); }
};

template <unsigned Size, typename Parent> inline thread_block_tile<Size> tiled_partition(const Parent &) {
    return thread_block_tile<Size>();
}
inline thread_group tiled_partition(const thread_group &, unsigned size) { return thread_group(size); }

template <typename Group> inline void sync(const Group &g) { g.sync(); }
template <typename Group> inline unsigned group_size(const Group &g) { return g.size(); }
template <typename Group> inline unsigned thread_rank(const Group &g) { return g.thread_rank(); }

} /* namespace cooperative_groups */

#endif
