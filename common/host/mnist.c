/* MNIST on top of the IDX loader: see mnist.h. */
#define _POSIX_C_SOURCE 200809L

#include "mnist.h"
#include "errors.h"
#include "idx.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MNIST_PATH_SIZE 4096

int mnist_check_pair(const char *images_name, const char *labels_name,
                     int image_count, int label_count, const uint8_t *labels,
                     char *err, size_t err_size)
{
    if (image_count <= 0)
        return error_set(err, err_size, "%s: %d images; need at least one", images_name,
                         image_count);
    if (image_count != label_count)
        return error_set(err, err_size, "%s: %d images but %s has %d labels", images_name,
                         image_count, labels_name, label_count);
    if (labels == NULL)
        return error_set(err, err_size, "%s: no labels", labels_name);
    for (int i = 0; i < label_count; i++)
        if (labels[i] >= MNIST_CLASSES)
            return error_set(err, err_size, "%s: label %u at index %d; labels must be 0..%d",
                             labels_name, (unsigned)labels[i], i, MNIST_CLASSES - 1);
    return 0;
}

/* directory + "/" + name, without doubling a trailing slash. */
static int join(char *path, size_t size, const char *directory, const char *name, char *err,
                size_t err_size)
{
    size_t length = strlen(directory);
    const char *slash = length > 0 && directory[length - 1] == '/' ? "" : "/";
    int written = snprintf(path, size, "%s%s%s", directory, slash, name);
    if (written < 0 || (size_t)written >= size)
        return error_set(err, err_size, "%s: path too long", directory);
    return 0;
}

/* Loads one images file and its labels file into `set`. */
static int load_set(const char *directory, const char *images_file, const char *labels_file,
                    mnist_set *set, char *images_path, char *err, size_t err_size)
{
    char labels_path[MNIST_PATH_SIZE];
    idx_array images, labels;
    struct stat info;

    memset(set, 0, sizeof *set);
    if (join(images_path, MNIST_PATH_SIZE, directory, images_file, err, err_size) != 0 ||
        join(labels_path, sizeof labels_path, directory, labels_file, err, err_size) != 0)
        return -1;

    /* A file that is not there at all most likely means the dataset was
     * never fetched; say how to fetch it. */
    if (stat(images_path, &info) != 0 && errno == ENOENT)
        return error_set(err, err_size, "%s: %s; run `make dataset` to download it", images_path,
                         strerror(ENOENT));
    if (stat(labels_path, &info) != 0 && errno == ENOENT)
        return error_set(err, err_size, "%s: %s; run `make dataset` to download it", labels_path,
                         strerror(ENOENT));

    if (idx_load(images_path, 3, &images, err, err_size) != 0)
        return -1;
    if (idx_load(labels_path, 1, &labels, err, err_size) != 0) {
        idx_free(&images);
        return -1;
    }

    int status = 0;
    if (images.size[0] > INT_MAX)
        status = error_set(err, err_size, "%s: %lu images; at most %d are supported", images_path,
                           (unsigned long)images.size[0], INT_MAX);
    else if (labels.size[0] > INT_MAX)
        status = error_set(err, err_size, "%s: %lu labels; at most %d are supported", labels_path,
                           (unsigned long)labels.size[0], INT_MAX);
    else if (images.size[1] == 0 || images.size[2] == 0)
        status = error_set(err, err_size, "%s: images are %lux%lu; both sides must be at least 1",
                           images_path, (unsigned long)images.size[1],
                           (unsigned long)images.size[2]);
    else if ((uint64_t)images.size[1] * images.size[2] > INT_MAX)
        status = error_set(err, err_size, "%s: images are %lux%lu; at most %d pixels are supported",
                           images_path, (unsigned long)images.size[1],
                           (unsigned long)images.size[2], INT_MAX);
    else
        status = mnist_check_pair(images_path, labels_path, (int)images.size[0],
                                  (int)labels.size[0], labels.data, err, err_size);
    if (status != 0) {
        idx_free(&images);
        idx_free(&labels);
        return -1;
    }

    set->count = (int)images.size[0];
    set->rows = (int)images.size[1];
    set->cols = (int)images.size[2];
    set->pixels = set->rows * set->cols;
    set->images = images.data; /* ownership moves to the set */
    set->labels = labels.data;
    return 0;
}

/* A relative DATASET_DIR that is not here, run from inside the repository (a chapter's
 * folder): `up` receives the way to the repository's top folder ("../.." ; the one above
 * that holds dataset/fetch.sh). Returns 0 where there is none. */
static int repository_above(const char *directory, char *up, size_t size)
{
    struct stat info;
    char probe[PATH_MAX];
    if (directory[0] == '/' || size < 3) return 0;
    up[0] = '\0';
    for (int level = 1; level <= 8 && strlen(up) + 3 < size; level++) {
        strcat(up, level == 1 ? ".." : "/..");
        snprintf(probe, sizeof probe, "%s/dataset/fetch.sh", up);
        if (stat(probe, &info) == 0) return 1;
    }
    return 0;
}

