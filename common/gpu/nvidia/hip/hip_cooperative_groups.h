/* HIP's cooperative groups header, on CUDA: the same namespace and names. */
#ifndef TUTORIAL_HIP_COOPERATIVE_GROUPS_ON_CUDA_H
#define TUTORIAL_HIP_COOPERATIVE_GROUPS_ON_CUDA_H
#include <cooperative_groups.h>
#endif
