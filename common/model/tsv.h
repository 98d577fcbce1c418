/* The model's tables: tab-separated, a header line, '#' comments; read by
 * column name, so a table may gain columns without breaking its readers.
 * Every reading error names the file and line and exits 1. */
#ifndef MODEL_TSV_H
#define MODEL_TSV_H

#include <stdio.h>

#define TSV_MAX_FIELDS 512

typedef struct {
    const char *path;
    FILE *f;
    char line[8192];
    char *field[TSV_MAX_FIELDS];
    char header[TSV_MAX_FIELDS][64];
    int fields, header_fields;
    long number;
} Table;

/* The program name the messages start with. */
extern const char *tsv_program;

void tsv_die(const char *file, const char *what);
void open_table(Table *t, const char *path);
int next_row(Table *t); /* 0 at the end */
int has_column(const Table *t, const char *name);
const char *cell(const Table *t, const char *name);
/* A count, "A" or "A+B" (B per wave: times waves). */
double count(const Table *t, const char *name, double waves);
/* A count a table may lack (written before the trace counted it): NAN then. */
double optional_count(const Table *t, const char *name, double waves);

/* Whether name is one of the comma-separated list's. */
int model_listed(const char *list, const char *name);
/* A kernel name without spaces and integer-literal suffixes: the compiler names a template kernel
 * "reduce<128u>", the launch "reduce<128>". */
void model_plain_name(const char *name, char *out, size_t size);

#endif
