/* Tests of the MNIST loader (common/host/mnist.c) on top of the IDX one:
 * the four files must agree (counts, one image size, labels 0..9), the
 * folder must be there; the good case, its float layouts and --train-limit;
 * and the real dataset when `dataset/` holds it (run from the repository
 * root), skipped otherwise.
 *
 * Every test writes the files it needs into a fresh temporary folder
 * (tests/loader_files.c) and removes it afterwards.
 *
 *   make HIP_PLATFORM=cpu build/tests/test_mnist
 *   CMOCKA_MESSAGE_OUTPUT=TAP build/tests/test_mnist
 */
#define _XOPEN_SOURCE 700

#include "loader_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* ------------------------------------------------------------------------
 * The four files together. */

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
        cmocka_unit_test_setup_teardown(test_count_mismatch, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_label_out_of_range, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_zero_images, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_train_test_size_mismatch, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_missing_folder, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_good_dataset, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_feature_layouts, setup_folder, teardown_folder),
        cmocka_unit_test_setup_teardown(test_limit, setup_folder, teardown_folder),
        cmocka_unit_test(test_real_mnist),
    };
    return cmocka_run_group_tests_name("mnist", tests, NULL, NULL);
}
