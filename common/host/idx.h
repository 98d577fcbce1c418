/* IDX files: the format MNIST ships in (http://yann.lecun.com/exdb/mnist/).
 * Header: two zero bytes, a type code (0x08 = unsigned byte), the number of
 * dimensions, then one big-endian uint32 per dimension; the data follows. */
#ifndef COMMON_IDX_H
#define COMMON_IDX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IDX_MAX_DIMENSIONS 3

typedef struct {
    int dimensions;                    /* 1 for labels, 3 for images */
    uint32_t size[IDX_MAX_DIMENSIONS]; /* size[0] is the item count */
    size_t bytes;                      /* product of the sizes */
    uint8_t *data;                     /* malloc'd, bytes long */
} idx_array;

/* Loads an unsigned-byte IDX file with exactly `dimensions` dimensions.
 * Checks magic, type code, dimension count, overflow of the size product and
 * that the file holds exactly header + data bytes. On failure returns -1 and
 * writes a message that starts with the path, e.g.
 * "dataset/train-images-idx3-ubyte: truncated: header promises 47040016 bytes
 *  of pixels, file has 1000". */
int idx_load(const char *path, int dimensions, idx_array *out, char *err, size_t err_size);

/* Same checks on a file already in memory (the fuzzer uses this). `name`
 * stands in for the path in messages. */
int idx_parse(const char *name, const uint8_t *bytes, size_t length, int dimensions,
              idx_array *out, char *err, size_t err_size);

void idx_free(idx_array *array);

#ifdef __cplusplus
}
#endif
#endif
