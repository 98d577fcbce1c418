/* hipcpu_front SOURCE OUTPUT: the CPU executor's front end for a learner's own
 * HIP file (make profile FILE=, make racecheck FILE=). The executor compiles
 * HIP as plain C++, which has no launch syntax and no `extern __shared__`, so
 * this rewrites those two constructs and copies everything else unchanged:
 *
 *   k<T><<<grid, block[, shared[, stream]]>>>(args)
 *     -> hipLaunchKernelGGL((k<T>), grid, block, shared or 0, stream or 0, args)
 *   extern __shared__ T name[];  ->  HIP_DYNAMIC_SHARED(T, name)
 *   static __shared__ T name[N];  ->  __shared__ T name[N]  (already static here)
 *
 * Every newline of SOURCE is kept where it was and the output starts with
 * #line 1 "SOURCE", so the compiler's messages and the trace's file:line call
 * sites name SOURCE's own lines. Constructs the executor cannot run (grid-wide
 * sync) are refused here in one line naming SOURCE:LINE, not by a cascade of
 * compiler errors. Limits: the launch must be written out in the file (not
 * made by a macro), the kernel expression before <<< is a name with optional
 * :: and <template arguments>; comments, strings and character literals are
 * skipped; raw string literals are not understood. Host C11, no libraries. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source_name;
static const char *text;
static size_t length;

/* The output, grown as it is written. */
static char *out;
static size_t out_length, out_capacity;

static void emit(const char *s, size_t n) {
    if (out_length + n + 1 > out_capacity) {
        out_capacity = (out_length + n + 1) * 2;
        out = realloc(out, out_capacity);
        if (!out) {
            fprintf(stderr, "hipcpu_front: out of memory\n");
            exit(1);
        }
    }
    memcpy(out + out_length, s, n);
    out_length += n;
    out[out_length] = '\0';
}
static void emit_text(const char *s) { emit(s, strlen(s)); }

static unsigned line_at(size_t at) {
    unsigned line = 1;
    for (size_t i = 0; i < at && i < length; i++) line += text[i] == '\n';
    return line;
}

static void refuse(size_t at, const char *what) {
    fprintf(stderr, "%s:%u: %s\n", source_name, line_at(at), what);
    exit(1);
}

/* Past the comment, string or character literal starting at i, or i. */
static size_t skip_literal(size_t i) {
    if (text[i] == '/' && i + 1 < length && text[i + 1] == '/') {
        while (i < length && text[i] != '\n') i++;
        return i;
    }
    if (text[i] == '/' && i + 1 < length && text[i + 1] == '*') {
        const char *end = strstr(text + i + 2, "*/");
        return end ? (size_t)(end - text) + 2 : length;
    }
    if (text[i] == '"' || text[i] == '\'') {
        char quote = text[i++];
        while (i < length && text[i] != quote && text[i] != '\n') i += text[i] == '\\' ? 2 : 1;
        return i < length ? i + 1 : length;
    }
    return i;
}

static int is_ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The end of the bracketed text opening at i ('(' '[' '{'): the index past its
 * closing bracket, comments and literals skipped. */
static size_t match_close(size_t i) {
    int depth = 0;
    while (i < length) {
        size_t past = skip_literal(i);
        if (past != i) {
            i = past;
            continue;
        }
        char c = text[i++];
        if (c == '(' || c == '[' || c == '{') depth++;
        if (c == ')' || c == ']' || c == '}')
            if (--depth == 0) return i;
    }
    return length;
}

/* Where the kernel expression before the output's end begins: a name with ::
 * and balanced <...>, or one parenthesised expression. Whitespace after it is
 * kept in *gap. */
static size_t kernel_start(size_t end, size_t *name_end) {
    size_t i = end;
    while (i > 0 && isspace((unsigned char)out[i - 1])) i--;
    *name_end = i;
    if (i > 0 && out[i - 1] == ')') { /* (kernel<a, b>) */
        int depth = 0;
        while (i > 0) {
            char c = out[--i];
            if (c == ')') depth++;
            if (c == '(' && --depth == 0) return i;
        }
        return i;
    }
    for (;;) {
        if (i > 0 && out[i - 1] == '>') {
            int depth = 0;
            while (i > 0) {
                char c = out[--i];
                if (c == '>') depth++;
                if (c == '<' && --depth == 0) break;
            }
            while (i > 0 && isspace((unsigned char)out[i - 1])) i--;
        }
        while (i > 0 && is_ident(out[i - 1])) i--;
        if (i >= 2 && out[i - 1] == ':' && out[i - 2] == ':') {
            i -= 2;
            continue;
        }
        return i;
    }
}

