/* The files the loaders' tests write (loader_files.c), and the two checks
 * they all make: a load that fails with exactly one message. */
#ifndef TESTS_LOADER_FILES_H
#define TESTS_LOADER_FILES_H

/* The project's headers come before cmocka.h: cmocka defines a macro
 * fail(), which would break the declaration of fail() in errors.h. */
#include "errors.h"
#include "idx.h"
#include "mnist.h"

#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#define PATH_SIZE 4096

/* A fresh temporary folder as the test's state (mkdtemp), removed with all
 * it holds afterwards. */
int setup_folder(void **state);
int teardown_folder(void **state);

/* folder + "/" + name, in a static ring of buffers so several can be live. */
const char *in(const char *folder, const char *name);

void write_file(const char *path, const void *bytes, size_t length);
/* Writes an IDX header (given magic/type bytes) with `dimensions` sizes, then
 * `length` data bytes. */
void write_raw_idx(const char *path, uint8_t magic0, uint8_t magic1, uint8_t type,
                   int dimensions, const uint32_t *sizes, const uint8_t *data, size_t length);
/* The same with unsigned bytes (0x08), the one type the loader takes. */
void write_idx(const char *path, int dimensions, const uint32_t *sizes, const uint8_t *data,
               size_t length);

/* The pixel values of the synthetic images: every value 0..255 shows up. */
uint8_t pixel(int image, int k);
void write_images(const char *path, uint32_t count, uint32_t rows, uint32_t cols);
void write_labels(const char *path, uint32_t count, const uint8_t *labels);

extern const uint8_t train_labels[3];
extern const uint8_t test_labels[2];
/* A good little dataset: 3 training and 2 test images of 2x3 pixels. */
void write_dataset(const char *folder);

/* Asserts that err reads exactly the printf-formatted text. */
void expect_message(const char *err, const char *format, ...);

/* idx_load must fail on `path` with exactly the given message, and leave
 * `out` empty. */
#define EXPECT_IDX_FAILS(path, dimensions, ...)                                        \
    do {                                                                               \
        idx_array array_;                                                              \
        char err_[ERROR_TEXT_SIZE] = "";                                               \
        assert_int_equal(idx_load((path), (dimensions), &array_, err_, sizeof err_), -1); \
        assert_null(array_.data);                                                      \
        expect_message(err_, __VA_ARGS__);                                             \
    } while (0)

#define EXPECT_MNIST_FAILS(folder, ...)                                                \
    do {                                                                               \
        mnist_data data_;                                                              \
        char err_[ERROR_TEXT_SIZE] = "";                                               \
        assert_int_equal(mnist_load((folder), &data_, err_, sizeof err_), -1);         \
        assert_null(data_.train.images);                                               \
        assert_null(data_.test.images);                                                \
        expect_message(err_, __VA_ARGS__);                                             \
    } while (0)

#endif
