/* libFuzzer target for the IDX and MNIST checks.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Icommon/host tests/fuzz_loader.c \
 *         common/host/idx.c common/host/mnist.c common/host/errors.c -o build/tests/fuzz_loader
 *   build/tests/fuzz_loader -max_total_time=60 tests/fuzz_corpus
 *
 * (Give it a scratch folder before the seed folder, e.g.
 *  `build/tests/fuzz_loader -max_total_time=60 build/fuzz_work tests/fuzz_corpus`,
 *  to keep the seeds unchanged: libFuzzer adds what it finds to the first one.)
 *
 * Each input is parsed whole as a 1-D (labels) and as a 3-D (images) IDX file,
 * from memory with idx_parse and, written to a temporary file, with idx_load:
 * both must agree on the outcome, the message and the data.
 * Then it is split in two at an offset taken from its first two bytes: the first
 * part is parsed as images, the second as labels, and if both parse, the pair
 * goes through mnist_check_pair, the feature layouts and mnist_limit, as
 * mnist_load would use them. Besides the sanitizers' checks, every failure must
 * produce a message that starts with the name it was given. */
#define _POSIX_C_SOURCE 200809L

#include "errors.h"
#include "idx.h"
#include "mnist.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Stops the run (as a crash libFuzzer reports) when `condition` is false. */
#define CHECK(condition)           \
    do {                           \
        if (!(condition))          \
            __builtin_trap();      \
    } while (0)

/* Larger image sets are valid but would only make each run slow. */
#define FEATURE_LIMIT (1u << 16)

static void check_message(int status, const char *err, const char *name)
{
    if (status == 0)
        return;
    CHECK(status == -1);
    CHECK(strncmp(err, name, strlen(name)) == 0);
    CHECK(memchr(err, '\0', ERROR_TEXT_SIZE) != NULL);
}

/* Parses `bytes` with `dimensions` dimensions; on success checks what came back. */
static int parse(const char *name, const uint8_t *bytes, size_t length, int dimensions,
                 idx_array *array)
{
    char err[ERROR_TEXT_SIZE];
    memset(err, 'x', sizeof err);
    err[sizeof err - 1] = '\0';
    int status = idx_parse(name, bytes, length, dimensions, array, err, sizeof err);
    check_message(status, err, name);
    if (status != 0) {
        CHECK(array->data == NULL);
        return -1;
    }
    size_t header = 4 + 4 * (size_t)dimensions;
    size_t product = 1;
    CHECK(array->dimensions == dimensions);
    for (int d = 0; d < dimensions; d++)
        product *= array->size[d];
    CHECK(array->bytes == product);
    CHECK(length == header + product);
    CHECK(array->data != NULL);
    CHECK(memcmp(array->data, bytes + header, array->bytes) == 0);
    return 0;
}

static void check_features(const mnist_set *set)
{
    if ((uint64_t)set->count * (uint64_t)(set->pixels + 1) > FEATURE_LIMIT)
        return;
    float *rows = mnist_features_rows(set);
    float *cols = mnist_features_cols(set);
    CHECK(rows != NULL && cols != NULL);
    size_t count = (size_t)set->count, pixels = (size_t)set->pixels;
    for (size_t i = 0; i < count; i++) {
        for (size_t k = 0; k < pixels; k++) {
            float x = (float)set->images[i * pixels + k] / 255.0f;
            CHECK(rows[i * (pixels + 1) + k] == x);
            CHECK(cols[k * count + i] == x);
        }
        CHECK(rows[i * (pixels + 1) + pixels] == 1.0f);
        CHECK(cols[pixels * count + i] == 1.0f);
    }
    free(rows);
    free(cols);
}

