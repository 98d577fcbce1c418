/* IDX loader: see idx.h. Every check happens before any large allocation,
 * so a damaged or hostile header costs nothing but an error message. */
#define _POSIX_C_SOURCE 200809L

#include "idx.h"
#include "errors.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The largest data block accepted: 2^34 bytes (16 GiB), far above MNIST's
 * 47 MB, and never more than size_t can count (with room for the header). */
#define IDX_LIMIT_BYTES ((uint64_t)1 << 34)
#define IDX_TYPE_UNSIGNED_BYTE 0x08

typedef struct {
    int dimensions;
    uint32_t size[IDX_MAX_DIMENSIONS];
    size_t header_bytes; /* 4 + 4 per dimension */
    size_t data_bytes;   /* product of the sizes */
} idx_header;

static uint64_t limit_bytes(void)
{
    uint64_t limit = IDX_LIMIT_BYTES;
    if ((uint64_t)SIZE_MAX - 64 < limit)
        limit = (uint64_t)SIZE_MAX - 64;
    return limit;
}

static const char *type_name(unsigned code)
{
    switch (code) {
    case 0x08: return "unsigned byte";
    case 0x09: return "signed byte";
    case 0x0B: return "16-bit signed integer (short)";
    case 0x0C: return "32-bit signed integer (int)";
    case 0x0D: return "32-bit float";
    case 0x0E: return "64-bit float (double)";
    default: return "not a type IDX defines";
    }
}

/* "labels" for 1-D files, "pixels" for the rest: what the data bytes are. */
static const char *data_name(int dimensions)
{
    return dimensions == 1 ? "labels" : "pixels";
}

static const char *file_kind(int dimensions)
{
    return dimensions == 1 ? "labels" : "images";
}

static uint32_t read_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Checks the header against the file length. `bytes` holds the first
 * `available` bytes of a file that is `length` bytes long in all. */
static int parse_header(const char *name, const uint8_t *bytes, size_t available, uint64_t length,
                        int dimensions, idx_header *header, char *err, size_t err_size)
{
    if (dimensions < 1 || dimensions > IDX_MAX_DIMENSIONS)
        return error_set(err, err_size, "%s: cannot load an IDX file with %d dimensions (1 to %d)",
                         name, dimensions, IDX_MAX_DIMENSIONS);
    if (length == 0)
        return error_set(err, err_size, "%s: empty file (0 bytes), not an IDX file", name);
    if (length < 4)
        return error_set(err, err_size,
                         "%s: too short for an IDX header: %" PRIu64 " byte%s, need at least 4",
                         name, length, length == 1 ? "" : "s");
    if (available < 4)
        return error_set(err, err_size, "%s: could not read the IDX header", name);

    if (bytes[0] == 0x1F && bytes[1] == 0x8B)
        return error_set(err, err_size,
                         "%s: not an IDX file: starts with 0x1F 0x8B, which is gzip; "
                         "decompress it first (gunzip)", name);
    if (bytes[0] != 0 || bytes[1] != 0)
        return error_set(err, err_size,
                         "%s: not an IDX file: starts with 0x%02X 0x%02X, expected 0x00 0x00",
                         name, (unsigned)bytes[0], (unsigned)bytes[1]);
    if (bytes[2] != IDX_TYPE_UNSIGNED_BYTE)
        return error_set(err, err_size,
                         "%s: type code 0x%02X (%s); only 0x08 (unsigned byte) is supported",
                         name, (unsigned)bytes[2], type_name(bytes[2]));
    if (bytes[3] != dimensions)
        return error_set(err, err_size, "%s: %u dimension%s, expected %d (%s)", name,
                         (unsigned)bytes[3], bytes[3] == 1 ? "" : "s", dimensions,
                         file_kind(dimensions));

    header->dimensions = dimensions;
    header->header_bytes = 4 + 4 * (size_t)dimensions;
    if (length < header->header_bytes)
        return error_set(err, err_size,
                         "%s: truncated header: %d dimension%s need%s a %zu-byte header, file has %" PRIu64
                         " bytes",
                         name, dimensions, dimensions == 1 ? "" : "s", dimensions == 1 ? "s" : "",
                         header->header_bytes, length);
    if (available < header->header_bytes)
        return error_set(err, err_size, "%s: could not read the IDX header", name);

    /* The product of the sizes, stopping as soon as it passes the limit, so
     * it can neither overflow nor ask for an absurd allocation. */
    uint64_t limit = limit_bytes(), product = 1;
    int too_large = 0;
    for (int d = 0; d < dimensions; d++) {
        header->size[d] = read_be32(bytes + 4 + 4 * d);
        if (header->size[d] != 0 && product > limit / header->size[d])
            too_large = 1;
        else
            product *= header->size[d];
    }
    for (int d = dimensions; d < IDX_MAX_DIMENSIONS; d++)
        header->size[d] = 0;
    if (too_large) {
        char shape[3 * 12 + 1] = "";
        size_t used = 0;
        for (int d = 0; d < dimensions; d++)
            used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%" PRIu32,
                                     d == 0 ? "" : "x", header->size[d]);
        return error_set(err, err_size,
                         "%s: dimensions %s are too large: more than %" PRIu64 " bytes of %s",
                         name, shape, limit, data_name(dimensions));
    }
    header->data_bytes = (size_t)product;

    /* The file must be exactly header + data long. Both messages count
     * whole-file bytes: what the header promises against what is there. */
    uint64_t promised = header->header_bytes + product;
    if (length < promised)
        return error_set(err, err_size,
                         "%s: truncated: header promises %" PRIu64 " bytes of %s, file has %" PRIu64,
                         name, promised, data_name(dimensions), length);
    if (length > promised) {
        uint64_t extra = length - promised;
        return error_set(err, err_size,
                         "%s: %" PRIu64 " byte%s after the end of the data (the header promises %" PRIu64
                         " bytes of %s, file has %" PRIu64 ")",
                         name, extra, extra == 1 ? "" : "s", promised, data_name(dimensions), length);
    }
    return 0;
}