/* One <<<...>>> launch at text[at] ("<<<"); returns the index past its ')'. */
static size_t rewrite_launch(size_t at) {
    size_t name_end, start = kernel_start(out_length, &name_end);
    if (start == name_end) refuse(at, "a <<<...>>> launch with no kernel name before it: not understood by the CPU executor's front end");
    char *name = malloc(name_end - start + 1), *gap = malloc(out_length - name_end + 1);
    if (!name || !gap) refuse(at, "out of memory");
    memcpy(name, out + start, name_end - start);
    name[name_end - start] = '\0';
    memcpy(gap, out + name_end, out_length - name_end);
    gap[out_length - name_end] = '\0';
    out_length = start;
    emit_text("hipLaunchKernelGGL((");
    emit_text(name);
    emit_text(")");
    emit_text(gap);
    free(name);
    free(gap);
    /* The configuration: top-level commas split it; >>> at depth 0 ends it. */
    size_t i = at + 3, part_start = i;
    int parts = 0, depth = 0;
    for (;;) {
        if (i >= length) refuse(at, "a <<< launch with no closing >>>");
        size_t past = skip_literal(i);
        if (past != i) {
            i = past;
            continue;
        }
        char c = text[i];
        if (c == '(' || c == '[' || c == '{') depth++;
        if (c == ')' || c == ']' || c == '}') depth--;
        int closes = depth == 0 && c == '>' && i + 2 < length && text[i + 1] == '>' && text[i + 2] == '>';
        if (depth == 0 && (c == ',' || closes)) {
            emit_text(", ");
            emit(text + part_start, i - part_start);
            parts++;
            part_start = i + 1;
            if (closes) break;
        }
        i++;
    }
    if (parts < 2 || parts > 4) refuse(at, "a <<<...>>> launch needs 2 to 4 arguments (grid, block[, shared bytes[, stream]])");
    for (; parts < 4; parts++) emit_text(", 0");
    i += 3;
    size_t open = i;
    while (open < length && isspace((unsigned char)text[open])) open++;
    if (open >= length || text[open] != '(') refuse(at, "a <<<...>>> launch not followed by its (arguments)");
    emit(text + i, open - i); /* newlines between >>> and ( */
    size_t close = match_close(open);
    const char *args = text + open + 1;
    size_t args_length = close - open - 2;
    int empty = 1;
    for (size_t k = 0; k < args_length; k++) empty &= isspace((unsigned char)args[k]) != 0;
    if (!empty) emit_text(", ");
    emit(args, args_length);
    emit_text(")");
    return close;
}

/* extern __shared__ T name[]; at text[at] ("extern"); returns the index past
 * its ';', or at when it is not one. */
static size_t rewrite_dynamic_shared(size_t at) {
    size_t i = at + 6;
    while (i < length && isspace((unsigned char)text[i])) i++;
    if (strncmp(text + i, "__shared__", 10) != 0 || is_ident(text[i + 10])) return at;
    i += 10;
    const char *semi = memchr(text + i, ';', length - i);
    if (!semi) return at;
    size_t end = (size_t)(semi - text), close = end;
    while (close > i && isspace((unsigned char)text[close - 1])) close--;
    if (close < 2 || text[close - 1] != ']') refuse(at, "extern __shared__ must declare an unsized array (extern __shared__ T name[];)");
    size_t open = close - 1;
    while (open > i && text[open] != '[') open--;
    size_t name_end = open;
    while (name_end > i && isspace((unsigned char)text[name_end - 1])) name_end--;
    size_t name_start = name_end;
    while (name_start > i && is_ident(text[name_start - 1])) name_start--;
    if (name_start == name_end) refuse(at, "extern __shared__ without a name");
    emit_text("HIP_DYNAMIC_SHARED(");
    emit(text + i, name_start - i);
    emit_text(", ");
    emit(text + name_start, name_end - name_start);
    emit_text(")");
    for (size_t k = at; k < end; k++)
        if (text[k] == '\n') emit_text("\n");
    return end + 1;
}

