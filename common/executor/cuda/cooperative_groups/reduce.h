/* cooperative_groups/reduce.h: cg::reduce(tile, value, op) over a tile's
 * lanes, a butterfly of shfl_xor (every lane gets the result), and CUDA's
 * operators plus, less, greater, bit_and, bit_or, bit_xor. */
#ifndef HIPCPU_CUDA_CG_REDUCE_H
#define HIPCPU_CUDA_CG_REDUCE_H
#include <hip/hip_cooperative_groups.h>

namespace cooperative_groups {

template <typename T> struct plus {
    __device__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct less {
    __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};
template <typename T> struct greater {
    __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};
template <typename T> struct bit_and {
    __device__ T operator()(T a, T b) const { return a & b; }
};
template <typename T> struct bit_or {
    __device__ T operator()(T a, T b) const { return a | b; }
};
template <typename T> struct bit_xor {
    __device__ T operator()(T a, T b) const { return a ^ b; }
};

template <typename Tile, typename T, typename Op> __device__ inline T reduce(const Tile &tile, T value, Op op) {
    for (unsigned offset = tile.size() / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, offset));
    return value;
}

} /* namespace cooperative_groups */

#endif
