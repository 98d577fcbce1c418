/* The files the loaders' tests (test_idx.c, test_mnist.c) write: a
 * temporary folder per test, IDX files and a little MNIST dataset in it. */
#define _XOPEN_SOURCE 700

#include "loader_files.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int setup_folder(void **state)
{
    const char *base = getenv("TMPDIR");
    char *folder = malloc(PATH_SIZE);
    if (folder == NULL)
        return -1;
    snprintf(folder, PATH_SIZE, "%s/loader_files.XXXXXX", base != NULL && *base ? base : "/tmp");
    if (mkdtemp(folder) == NULL) {
        fprintf(stderr, "mkdtemp %s: %s\n", folder, strerror(errno));
        free(folder);
        return -1;
    }
    *state = folder;
    return 0;
}

static int remove_entry(const char *path, const struct stat *info, int flag, struct FTW *ftw)
{
    (void)info;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int teardown_folder(void **state)
{
    char *folder = *state;
    int status = nftw(folder, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(folder);
    return status;
}

/* folder + "/" + name, in a static ring of buffers so several can be live. */
const char *in(const char *folder, const char *name)
{
    static char paths[8][PATH_SIZE];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, PATH_SIZE, "%s/%s", folder, name);
    return path;
}

void write_file(const char *path, const void *bytes, size_t length)
{
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    if (length > 0)
        assert_int_equal(fwrite(bytes, 1, length, file), length);
    assert_int_equal(fclose(file), 0);
}

/* Writes an IDX header (given magic/type bytes) with `dimensions` sizes, then
 * `length` data bytes. */
void write_raw_idx(const char *path, uint8_t magic0, uint8_t magic1, uint8_t type,
                          int dimensions, const uint32_t *sizes, const uint8_t *data, size_t length)
{
    size_t header = 4 + 4 * (size_t)dimensions;
    uint8_t *bytes = malloc(header + length + 1);
    assert_non_null(bytes);
    bytes[0] = magic0;
    bytes[1] = magic1;
    bytes[2] = type;
    bytes[3] = (uint8_t)dimensions;
    for (int d = 0; d < dimensions; d++) {
        bytes[4 + 4 * d] = (uint8_t)(sizes[d] >> 24);
        bytes[5 + 4 * d] = (uint8_t)(sizes[d] >> 16);
        bytes[6 + 4 * d] = (uint8_t)(sizes[d] >> 8);
        bytes[7 + 4 * d] = (uint8_t)sizes[d];
    }
    if (length > 0)
        memcpy(bytes + header, data, length);
    write_file(path, bytes, header + length);
    free(bytes);
}

void write_idx(const char *path, int dimensions, const uint32_t *sizes,
                      const uint8_t *data, size_t length)
{
    write_raw_idx(path, 0, 0, 0x08, dimensions, sizes, data, length);
}

/* The pixel values of the synthetic images: every value 0..255 shows up. */
uint8_t pixel(int image, int k)
{
    return (uint8_t)(image * 101 + k * 37 + 3);
}

void write_images(const char *path, uint32_t count, uint32_t rows, uint32_t cols)
{
    uint32_t sizes[3] = {count, rows, cols};
    size_t pixels = (size_t)rows * cols;
    uint8_t *data = malloc(count * pixels + 1);
    assert_non_null(data);
    for (uint32_t i = 0; i < count; i++)
        for (size_t k = 0; k < pixels; k++)
            data[i * pixels + k] = pixel((int)i, (int)k);
    write_idx(path, 3, sizes, data, count * pixels);
    free(data);
}

void write_labels(const char *path, uint32_t count, const uint8_t *labels)
{
    uint32_t sizes[1] = {count};
    write_idx(path, 1, sizes, labels, count);
}

const uint8_t train_labels[3] = {5, 0, 9};
const uint8_t test_labels[2] = {1, 2};

/* A good little dataset: 3 training and 2 test images of 2x3 pixels. */
void write_dataset(const char *folder)
{
    write_images(in(folder, MNIST_TRAIN_IMAGES), 3, 2, 3);
    write_labels(in(folder, MNIST_TRAIN_LABELS), 3, train_labels);
    write_images(in(folder, MNIST_TEST_IMAGES), 2, 2, 3);
    write_labels(in(folder, MNIST_TEST_LABELS), 2, test_labels);
}

/* Asserts that err reads exactly the printf-formatted text. */
void expect_message(const char *err, const char *format, ...)
{
    char expected[ERROR_TEXT_SIZE];
    va_list args;
    va_start(args, format);
    vsnprintf(expected, sizeof expected, format, args);
    va_end(args);
    assert_string_equal(err, expected);
}

