/* The model's tables (tsv.h). */
#include "tsv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *tsv_program = "timesim";

void tsv_die(const char *file, const char *what) {
    fprintf(stderr, "%s: %s: %s\n", tsv_program, file, what);
    exit(1);
}

/* Splits the next line that is not a comment; 0 at the end. */
int next_row(Table *t) {
    while (fgets(t->line, sizeof t->line, t->f)) {
        t->number++;
        if (!strchr(t->line, '\n') && !feof(t->f)) {
            char what[96];
            snprintf(what, sizeof what, "line %ld is longer than %zu characters", t->number, sizeof t->line - 2);
            tsv_die(t->path, what);
        }
        if (t->line[0] == '#' || t->line[0] == '\n') continue;
        t->line[strcspn(t->line, "\r\n")] = '\0';
        t->fields = 0;
        for (char *p = t->line;;) {
            if (t->fields == TSV_MAX_FIELDS) tsv_die(t->path, "too many columns");
            t->field[t->fields++] = p;
            char *tab = strchr(p, '\t');
            if (!tab) break;
            *tab = '\0';
            p = tab + 1;
        }
        return 1;
    }
    return 0;
}

void open_table(Table *t, const char *path) {
    memset(t, 0, sizeof *t);
    t->path = path;
    t->f = fopen(path, "r");
    if (!t->f) tsv_die(path, strerror(errno));
    if (!next_row(t)) tsv_die(path, "empty: no header line");
    for (int i = 0; i < t->fields; i++) snprintf(t->header[i], sizeof t->header[i], "%s", t->field[i]);
    t->header_fields = t->fields;
}

static int column(const Table *t, const char *name) {
    for (int i = 0; i < t->header_fields; i++)
        if (strcmp(t->header[i], name) == 0) return i;
    char what[160];
    snprintf(what, sizeof what, "no column '%s' in its header line", name);
    tsv_die(t->path, what);
    return -1;
}

int has_column(const Table *t, const char *name) {
    for (int i = 0; i < t->header_fields; i++)
        if (strcmp(t->header[i], name) == 0) return 1;
    return 0;
}

const char *cell(const Table *t, const char *name) {
    const int i = column(t, name);
    if (i >= t->fields) {
        char what[160];
        snprintf(what, sizeof what, "line %ld has no '%s' column", t->number, name);
        tsv_die(t->path, what);
    }
    return t->field[i];
}

double count(const Table *t, const char *name, double waves) {
    const char *text = cell(t, name);
    char *end;
    errno = 0;
    double a = strtod(text, &end), b = 0;
    if (*end == '+') b = strtod(end + 1, &end);
    if (end == text || *end != '\0' || errno || !isfinite(a) || !isfinite(b) || a < 0 || b < 0) {
        char what[200];
        snprintf(what, sizeof what, "line %ld: '%s' is not a count (column %s)", t->number, text, name);
        tsv_die(t->path, what);
    }
    return a + b * waves;
}

double optional_count(const Table *t, const char *name, double waves) {
    return has_column(t, name) ? count(t, name, waves) : NAN;
}

int model_listed(const char *list, const char *name) {
    const size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return 1;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

void model_plain_name(const char *name, char *out, size_t size) {
    size_t n = 0;
    for (const char *p = name; *p && n + 1 < size; p++) {
        if (*p == ' ') continue;
        if (strchr("uUlL", *p) && p > name && p[-1] >= '0' && p[-1] <= '9') continue;
        out[n++] = *p;
    }
    out[n] = '\0';
}