int mnist_load(const char *directory, mnist_data *out, char *err, size_t err_size)
{
    char train_path[MNIST_PATH_SIZE], test_path[MNIST_PATH_SIZE];
    struct stat info;

    if (out == NULL)
        return error_set(err, err_size, "%s: no place to put the dataset", directory);
    memset(out, 0, sizeof *out);

    if (stat(directory, &info) != 0) {
        /* Where it looked, and the way to the repository's top folder, where make and the
         * trainers' paths start */
        char up[64], here[PATH_MAX], there[PATH_MAX + 64];
        if (errno == ENOENT && repository_above(directory, up, sizeof up) && getcwd(here, sizeof here)) {
            snprintf(there, sizeof there, "%s/%s", up, directory);
            if (stat(there, &info) == 0)
                return error_set(err, err_size, "%s: no such folder in %s; the repository's top folder is "
                                 "%s, with %s: give %s, or run from there (make -C %s chapter-N)",
                                 directory, here, up, there, there, up);
            return error_set(err, err_size, "%s: no such folder in %s; the repository's top folder is %s: "
                             "run from there (make -C %s chapter-N; make -C %s dataset downloads MNIST)",
                             directory, here, up, up, up);
        }
        /* Name the command that fills this folder: plain `make dataset` fills dataset/ only. */
        if (errno == ENOENT && (strcmp(directory, "dataset") == 0 || strcmp(directory, "dataset/") == 0))
            return error_set(err, err_size,
                             "%s: no such folder; run `make dataset` to download MNIST into it",
                             directory);
        if (errno == ENOENT &&
            (strcmp(directory, "dataset/fashion") == 0 || strcmp(directory, "dataset/fashion/") == 0))
            return error_set(err, err_size,
                             "%s: no such folder; run `make dataset DATASET=fashion` to download "
                             "Fashion-MNIST into it",
                             directory);
        if (errno == ENOENT)
            return error_set(err, err_size,
                             "%s: no such folder; run `make dataset DATASET_DIR=%s` to download MNIST "
                             "into it (add DATASET=fashion for Fashion-MNIST)",
                             directory, directory);
        return error_set(err, err_size, "%s: %s", directory, strerror(errno));
    }
    if (!S_ISDIR(info.st_mode))
        return error_set(err, err_size, "%s: not a folder; expected the folder that holds the four MNIST files",
                         directory);

    if (load_set(directory, MNIST_TRAIN_IMAGES, MNIST_TRAIN_LABELS, &out->train, train_path, err,
                 err_size) != 0)
        return -1;
    if (load_set(directory, MNIST_TEST_IMAGES, MNIST_TEST_LABELS, &out->test, test_path, err,
                 err_size) != 0) {
        mnist_free(out);
        return -1;
    }
    if (out->train.rows != out->test.rows || out->train.cols != out->test.cols) {
        error_set(err, err_size, "%s: train images are %dx%d but test images are %dx%d", test_path,
                  out->train.rows, out->train.cols, out->test.rows, out->test.cols);
        mnist_free(out);
        return -1;
    }
    return 0;
}

int mnist_limit(mnist_set *set, int limit, char *err, size_t err_size)
{
    if (set == NULL || set->count <= 0)
        return error_set(err, err_size, "limit %d: there are no images to keep", limit);
    if (limit < 1 || limit > set->count)
        return error_set(err, err_size, "limit %d is out of range: must be 1..%d (the number of images)",
                         limit, set->count);
    if (limit == set->count)
        return 0;
    /* Give back the memory of the dropped images; keep the old blocks if
     * the system will not shrink them (they stay valid either way). */
    uint8_t *images = realloc(set->images, (size_t)limit * (size_t)set->pixels);
    if (images != NULL)
        set->images = images;
    uint8_t *labels = realloc(set->labels, (size_t)limit);
    if (labels != NULL)
        set->labels = labels;
    set->count = limit;
    return 0;
}

static void free_set(mnist_set *set)
{
    free(set->images);
    free(set->labels);
    memset(set, 0, sizeof *set);
}

void mnist_free(mnist_data *data)
{
    if (data == NULL)
        return;
    free_set(&data->train);
    free_set(&data->test);
}

/* count x (pixels + 1) floats, or NULL if that overflows, the set is empty,
 * or malloc fails. */
static float *allocate_features(const mnist_set *set, size_t *count, size_t *features)
{
    if (set == NULL || set->count <= 0 || set->pixels <= 0 || set->images == NULL)
        return NULL;
    *count = (size_t)set->count;
    *features = (size_t)set->pixels + 1;
    if (*features > SIZE_MAX / sizeof(float) / *count)
        return NULL;
    return malloc(*count * *features * sizeof(float));
}

float *mnist_features_rows(const mnist_set *set)
{
    size_t count, features;
    float *x = allocate_features(set, &count, &features);
    if (x == NULL)
        return NULL;
    size_t pixels = features - 1;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *image = set->images + i * pixels;
        float *row = x + i * features;
        for (size_t k = 0; k < pixels; k++)
            row[k] = (float)image[k] / 255.0f;
        row[pixels] = 1.0f;
    }
    return x;
}

float *mnist_features_cols(const mnist_set *set)
{
    size_t count, features;
    float *x = allocate_features(set, &count, &features);
    if (x == NULL)
        return NULL;
    size_t pixels = features - 1;
    /* A transpose, done in blocks of 64 images so that both the pixels read
     * and the floats written stay in cache. */
    for (size_t first = 0; first < count; first += 64) {
        size_t last = first + 64 < count ? first + 64 : count;
        for (size_t k = 0; k < pixels; k++) {
            float *feature = x + k * count;
            for (size_t i = first; i < last; i++)
                feature[i] = (float)set->images[i * pixels + k] / 255.0f;
        }
    }
    for (size_t i = 0; i < count; i++)
        x[pixels * count + i] = 1.0f;
    return x;
}