/* What mnist_load does with one images/labels pair, on memory. */
static void check_pair(const idx_array *images, const idx_array *labels)
{
    char err[ERROR_TEXT_SIZE];
    if (images->size[0] > INT_MAX || labels->size[0] > INT_MAX)
        return;
    int status = mnist_check_pair("images", "labels", (int)images->size[0], (int)labels->size[0],
                                  labels->data, err, sizeof err);
    check_message(status, err, status != 0 && strncmp(err, "images", 6) == 0 ? "images" : "labels");
    if (status != 0)
        return;
    CHECK(images->size[0] == labels->size[0] && images->size[0] > 0);
    for (uint32_t i = 0; i < labels->size[0]; i++)
        CHECK(labels->data[i] < MNIST_CLASSES);

    if (images->size[1] == 0 || images->size[2] == 0 ||
        (uint64_t)images->size[1] * images->size[2] > INT_MAX)
        return;

    /* A set that owns copies, so mnist_limit can shrink them. */
    mnist_set set;
    set.count = (int)images->size[0];
    set.rows = (int)images->size[1];
    set.cols = (int)images->size[2];
    set.pixels = set.rows * set.cols;
    set.images = malloc(images->bytes);
    set.labels = malloc(labels->bytes);
    CHECK(set.images != NULL && set.labels != NULL);
    memcpy(set.images, images->data, images->bytes);
    memcpy(set.labels, labels->data, labels->bytes);
    check_features(&set);

    CHECK(mnist_limit(&set, 0, err, sizeof err) == -1);
    if (set.count < INT_MAX)
        CHECK(mnist_limit(&set, set.count + 1, err, sizeof err) == -1);
    int keep = set.count / 2 + 1;
    CHECK(mnist_limit(&set, keep, err, sizeof err) == 0);
    CHECK(set.count == keep);
    CHECK(memcmp(set.images, images->data, (size_t)keep * (size_t)set.pixels) == 0);
    CHECK(memcmp(set.labels, labels->data, (size_t)keep) == 0);
    check_features(&set);

    mnist_data data;
    memset(&data, 0, sizeof data);
    data.train = set;
    mnist_free(&data);
    CHECK(data.train.images == NULL && data.train.count == 0);
}

/* The temporary file idx_load reads: created on the first input, removed at exit. */
static char file_path[4096];
static int file_fd = -1;

static void remove_file(void)
{
    if (file_fd >= 0) {
        close(file_fd);
        unlink(file_path);
    }
}

static void open_file(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(file_path, sizeof file_path, "%s/fuzz_loader.XXXXXX",
             base != NULL && *base ? base : "/tmp");
    file_fd = mkstemp(file_path);
    CHECK(file_fd >= 0);
    atexit(remove_file);
}

static void write_file(const uint8_t *data, size_t size)
{
    if (file_fd < 0)
        open_file();
    CHECK(ftruncate(file_fd, 0) == 0);
    CHECK(size == 0 || pwrite(file_fd, data, size, 0) == (ssize_t)size);
}

/* idx_load on the input, once write_file has put it in the file, must do
 * exactly what idx_parse does on it in memory. */
static void compare_load(const uint8_t *data, size_t size, int dimensions)
{
    idx_array parsed, loaded;
    char parse_err[ERROR_TEXT_SIZE], load_err[ERROR_TEXT_SIZE];
    int parse_status = idx_parse("input", data, size, dimensions, &parsed, parse_err, sizeof parse_err);
    int load_status = idx_load(file_path, dimensions, &loaded, load_err, sizeof load_err);
    CHECK(parse_status == load_status);
    if (parse_status != 0) {
        CHECK(loaded.data == NULL);
        check_message(load_status, load_err, file_path);
        CHECK(strcmp(parse_err + strlen("input"), load_err + strlen(file_path)) == 0);
        return;
    }
    CHECK(parsed.dimensions == loaded.dimensions && parsed.bytes == loaded.bytes);
    CHECK(memcmp(parsed.size, loaded.size, sizeof parsed.size) == 0);
    CHECK(memcmp(parsed.data, loaded.data, parsed.bytes) == 0);
    idx_free(&parsed);
    idx_free(&loaded);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    idx_array first, second;

    /* The whole input as either kind of file. */
    int parsed = 0;
    if (parse("input", data, size, 1, &first) == 0) {
        idx_free(&first);
        parsed = 1;
    }
    if (parse("input", data, size, 3, &first) == 0) {
        idx_free(&first);
        parsed = 1;
    }
    /* The same from a file. File I/O is slow next to parsing, so only for
     * inputs that parse, where idx_load reads the data, and short ones, which
     * end inside the header; the other failures come from the same
     * parse_header in both. */
    if (parsed || size <= 24) {
        write_file(data, size);
        compare_load(data, size, 1);
        compare_load(data, size, 3);
    }

    /* Split: two bytes of offset, then images, then labels. */
    if (size < 2)
        return 0;
    size_t rest = size - 2;
    size_t split = ((size_t)data[0] << 8 | data[1]) % (rest + 1);
    const uint8_t *images_bytes = data + 2, *labels_bytes = data + 2 + split;
    if (parse("images", images_bytes, split, 3, &first) != 0)
        return 0;
    if (parse("labels", labels_bytes, rest - split, 1, &second) == 0) {
        check_pair(&first, &second);
        idx_free(&second);
    }
    idx_free(&first);
    return 0;
}
