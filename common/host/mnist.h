/* MNIST (or any dataset in the same four IDX files) on top of the IDX loader. */
#ifndef COMMON_MNIST_H
#define COMMON_MNIST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MNIST_TRAIN_IMAGES "train-images-idx3-ubyte"
#define MNIST_TRAIN_LABELS "train-labels-idx1-ubyte"
#define MNIST_TEST_IMAGES "t10k-images-idx3-ubyte"
#define MNIST_TEST_LABELS "t10k-labels-idx1-ubyte"
#define MNIST_CLASSES 10
#define MNIST_PIXELS 784 /* 28 x 28, in MNIST and Fashion-MNIST alike: what every model here reads */

typedef struct {
    int count;       /* number of images */
    int rows, cols;  /* image size */
    int pixels;      /* rows * cols */
    uint8_t *images; /* count x pixels, row-major, as stored in the file */
    uint8_t *labels; /* count, each 0..9 */
} mnist_set;

typedef struct {
    mnist_set train, test;
} mnist_data;

/* Loads the four files from `directory`. Checks each file (idx_load), that
 * image and label counts agree, that train and test images share one size,
 * and that every label is 0..9. On failure returns -1 with a message that
 * names the file and what is wrong. */
int mnist_load(const char *directory, mnist_data *out, char *err, size_t err_size);

/* Checks an already loaded images/labels pair (used by mnist_load and the fuzzer).
 * Takes ownership of nothing. */
int mnist_check_pair(const char *images_name, const char *labels_name,
                     int image_count, int label_count, const uint8_t *labels,
                     char *err, size_t err_size);

/* Keeps only the first `limit` training images (1 <= limit <= count). */
int mnist_limit(mnist_set *set, int limit, char *err, size_t err_size);

void mnist_free(mnist_data *data);

/* Float layouts of the features x[k] = pixel/255, x[pixels] = 1 (the bias).
 * Both return malloc'd arrays the caller frees, or NULL when out of memory.
 * rows: image-major, count x (pixels + 1): image i's features are contiguous.
 * cols: feature-major, (pixels + 1) x count: feature k of every image is contiguous. */
float *mnist_features_rows(const mnist_set *set);
float *mnist_features_cols(const mnist_set *set);

#ifdef __cplusplus
}
#endif
#endif
