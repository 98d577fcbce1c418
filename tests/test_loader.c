/* Tests of the IDX and MNIST loaders (common/host/idx.c, common/host/mnist.c).
 *
 * Every test writes the IDX files it needs into a fresh temporary folder
 * (mkdtemp) and removes it afterwards; nothing here depends on committed
 * data. The last test loads the real dataset when `dataset/` holds it (run
 * from the repository root), and is skipped otherwise.
 *
 *   cc -std=c11 -Wall -Wextra -O2 -Icommon/host tests/test_loader.c common/host/idx.c \
 *      common/host/mnist.c common/host/errors.c -lcmocka -o build/tests/test_loader
 *   CMOCKA_MESSAGE_OUTPUT=TAP build/tests/test_loader
 */
#define _XOPEN_SOURCE 700

/* The project's headers come before cmocka.h: cmocka defines a macro
 * fail(), which would break the declaration of fail() in errors.h. */
#include "errors.h"
#include "idx.h"
#include "mnist.h"

#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#define PATH_SIZE 4096

/* ------------------------------------------------------------------------
 * Helpers: a temporary folder per test, and IDX files written into it. */

static int setup_folder(void **state)
{
    const char *base = getenv("TMPDIR");
    char *folder = malloc(PATH_SIZE);
    if (folder == NULL)
        return -1;
    snprintf(folder, PATH_SIZE, "%s/test_loader.XXXXXX", base != NULL && *base ? base : "/tmp");
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

static int teardown_folder(void **state)
{
    char *folder = *state;
    int status = nftw(folder, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(folder);
    return status;
}

/* folder + "/" + name, in a static ring of buffers so several can be live. */
static const char *in(const char *folder, const char *name)
{
    static char paths[8][PATH_SIZE];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, PATH_SIZE, "%s/%s", folder, name);
    return path;
}

static void write_file(const char *path, const void *bytes, size_t length)
{
    FILE *file = fopen(path, "wb");
    assert_non_null(file);
    if (length > 0)
        assert_int_equal(fwrite(bytes, 1, length, file), length);
    assert_int_equal(fclose(file), 0);
}

/* Writes an IDX header (given magic/type bytes) with `dimensions` sizes, then
 * `length` data bytes. */
static void write_raw_idx(const char *path, uint8_t magic0, uint8_t magic1, uint8_t type,
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

static void write_idx(const char *path, int dimensions, const uint32_t *sizes,
                      const uint8_t *data, size_t length)
{
    write_raw_idx(path, 0, 0, 0x08, dimensions, sizes, data, length);
}

/* The pixel values of the synthetic images: every value 0..255 shows up. */
static uint8_t pixel(int image, int k)
{
    return (uint8_t)(image * 101 + k * 37 + 3);
}

static void write_images(const char *path, uint32_t count, uint32_t rows, uint32_t cols)
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

static void write_labels(const char *path, uint32_t count, const uint8_t *labels)
{
    uint32_t sizes[1] = {count};
    write_idx(path, 1, sizes, labels, count);
}

static const uint8_t train_labels[3] = {5, 0, 9};
static const uint8_t test_labels[2] = {1, 2};

/* A good little dataset: 3 training and 2 test images of 2x3 pixels. */
static void write_dataset(const char *folder)
{
    write_images(in(folder, MNIST_TRAIN_IMAGES), 3, 2, 3);
    write_labels(in(folder, MNIST_TRAIN_LABELS), 3, train_labels);
    write_images(in(folder, MNIST_TEST_IMAGES), 2, 2, 3);
    write_labels(in(folder, MNIST_TEST_LABELS), 2, test_labels);
}

/* Asserts that err reads exactly the printf-formatted text. */
static void expect_message(const char *err, const char *format, ...)
{
    char expected[ERROR_TEXT_SIZE];
    va_list args;
    va_start(args, format);
    vsnprintf(expected, sizeof expected, format, args);
    va_end(args);
    assert_string_equal(err, expected);
}

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

/* ------------------------------------------------------------------------
 * One test per class of bad input. */

static void test_missing_file(void **state)
{
    const char *folder = *state;
    const char *path = in(folder, "absent");
    EXPECT_IDX_FAILS(path, 3, "%s: No such file or directory", path);

    /* Inside mnist_load the message says how to get the files. */
    write_dataset(folder);
    assert_int_equal(remove(in(folder, MNIST_TEST_LABELS)), 0);
    EXPECT_MNIST_FAILS(folder, "%s/%s: No such file or directory; run `make dataset` to download it",
                       folder, MNIST_TEST_LABELS);
}

static void test_empty_file(void **state)
{
    const char *path = in(*state, "empty");
    write_file(path, "", 0);
    EXPECT_IDX_FAILS(path, 3, "%s: empty file (0 bytes), not an IDX file", path);
    EXPECT_IDX_FAILS(path, 1, "%s: empty file (0 bytes), not an IDX file", path);
}

static void test_truncated_header(void **state)
{
    const char *path = in(*state, "short");
    const uint8_t three[3] = {0, 0, 8};
    write_file(path, three, sizeof three);
    EXPECT_IDX_FAILS(path, 3, "%s: too short for an IDX header: 3 bytes, need at least 4", path);

    /* A 3-D header needs 16 bytes; this file stops after 10. */
    const uint8_t ten[10] = {0, 0, 8, 3, 0, 0, 0, 1, 0, 0};
    write_file(path, ten, sizeof ten);
    EXPECT_IDX_FAILS(path, 3, "%s: truncated header: 3 dimensions need a 16-byte header, file has 10 bytes",
                     path);

    /* A 1-D header needs 8. */
    const uint8_t six[6] = {0, 0, 8, 1, 0, 0};
    write_file(path, six, sizeof six);
    EXPECT_IDX_FAILS(path, 1, "%s: truncated header: 1 dimension needs a 8-byte header, file has 6 bytes",
                     path);
}

static void test_wrong_magic(void **state)
{
    const char *path = in(*state, "magic");
    uint32_t sizes[1] = {2};
    const uint8_t labels[2] = {1, 2};
    write_raw_idx(path, 0x01, 0x00, 0x08, 1, sizes, labels, 2);
    EXPECT_IDX_FAILS(path, 1, "%s: not an IDX file: starts with 0x01 0x00, expected 0x00 0x00", path);

    write_raw_idx(path, 0x00, 0xFF, 0x08, 1, sizes, labels, 2);
    EXPECT_IDX_FAILS(path, 1, "%s: not an IDX file: starts with 0x00 0xFF, expected 0x00 0x00", path);

    /* The .gz file as downloaded, not yet decompressed. */
    const uint8_t gzip[12] = {0x1F, 0x8B, 0x08, 0x08, 0, 0, 0, 0, 0, 3, 't', 0};
    write_file(path, gzip, sizeof gzip);
    EXPECT_IDX_FAILS(path, 3, "%s: not an IDX file: starts with 0x1F 0x8B, which is gzip; "
                              "decompress it first (gunzip)", path);
}

static void test_wrong_type_code(void **state)
{
    static const struct {
        uint8_t code;
        const char *name;
    } types[] = {
        {0x09, "signed byte"},
        {0x0B, "16-bit signed integer (short)"},
        {0x0C, "32-bit signed integer (int)"},
        {0x0D, "32-bit float"},
        {0x0E, "64-bit float (double)"},
        {0x42, "not a type IDX defines"},
    };
    const char *path = in(*state, "typed");
    uint32_t sizes[3] = {1, 2, 2};
    const uint8_t data[4] = {0};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        write_raw_idx(path, 0, 0, types[t].code, 3, sizes, data, 4);
        EXPECT_IDX_FAILS(path, 3, "%s: type code 0x%02X (%s); only 0x08 (unsigned byte) is supported",
                         path, types[t].code, types[t].name);
    }
}

static void test_wrong_dimensions(void **state)
{
    const char *folder = *state;
    write_dataset(folder);
    /* A labels file where images belong, and the other way round. */
    EXPECT_IDX_FAILS(in(folder, MNIST_TRAIN_LABELS), 3, "%s: 1 dimension, expected 3 (images)",
                     in(folder, MNIST_TRAIN_LABELS));
    EXPECT_IDX_FAILS(in(folder, MNIST_TRAIN_IMAGES), 1, "%s: 3 dimensions, expected 1 (labels)",
                     in(folder, MNIST_TRAIN_IMAGES));

    const char *path = in(folder, "two");
    uint32_t sizes[2] = {2, 2};
    const uint8_t data[4] = {0};
    write_idx(path, 2, sizes, data, 4);
    EXPECT_IDX_FAILS(path, 3, "%s: 2 dimensions, expected 3 (images)", path);

    /* Swapped in the folder: mnist_load reports the file by name. */
    write_labels(in(folder, MNIST_TEST_IMAGES), 2, test_labels);
    EXPECT_MNIST_FAILS(folder, "%s/%s: 1 dimension, expected 3 (images)", folder, MNIST_TEST_IMAGES);
}

static void test_size_overflow(void **state)
{
    const char *path = in(*state, "huge");
    const uint8_t data[16] = {0};

    /* 2^96 bytes: overflows any size_t. */
    uint32_t largest[3] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
    write_idx(path, 3, largest, data, sizeof data);
    EXPECT_IDX_FAILS(path, 3, "%s: dimensions 4294967295x4294967295x4294967295 are too large: "
                              "more than 17179869184 bytes of pixels", path);

    /* 5 * 2^32 bytes fits in 64 bits but passes the 2^34 limit. */
    uint32_t large[3] = {5, 65536, 65536};
    write_idx(path, 3, large, data, sizeof data);
    EXPECT_IDX_FAILS(path, 3, "%s: dimensions 5x65536x65536 are too large: "
                              "more than 17179869184 bytes of pixels", path);

    /* Exactly 2^34 bytes is allowed by the limit, so what fails is the length
     * (and nothing gets allocated before that). */
    uint32_t limit[3] = {4, 65536, 65536};
    write_idx(path, 3, limit, data, sizeof data);
    EXPECT_IDX_FAILS(path, 3, "%s: truncated: header promises 17179869200 bytes of pixels, file has 32",
                     path);

    /* A zero side makes the product 0, not a division by zero. */
    uint32_t zero[3] = {0xFFFFFFFFu, 0, 0xFFFFFFFFu};
    write_idx(path, 3, zero, data, 0);
    idx_array array;
    char err[ERROR_TEXT_SIZE] = "";
    assert_int_equal(idx_load(path, 3, &array, err, sizeof err), 0);
    assert_int_equal(array.bytes, 0);
    assert_int_equal(array.size[0], 0xFFFFFFFFu);
    idx_free(&array);
}

static void test_truncated_data(void **state)
{
    const char *path = in(*state, "cut");
    uint8_t data[1000];
    memset(data, 7, sizeof data);
    uint32_t mnist[3] = {60000, 28, 28};
    /* Sizes count the whole file: 16 header bytes + 60000 * 28 * 28 pixels
     * promised, 16 + 984 there. */
    write_idx(path, 3, mnist, data, 984);
    EXPECT_IDX_FAILS(path, 3, "%s: truncated: header promises 47040016 bytes of pixels, file has 1000",
                     path);

    uint32_t labels[1] = {10};
    write_idx(path, 1, labels, data, 9);
    EXPECT_IDX_FAILS(path, 1, "%s: truncated: header promises 18 bytes of labels, file has 17", path);

    /* Header complete, no data at all. */
    write_idx(path, 1, labels, data, 0);
    EXPECT_IDX_FAILS(path, 1, "%s: truncated: header promises 18 bytes of labels, file has 8", path);
}

static void test_trailing_bytes(void **state)
{
    const char *path = in(*state, "long");
    uint8_t data[64] = {0};
    uint32_t images[3] = {2, 3, 4};
    write_idx(path, 3, images, data, 24 + 5);
    EXPECT_IDX_FAILS(path, 3, "%s: 5 bytes after the end of the data (the header promises 40 bytes of pixels, file has 45)",
                     path);

    uint32_t labels[1] = {3};
    write_idx(path, 1, labels, data, 4);
    EXPECT_IDX_FAILS(path, 1, "%s: 1 byte after the end of the data (the header promises 11 bytes of labels, file has 12)",
                     path);
}

static void test_count_mismatch(void **state)
{
    const char *folder = *state;
    write_dataset(folder);
    write_labels(in(folder, MNIST_TRAIN_LABELS), 2, train_labels);
    EXPECT_MNIST_FAILS(folder, "%s/%s: 3 images but %s/%s has 2 labels", folder, MNIST_TRAIN_IMAGES,
                       folder, MNIST_TRAIN_LABELS);

    write_dataset(folder);
    const uint8_t more[3] = {1, 2, 3};
    write_labels(in(folder, MNIST_TEST_LABELS), 3, more);
    EXPECT_MNIST_FAILS(folder, "%s/%s: 2 images but %s/%s has 3 labels", folder, MNIST_TEST_IMAGES,
                       folder, MNIST_TEST_LABELS);

    char err[ERROR_TEXT_SIZE] = "";
    assert_int_equal(mnist_check_pair("x", "y", 1000, 999, more, err, sizeof err), -1);
    assert_string_equal(err, "x: 1000 images but y has 999 labels");
}

static void test_label_out_of_range(void **state)
{
    const char *folder = *state;
    write_dataset(folder);
    const uint8_t ten[3] = {5, 10, 9};
    write_labels(in(folder, MNIST_TRAIN_LABELS), 3, ten);
    EXPECT_MNIST_FAILS(folder, "%s/%s: label 10 at index 1; labels must be 0..9", folder,
                       MNIST_TRAIN_LABELS);

    write_dataset(folder);
    const uint8_t top[2] = {1, 255};
    write_labels(in(folder, MNIST_TEST_LABELS), 2, top);
    EXPECT_MNIST_FAILS(folder, "%s/%s: label 255 at index 1; labels must be 0..9", folder,
                       MNIST_TEST_LABELS);

    /* Every value from 10 to 255 is refused; 0..9 are fine. */
    char err[ERROR_TEXT_SIZE];
    for (int value = 0; value < 256; value++) {
        uint8_t labels[6] = {0, 1, 2, 3, 4, (uint8_t)value};
        int status = mnist_check_pair("i", "l", 6, 6, labels, err, sizeof err);
        if (value <= 9) {
            assert_int_equal(status, 0);
        } else {
            assert_int_equal(status, -1);
            expect_message(err, "l: label %d at index 5; labels must be 0..9", value);
        }
    }
}

static void test_zero_images(void **state)
{
    const char *folder = *state;
    write_dataset(folder);
    write_images(in(folder, MNIST_TRAIN_IMAGES), 0, 28, 28);
    write_labels(in(folder, MNIST_TRAIN_LABELS), 0, NULL);
    EXPECT_MNIST_FAILS(folder, "%s/%s: 0 images; need at least one", folder, MNIST_TRAIN_IMAGES);

    write_dataset(folder);
    write_images(in(folder, MNIST_TEST_IMAGES), 2, 0, 3);
    EXPECT_MNIST_FAILS(folder, "%s/%s: images are 0x3; both sides must be at least 1", folder,
                       MNIST_TEST_IMAGES);
}

static void test_train_test_size_mismatch(void **state)
{
    const char *folder = *state;
    write_dataset(folder);
    write_images(in(folder, MNIST_TEST_IMAGES), 2, 3, 2);
    EXPECT_MNIST_FAILS(folder, "%s/%s: train images are 2x3 but test images are 3x2", folder,
                       MNIST_TEST_IMAGES);

    write_images(in(folder, MNIST_TRAIN_IMAGES), 3, 28, 28);
    write_images(in(folder, MNIST_TEST_IMAGES), 2, 32, 32);
    EXPECT_MNIST_FAILS(folder, "%s/%s: train images are 28x28 but test images are 32x32", folder,
                       MNIST_TEST_IMAGES);
}

static void test_missing_folder(void **state)
{
    const char *folder = *state;
    const char *nowhere = in(folder, "nowhere");
    EXPECT_MNIST_FAILS(nowhere, "%s: no such folder; run `make dataset DATASET_DIR=%s` to download MNIST "
                       "into it (add DATASET=fashion for Fashion-MNIST)", nowhere, nowhere);

    /* A file where the folder should be. */
    const char *file = in(folder, "file");
    write_file(file, "x", 1);
    EXPECT_MNIST_FAILS(file, "%s: not a folder; expected the folder that holds the four MNIST files",
                       file);

    /* An empty folder: the first file is missing, with the same advice. */
    EXPECT_MNIST_FAILS(folder, "%s/%s: No such file or directory; run `make dataset` to download it",
                       folder, MNIST_TRAIN_IMAGES);
}

static void test_directory_as_file(void **state)
{
    const char *folder = *state;
    EXPECT_IDX_FAILS(folder, 3, "%s: is a directory, not an IDX file", folder);

    write_dataset(folder);
    assert_int_equal(remove(in(folder, MNIST_TRAIN_LABELS)), 0);
    assert_int_equal(mkdir(in(folder, MNIST_TRAIN_LABELS), 0700), 0);
    EXPECT_MNIST_FAILS(folder, "%s/%s: is a directory, not an IDX file", folder, MNIST_TRAIN_LABELS);
}

/* A path that goes through a file as if it were a folder: fails for root too. */
static void test_unreadable_not_a_directory(void **state)
{
    const char *folder = *state;
    write_file(in(folder, "plain"), "x", 1);
    const char *path = in(folder, "plain/train-images-idx3-ubyte");
    EXPECT_IDX_FAILS(path, 3, "%s: Not a directory", path);
    EXPECT_MNIST_FAILS(in(folder, "plain/"), "%s/plain/: Not a directory", folder);
}

/* No read permission: root reads anything, so the test is skipped as root. */
static void test_unreadable_permission(void **state)
{
    const char *folder = *state;
    if (geteuid() == 0) {
        /* cmocka's TAP line for a skip carries no reason: a comment before it. */
        print_message("# test_unreadable_permission: skipped as root, who can read a file without read permission\n");
        skip();
        return;
    }
    write_dataset(folder);
    assert_int_equal(chmod(in(folder, MNIST_TRAIN_IMAGES), 0), 0);
    EXPECT_IDX_FAILS(in(folder, MNIST_TRAIN_IMAGES), 3, "%s: Permission denied",
                     in(folder, MNIST_TRAIN_IMAGES));
    EXPECT_MNIST_FAILS(folder, "%s/%s: Permission denied", folder, MNIST_TRAIN_IMAGES);
}

static void test_other_file_types(void **state)
{
    (void)state;
    /* A character device is neither a regular file nor a folder. */
    EXPECT_IDX_FAILS("/dev/null", 1, "/dev/null: not a regular file");
}

/* ------------------------------------------------------------------------
 * The good case. */

static void check_set(const mnist_set *set, int count, const uint8_t *labels)
{
    assert_int_equal(set->count, count);
    assert_int_equal(set->rows, 2);
    assert_int_equal(set->cols, 3);
    assert_int_equal(set->pixels, 6);
    for (int i = 0; i < count; i++) {
        assert_int_equal(set->labels[i], labels[i]);
        for (int k = 0; k < 6; k++)
            assert_int_equal(set->images[i * 6 + k], pixel(i, k));
    }
}

static void check_features(const mnist_set *set)
{
    const int count = set->count, pixels = set->pixels, features = pixels + 1;
    float *rows = mnist_features_rows(set);
    float *cols = mnist_features_cols(set);
    assert_non_null(rows);
    assert_non_null(cols);
    for (int i = 0; i < count; i++) {
        for (int k = 0; k < pixels; k++) {
            float x = (float)pixel(i, k) / 255.0f;
            /* Exact: the loader must compute the very same float. */
            assert_true(rows[i * features + k] == x);
            assert_true(cols[k * count + i] == x);
            assert_true(x >= 0.0f && x <= 1.0f);
        }
        assert_true(rows[i * features + pixels] == 1.0f);
        assert_true(cols[pixels * count + i] == 1.0f);
    }
    free(rows);
    free(cols);
}

static void test_good_dataset(void **state)
{
    const char *folder = *state;
    write_dataset(folder);

    /* With and without a trailing slash. */
    char slashed[PATH_SIZE];
    snprintf(slashed, sizeof slashed, "%s/", folder);
    const char *folders[2] = {folder, slashed};
    for (int f = 0; f < 2; f++) {
        mnist_data data;
        char err[ERROR_TEXT_SIZE] = "";
        assert_int_equal(mnist_load(folders[f], &data, err, sizeof err), 0);
        assert_string_equal(err, "");
        check_set(&data.train, 3, train_labels);
        check_set(&data.test, 2, test_labels);
        mnist_free(&data);
        assert_null(data.train.images);
        assert_int_equal(data.train.count, 0);
    }
}

static void test_feature_layouts(void **state)
{
    const char *folder = *state;
    write_dataset(folder);
    mnist_data data;
    char err[ERROR_TEXT_SIZE] = "";
    assert_int_equal(mnist_load(folder, &data, err, sizeof err), 0);
    check_features(&data.train);
    check_features(&data.test);

    /* Spelled out for image 1, pixel 4 of the training set (3 images, 6 pixels). */
    float *rows = mnist_features_rows(&data.train);
    float *cols = mnist_features_cols(&data.train);
    assert_non_null(rows);
    assert_non_null(cols);
    assert_true(rows[1 * 7 + 4] == (float)pixel(1, 4) / 255.0f);
    assert_true(cols[4 * 3 + 1] == (float)pixel(1, 4) / 255.0f);
    assert_true(rows[0 * 7 + 6] == 1.0f && rows[2 * 7 + 6] == 1.0f);
    assert_true(cols[6 * 3 + 0] == 1.0f && cols[6 * 3 + 2] == 1.0f);
    free(rows);
    free(cols);

    /* Pixel 255 is exactly 1 and pixel 0 exactly 0. */
    uint8_t extremes_images[2] = {0, 255};
    uint8_t extremes_labels[2] = {0, 0};
    mnist_set extremes = {2, 1, 1, 1, extremes_images, extremes_labels};
    rows = mnist_features_rows(&extremes);
    assert_non_null(rows);
    assert_true(rows[0] == 0.0f && rows[1] == 1.0f && rows[2] == 1.0f && rows[3] == 1.0f);
    free(rows);

    /* No set, no features. */
    mnist_set empty = {0, 0, 0, 0, NULL, NULL};
    assert_null(mnist_features_rows(&empty));
    assert_null(mnist_features_cols(&empty));
    mnist_free(&data);
}

static void test_limit(void **state)
{
    const char *folder = *state;
    write_dataset(folder);
    mnist_data data;
    char err[ERROR_TEXT_SIZE] = "";
    assert_int_equal(mnist_load(folder, &data, err, sizeof err), 0);

    assert_int_equal(mnist_limit(&data.train, 0, err, sizeof err), -1);
    assert_string_equal(err, "limit 0 is out of range: must be 1..3 (the number of images)");
    assert_int_equal(mnist_limit(&data.train, 4, err, sizeof err), -1);
    assert_string_equal(err, "limit 4 is out of range: must be 1..3 (the number of images)");
    check_set(&data.train, 3, train_labels);

    assert_int_equal(mnist_limit(&data.train, 3, err, sizeof err), 0);
    check_set(&data.train, 3, train_labels);
    assert_int_equal(mnist_limit(&data.train, 2, err, sizeof err), 0);
    check_set(&data.train, 2, train_labels); /* the first two images, unchanged */
    check_features(&data.train);
    assert_int_equal(mnist_limit(&data.train, 1, err, sizeof err), 0);
    check_set(&data.train, 1, train_labels);
    check_features(&data.train);
    check_set(&data.test, 2, test_labels); /* the test set is left alone */
    mnist_free(&data);
}

static void test_parse_in_memory(void **state)
{
    (void)state;
    const uint8_t labels[11] = {0, 0, 8, 1, 0, 0, 0, 3, 7, 8, 9};
    idx_array array;
    char err[ERROR_TEXT_SIZE] = "";
    assert_int_equal(idx_parse("mem", labels, sizeof labels, 1, &array, err, sizeof err), 0);
    assert_int_equal(array.dimensions, 1);
    assert_int_equal(array.size[0], 3);
    assert_int_equal(array.bytes, 3);
    assert_memory_equal(array.data, labels + 8, 3);
    idx_free(&array);
    assert_null(array.data);

    const uint8_t images[20] = {0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 1, 2, 3, 4};
    assert_int_equal(idx_parse("mem", images, sizeof images, 3, &array, err, sizeof err), 0);
    assert_int_equal(array.size[0], 1);
    assert_int_equal(array.size[1], 2);
    assert_int_equal(array.size[2], 2);
    assert_int_equal(array.bytes, 4);
    assert_memory_equal(array.data, images + 16, 4);
    idx_free(&array);

    /* The same checks as from a file, with the name in front. */
    assert_int_equal(idx_parse("mem", images, 19, 3, &array, err, sizeof err), -1);
    assert_string_equal(err, "mem: truncated: header promises 20 bytes of pixels, file has 19");
    assert_int_equal(idx_parse("mem", NULL, 0, 1, &array, err, sizeof err), -1);
    assert_string_equal(err, "mem: empty file (0 bytes), not an IDX file");
    assert_int_equal(idx_parse("mem", images, sizeof images, 4, &array, err, sizeof err), -1);
    assert_string_equal(err, "mem: cannot load an IDX file with 4 dimensions (1 to 3)");

    /* A NULL or tiny message buffer is fine. */
    assert_int_equal(idx_parse("mem", images, 19, 3, &array, NULL, 0), -1);
    char tiny[4] = "xxx";
    assert_int_equal(idx_parse("mem", images, 19, 3, &array, tiny, sizeof tiny), -1);
    assert_string_equal(tiny, "mem");
}

/* ------------------------------------------------------------------------
 * The real dataset, when `make dataset` has fetched it. */

static void test_real_mnist(void **state)
{
    (void)state;
    const char *folder = "dataset";
    if (access("dataset/" MNIST_TRAIN_IMAGES, F_OK) != 0) {
        print_message("# test_real_mnist: skipped, no dataset/ (make dataset fetches it)\n");
        skip();
        return;
    }
    mnist_data data;
    char err[ERROR_TEXT_SIZE] = "";
    int status = mnist_load(folder, &data, err, sizeof err);
    if (status != 0)
        fail_msg("%s", err);
    assert_int_equal(data.train.count, 60000);
    assert_int_equal(data.test.count, 10000);
    assert_int_equal(data.train.rows, 28);
    assert_int_equal(data.train.cols, 28);
    assert_int_equal(data.test.rows, 28);
    assert_int_equal(data.test.cols, 28);
    assert_int_equal(data.train.labels[0], 5);
    assert_int_equal(data.test.labels[0], 7);

    /* Every class is present in both sets. */
    int train_count[MNIST_CLASSES] = {0}, test_count[MNIST_CLASSES] = {0};
    for (int i = 0; i < data.train.count; i++)
        train_count[data.train.labels[i]]++;
    for (int i = 0; i < data.test.count; i++)
        test_count[data.test.labels[i]]++;
    for (int c = 0; c < MNIST_CLASSES; c++) {
        assert_true(train_count[c] > 5000);
        assert_true(test_count[c] > 800);
    }

    float *cols = mnist_features_cols(&data.test);
    assert_non_null(cols);
    assert_true(cols[784 * 10000 + 9999] == 1.0f);
    free(cols);
    mnist_free(&data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_missing_file, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_empty_file, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_truncated_header, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_wrong_magic, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_wrong_type_code, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_wrong_dimensions, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_size_overflow, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_truncated_data, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_trailing_bytes, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_count_mismatch, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_label_out_of_range, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_zero_images, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_train_test_size_mismatch, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_missing_folder, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_directory_as_file, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_unreadable_not_a_directory, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_unreadable_permission, setup_folder, teardown_folder),
        cmocka_unit_test(test_other_file_types),
        cmocka_unit_test_setup_teardown(test_good_dataset, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_feature_layouts, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_limit, setup_folder, teardown_folder),
        cmocka_unit_test(test_parse_in_memory),
        cmocka_unit_test(test_real_mnist),
    };
    return cmocka_run_group_tests_name("loader", tests, NULL, NULL);
}