/* Whole words the executor cannot run, and why, in one line each. */
static const struct {
    const char *word, *why;
} refused[] = {
    {"this_grid", "cooperative_groups::this_grid() (grid-wide sync) is not supported by the CPU executor: it runs one block at a time, so no block can wait for the others"},
    {"grid_group", "cooperative_groups::grid_group (grid-wide sync) is not supported by the CPU executor: it runs one block at a time, so no block can wait for the others"},
    {"this_multi_grid", "cooperative_groups::this_multi_grid() (multi-device sync) is not supported by the CPU executor"},
    {"hipLaunchCooperativeKernelMultiDevice", "hipLaunchCooperativeKernelMultiDevice is not supported by the CPU executor (one device)"},
    {"hipModuleLoad", "hipModuleLoad (the module API) is not supported by the CPU executor: kernels must be in the program's own source"},
    {"hiprtcCreateProgram", "hiprtc (runtime compilation) is not supported by the CPU executor"},
    {"texture", "texture references are not supported by the CPU executor"},
    {"hipTextureObject_t", "texture objects (hipTextureObject_t) are not supported by the CPU executor"},
    {"__builtin_amdgcn_s_sleep", "__builtin_amdgcn_* builtins are not supported by the CPU executor"},
    {"asm", "inline assembly (asm) is not supported by the CPU executor: the kernels run as C++ on the host"},
};

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: hipcpu_front SOURCE.hip OUTPUT.cpp\n");
        return 2;
    }
    source_name = argv[1];
    FILE *in = fopen(argv[1], "rb");
    if (!in) {
        fprintf(stderr, "hipcpu_front: %s: cannot read it\n", argv[1]);
        return 1;
    }
    char *buffer = NULL;
    size_t capacity = 0, n;
    char chunk[65536];
    while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        buffer = realloc(buffer, capacity + n + 1);
        if (!buffer) return 1;
        memcpy(buffer + capacity, chunk, n);
        capacity += n;
    }
    fclose(in);
    if (!buffer) buffer = calloc(1, 1);
    buffer[capacity] = '\0';
    text = buffer;
    length = capacity;

    emit_text("#line 1 \"");
    for (const char *p = source_name; *p; p++) {
        if (*p == '"' || *p == '\\') emit_text("\\");
        emit(p, 1);
    }
    emit_text("\"\n");
    size_t i = 0;
    while (i < length) {
        size_t past = skip_literal(i);
        if (past != i) {
            emit(text + i, past - i);
            i = past;
            continue;
        }
        if (text[i] == '<' && strncmp(text + i, "<<<", 3) == 0) {
            i = rewrite_launch(i);
            continue;
        }
        if (is_ident(text[i]) && (i == 0 || !is_ident(text[i - 1]))) {
            size_t end = i;
            while (end < length && is_ident(text[end])) end++;
            if (end - i == 6 && strncmp(text + i, "extern", 6) == 0) {
                size_t next = rewrite_dynamic_shared(i);
                if (next != i) {
                    i = next;
                    continue;
                }
            }
            /* static __shared__: the executor's __shared__ is already static */
            if (end - i == 6 && strncmp(text + i, "static", 6) == 0) {
                size_t next = end;
                while (next < length && isspace((unsigned char)text[next])) next++;
                if (strncmp(text + next, "__shared__", 10) == 0 && !is_ident(text[next + 10])) {
                    i = end;
                    continue;
                }
            }
            for (size_t r = 0; r < sizeof refused / sizeof refused[0]; r++)
                if (strlen(refused[r].word) == end - i && strncmp(text + i, refused[r].word, end - i) == 0)
                    refuse(i, refused[r].why);
            emit(text + i, end - i);
            i = end;
            continue;
        }
        emit(text + i, 1);
        i++;
    }
    FILE *o = fopen(argv[2], "wb");
    if (!o || fwrite(out, 1, out_length, o) != out_length || fclose(o) != 0) {
        fprintf(stderr, "hipcpu_front: %s: cannot write it\n", argv[2]);
        return 1;
    }
    return 0;
}
