/* Tests of the IDX loader (common/host/idx.c): one test per class of bad
 * file, each with its exact message (and, where mnist_load meets it, the
 * message there), and parsing from memory.
 *
 * Every test writes the files it needs into a fresh temporary folder
 * (tests/loader_files.c) and removes it afterwards; nothing here depends on
 * committed data.
 *
 *   make HIP_PLATFORM=cpu build/tests/test_idx
 *   CMOCKA_MESSAGE_OUTPUT=TAP build/tests/test_idx
 */
#define _XOPEN_SOURCE 700

#include "loader_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------------
 * One test per class of bad file. */

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
        cmocka_unit_test_setup_teardown(test_directory_as_file, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_unreadable_not_a_directory, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_unreadable_permission, setup_folder, teardown_folder),
        cmocka_unit_test(test_other_file_types),
        cmocka_unit_test(test_parse_in_memory),
    };
    return cmocka_run_group_tests_name("idx", tests, NULL, NULL);
}
