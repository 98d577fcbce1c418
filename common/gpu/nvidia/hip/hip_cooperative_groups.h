/* HIP's cooperative groups header, on CUDA: the same namespace and names. The
 * vote macros of hip_runtime.h are lifted while libcu++ (which cooperative
 * groups include) declares a name __any of its own, and put back after. */
#ifndef TUTORIAL_HIP_COOPERATIVE_GROUPS_ON_CUDA_H
#define TUTORIAL_HIP_COOPERATIVE_GROUPS_ON_CUDA_H
#pragma push_macro("__any")
#pragma push_macro("__all")
#undef __any
#undef __all
#include <cooperative_groups.h>
#pragma pop_macro("__any")
#pragma pop_macro("__all")
#endif
