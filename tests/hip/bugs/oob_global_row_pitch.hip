// A learner's bug: a matrix of rows x cols is indexed with the row length
// and the column count swapped, so the last rows' threads write a kilobyte and
// more past the end of the buffer.
// expect: memcheck oob_global_row_pitch.hip:11 out of bounds, global
#include <hip/hip_runtime.h>

__global__ void set_identity_row(float *matrix, int rows, int cols)
{
    int row = blockIdx.x, col = threadIdx.x;
    if (row < rows && col < cols)
        matrix[row * rows + col] = row == col ? 1.0f : 0.0f; // the bug: the pitch is cols, not rows
}

int main()
{
    const int rows = 32, cols = 8;
    float *matrix;
    if (hipMalloc(&matrix, rows * cols * sizeof(float)) != hipSuccess) return 1;
    hipLaunchKernelGGL(set_identity_row, dim3(rows), dim3(cols), 0, 0, matrix, rows, cols);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    return hipFree(matrix) != hipSuccess;
}