static void clear(idx_array *array)
{
    memset(array, 0, sizeof *array);
}

static int fill(const char *name, const idx_header *header, idx_array *out, char *err, size_t err_size)
{
    out->dimensions = header->dimensions;
    for (int d = 0; d < IDX_MAX_DIMENSIONS; d++)
        out->size[d] = header->size[d];
    out->bytes = header->data_bytes;
    /* At least one byte, so an empty array still has a non-NULL buffer. */
    out->data = malloc(header->data_bytes > 0 ? header->data_bytes : 1);
    if (out->data == NULL) {
        size_t bytes = header->data_bytes;
        clear(out);
        return error_set(err, err_size, "%s: out of memory for %zu bytes of %s", name, bytes,
                         data_name(header->dimensions));
    }
    return 0;
}

int idx_parse(const char *name, const uint8_t *bytes, size_t length, int dimensions,
              idx_array *out, char *err, size_t err_size)
{
    idx_header header;
    if (out == NULL)
        return error_set(err, err_size, "%s: no place to put the array", name);
    clear(out);
    if (bytes == NULL && length > 0)
        return error_set(err, err_size, "%s: no data", name);
    if (parse_header(name, bytes, length, length, dimensions, &header, err, err_size) != 0)
        return -1;
    if (fill(name, &header, out, err, err_size) != 0)
        return -1;
    if (header.data_bytes > 0)
        memcpy(out->data, bytes + header.header_bytes, header.data_bytes);
    return 0;
}

/* Reads up to `count` bytes; returns how many (short only at end of file),
 * or -1 with errno set. */
static ssize_t read_fully(int fd, uint8_t *buffer, size_t count)
{
    size_t done = 0;
    while (done < count) {
        size_t chunk = count - done;
        if (chunk > ((size_t)1 << 30))
            chunk = (size_t)1 << 30;
        ssize_t got = read(fd, buffer + done, chunk);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (got == 0)
            break;
        done += (size_t)got;
    }
    return (ssize_t)done;
}

int idx_load(const char *path, int dimensions, idx_array *out, char *err, size_t err_size)
{
    idx_header header;
    struct stat info;
    uint8_t head[4 + 4 * IDX_MAX_DIMENSIONS];

    if (out == NULL)
        return error_set(err, err_size, "%s: no place to put the array", path);
    clear(out);

    /* O_NONBLOCK: opening a named pipe must not wait for a writer; the type
     * check below then refuses it. No effect on regular files. */
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        if (errno == EISDIR)
            return error_set(err, err_size, "%s: is a directory, not an IDX file", path);
        return error_set(err, err_size, "%s: %s", path, strerror(errno));
    }
    if (fstat(fd, &info) != 0) {
        int saved = errno;
        close(fd);
        return error_set(err, err_size, "%s: %s", path, strerror(saved));
    }
    if (S_ISDIR(info.st_mode)) {
        close(fd);
        return error_set(err, err_size, "%s: is a directory, not an IDX file", path);
    }
    if (!S_ISREG(info.st_mode)) {
        close(fd);
        return error_set(err, err_size, "%s: not a regular file", path);
    }

    uint64_t length = info.st_size > 0 ? (uint64_t)info.st_size : 0;
    size_t want = length < sizeof head ? (size_t)length : sizeof head;
    ssize_t got = read_fully(fd, head, want);
    if (got < 0) {
        int saved = errno;
        close(fd);
        return error_set(err, err_size, "%s: read error: %s", path, strerror(saved));
    }
    if (parse_header(path, head, (size_t)got, length, dimensions, &header, err, err_size) != 0) {
        close(fd);
        return -1;
    }
    if (fill(path, &header, out, err, err_size) != 0) {
        close(fd);
        return -1;
    }

    /* `head` may already hold the first data bytes (a 1-D header is 8 bytes). */
    size_t from_head = (size_t)got - header.header_bytes;
    if (from_head > header.data_bytes)
        from_head = header.data_bytes;
    memcpy(out->data, head + header.header_bytes, from_head);
    got = read_fully(fd, out->data + from_head, header.data_bytes - from_head);
    int saved = errno;
    uint8_t extra;
    ssize_t more = got >= 0 ? read_fully(fd, &extra, 1) : 0;
    close(fd);
    if (got < 0) {
        idx_free(out);
        return error_set(err, err_size, "%s: read error: %s", path, strerror(saved));
    }
    if ((size_t)got != header.data_bytes - from_head || more != 0) {
        idx_free(out);
        return error_set(err, err_size, "%s: the file changed size while it was being read", path);
    }
    return 0;
}

void idx_free(idx_array *array)
{
    if (array == NULL)
        return;
    free(array->data);
    clear(array);
}
