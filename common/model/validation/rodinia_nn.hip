// Rodinia 3.1 (CUDA), application nn (nearest neighbour over hurricane
// records): its kernel euclid, one thread per record, the Euclidean distance
// from the record's (latitude, longitude) to the target point. The host then
// picks the k smallest distances on the CPU (findLowest), which is kept here
// outside the timed part as the program's output.
//
// Source read: github.com/yuhc/gpu-rodinia (a mirror of Rodinia 3.1, University
// of Virginia; LICENSE: the suite's BSD-style licence), commit
// 9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4, files cuda/nn/nn_cuda.cu,
// cuda/nn/hurricane_gen.c, cuda/nn/gen_dataset.sh, cuda/nn/run. Written here
// from that reading; no code copied.
//
// Kept: the LatLong record of two floats read through a pointer to it, the
// float distance array, blocks of min(maxThreadsPerBlock, 256) threads over
// ceil(n / 256) blocks arranged as the original does (gridY =
// ceil(blocks / maxGridSize[0]), gridX = ceil(blocks / gridY), from the
// device's properties: one row of blocks on an H200 and on the executor),
// the flattened index blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) +
// threadIdx.x, the bounds test, (float)sqrt of the float expression, the run
// script's target lat 30, lng 90 and 5 results.
//
// Changed: the suite reads text records made by hurricane_gen (latitude 7-70
// and longitude 0-358, printed with one decimal, parsed back by atof); here
// each record's latitude and longitude are drawn the same way from an integer
// hash and rounded to one decimal, with no text files. The original's check of
// free device memory (cudaMemGetInfo) is left out.
//
// Sizes: the run script reads filelist_4 (4 files of 10,691 records, 42,764 in
// all: 168 blocks, under the H200's launch overhead); gen_dataset.sh's largest
// set is 2,048 files of 10,691 records. The validation size is that set,
// 21,895,168 records (85,528 blocks of 256; 263 MB read and written).
// --small: 1,000 records (4 blocks, the last partly idle).
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_THREADS_PER_BLOCK 256

#define HIP_CHECK(call)                                                                            \
    do {                                                                                           \
        hipError_t e_ = (call);                                                                    \
        if (e_ != hipSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

struct LatLong {
    float lat;
    float lng;
};

__global__ void euclid(LatLong *d_locations, float *d_distances, int numRecords, float lat, float lng) {
    const int id = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    LatLong *rec = d_locations + id;
    if (id < numRecords) {
        float *out = d_distances + id;
        *out = (float)sqrt((lat - rec->lat) * (lat - rec->lat) + (lng - rec->lng) * (lng - rec->lng));
    }
}

static unsigned mix32(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

int main(int argc, char **argv) {
    bool small = false, check = false;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--small"))
            small = true;
        else if (!strcmp(argv[a], "--check"))
            check = true;
        else {
            fprintf(stderr, "usage: %s [--small] [--check]\n", argv[0]);
            return 2;
        }
    }
    const int numRecords = small ? 1000 : 2048 * 10691;
    const float lat = 30.0f, lng = 90.0f;
    const int resultsCount = 5;

    LatLong *locations = (LatLong *)malloc(sizeof(LatLong) * (size_t)numRecords);
    for (int i = 0; i < numRecords; i++) {
        // hurricane_gen's ranges, to one decimal as its text files hold them
        const unsigned h1 = mix32(4u * i), h2 = mix32(4u * i + 1u);
        const unsigned h3 = mix32(4u * i + 2u), h4 = mix32(4u * i + 3u);
        locations[i].lat = (float)((7 + h1 % 63) * 10 + h2 % 10) / 10.0f;
        locations[i].lng = (float)((h3 % 358) * 10 + h4 % 10) / 10.0f;
    }

    hipDeviceProp_t prop;
    HIP_CHECK(hipGetDeviceProperties(&prop, 0));
    const unsigned long maxGridX = prop.maxGridSize[0];
    const unsigned long threadsPerBlock = prop.maxThreadsPerBlock < DEFAULT_THREADS_PER_BLOCK
                                              ? prop.maxThreadsPerBlock
                                              : DEFAULT_THREADS_PER_BLOCK;
    const unsigned long blocks = (numRecords + threadsPerBlock - 1) / threadsPerBlock;
    const unsigned long gridY = (blocks + maxGridX - 1) / maxGridX;
    const unsigned long gridX = (blocks + gridY - 1) / gridY;
    const dim3 grid((unsigned)gridX, (unsigned)gridY);

    float *distances = (float *)malloc(sizeof(float) * (size_t)numRecords);
    LatLong *d_locations = nullptr;
    float *d_distances = nullptr;
    HIP_CHECK(hipMalloc(&d_locations, sizeof(LatLong) * (size_t)numRecords));
    HIP_CHECK(hipMalloc(&d_distances, sizeof(float) * (size_t)numRecords));
    HIP_CHECK(hipMemcpy(d_locations, locations, sizeof(LatLong) * (size_t)numRecords, hipMemcpyHostToDevice));

    euclid<<<grid, (unsigned)threadsPerBlock>>>(d_locations, d_distances, numRecords, lat, lng);
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipDeviceSynchronize());
    HIP_CHECK(hipMemcpy(distances, d_distances, sizeof(float) * (size_t)numRecords, hipMemcpyDeviceToHost));

    // the host's share: the resultsCount nearest records (a partial selection)
    int nearest[resultsCount];
    for (int r = 0; r < resultsCount; r++) {
        int best = -1;
        for (int i = 0; i < numRecords; i++) {
            bool taken = false;
            for (int q = 0; q < r; q++) taken |= nearest[q] == i;
            if (!taken && (best < 0 || distances[i] < distances[best])) best = i;
        }
        nearest[r] = best;
    }
    printf("rodinia_nn: %d records, %lu x %lu blocks of %lu; nearest to (%.1f, %.1f): (%.1f, %.1f) at %.4f\n",
           numRecords, gridX, gridY, threadsPerBlock, lat, lng, locations[nearest[0]].lat,
           locations[nearest[0]].lng, distances[nearest[0]]);

    int failed = 0;
    if (check) {
        double err = 0;
        for (int i = 0; i < numRecords; i++) {
            const double dy = (double)lat - locations[i].lat, dx = (double)lng - locations[i].lng;
            const double ref = sqrt(dy * dy + dx * dx);
            const double d = fabs(distances[i] - ref) / (ref > 1 ? ref : 1);
            if (!(d <= err)) err = d;
        }
        const bool ok = err <= 1e-6;
        printf("check euclid: max error %.3g (%s)\n", err, ok ? "ok" : "FAILED");
        failed = !ok;
    }

    HIP_CHECK(hipFree(d_locations));
    HIP_CHECK(hipFree(d_distances));
    free(locations);
    free(distances);
    return failed ? 1 : 0;
}
