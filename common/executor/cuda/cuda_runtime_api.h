/* cuda_runtime_api.h: the runtime API, as cuda_runtime.h maps it (the driver API, cu*, is not supported). */
#include "cuda_runtime.h"
