/* device_launch_parameters.h: threadIdx and the rest come with cuda_runtime.h. */
#include "cuda_runtime.h"
