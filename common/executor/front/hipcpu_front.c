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
 * sync; for CUDA, textures, the driver API, the libraries, and any cuda* name
 * the MAPPED_HEADERs given after OUTPUT lack) are refused here in one line
 * naming SOURCE:LINE, not by a cascade of compiler errors. A .cu file gets
 * #include <cuda_runtime.h> first, as nvcc gives it; a header beside SOURCE
 * included with quotes that holds a launch or __shared__ is rewritten in
 * place, once. Limits: the launch must be written out in the file (not
 * made by a macro), the kernel expression before <<< is a name with optional
 * :: and <template arguments>; comments, strings and character literals are
 * skipped; raw string literals are not understood. Host C11, no libraries. */
#define _POSIX_C_SOURCE 200809L /* strndup */
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
    {"cudaTextureObject_t", "texture objects (cudaTextureObject_t) are not supported by the CPU executor"},
    {"cudaSurfaceObject_t", "surface objects (cudaSurfaceObject_t) are not supported by the CPU executor"},
    {"cudaArray_t", "CUDA arrays (cudaArray_t, for textures and surfaces) are not supported by the CPU executor"},
    {"cudaGraph_t", "CUDA graphs are not supported by the CPU executor"},
    {"cudaGraphExec_t", "CUDA graphs are not supported by the CPU executor"},
    {"thrust::", "Thrust (a library) is not supported by the CPU executor: write the kernel out"},
    {"cub::", "CUB (a library) is not supported by the CPU executor: write the kernel out"},
    {"nvcuda::", "warp matrix functions (nvcuda::wmma) are not supported by the CPU executor"},
};

/* Families of names, by prefix, that the executor has no part of: the
 * driver API, the libraries, runtime compilation, graphics interop,
 * textures. IN_CODE: a word of the program that starts so; IN_INCLUDE: a
 * header #included by a name that starts so (named before the compiler
 * would stop at it with "file not found"). */
enum { IN_CODE = 1, IN_INCLUDE = 2 };
static const struct {
    const char *prefix;
    int where;
    const char *why;
} refused_families[] = {
    {"cu", IN_CODE, "the CUDA driver API (cu* calls) is not supported by the CPU executor: use the runtime API (cuda*)"},
    {"CU", IN_CODE, "the CUDA driver API's types (CU*) are not supported by the CPU executor: use the runtime API (cuda*)"},
    {"cublas", IN_CODE | IN_INCLUDE, "cuBLAS (a library) is not supported by the CPU executor: write the kernel out"},
    {"cufft", IN_CODE | IN_INCLUDE, "cuFFT (a library) is not supported by the CPU executor"},
    {"curand", IN_CODE | IN_INCLUDE, "cuRAND (a library) is not supported by the CPU executor"},
    {"cusparse", IN_CODE | IN_INCLUDE, "cuSPARSE (a library) is not supported by the CPU executor"},
    {"cusolver", IN_CODE | IN_INCLUDE, "cuSOLVER (a library) is not supported by the CPU executor"},
    {"cudnn", IN_CODE | IN_INCLUDE, "cuDNN (a library) is not supported by the CPU executor"},
    {"nvrtc", IN_CODE | IN_INCLUDE, "NVRTC (runtime compilation) is not supported by the CPU executor: kernels must be in the program's own source"},
    {"npp", IN_INCLUDE, "NPP (a library) is not supported by the CPU executor"},
    {"nvjpeg", IN_INCLUDE, "nvJPEG (a library) is not supported by the CPU executor"},
    {"thrust/", IN_INCLUDE, "Thrust (a library) is not supported by the CPU executor: write the kernel out"},
    {"cub/", IN_INCLUDE, "CUB (a library) is not supported by the CPU executor: write the kernel out"},
    {"cudaGraphics", IN_CODE, "graphics interop (cudaGraphics*) is not supported by the CPU executor"},
    {"cudaGL", IN_CODE | IN_INCLUDE, "OpenGL interop is not supported by the CPU executor"},
    {"cuda_gl_interop", IN_INCLUDE, "OpenGL interop is not supported by the CPU executor"},
    {"cudaEGL", IN_CODE, "EGL interop is not supported by the CPU executor"},
    {"cuda_egl_interop", IN_INCLUDE, "EGL interop is not supported by the CPU executor"},
    {"cudaD3D", IN_CODE, "Direct3D interop is not supported by the CPU executor"},
    {"cuda_d3d", IN_INCLUDE, "Direct3D interop is not supported by the CPU executor"},
    {"cudaGraph", IN_CODE, "CUDA graphs are not supported by the CPU executor"},
    {"cuda_fp16", IN_INCLUDE, "half precision (cuda_fp16.h) is not supported by the CPU executor"},
    {"cuda_bf16", IN_INCLUDE, "bfloat16 (cuda_bf16.h) is not supported by the CPU executor"},
    {"mma.h", IN_INCLUDE, "warp matrix functions (mma.h, nvcuda::wmma) are not supported by the CPU executor"},
    {"texture_fetch_functions", IN_INCLUDE, "texture fetches are not supported by the CPU executor"},
    {"tex1D", IN_CODE, "texture fetches are not supported by the CPU executor"},
    {"tex2D", IN_CODE, "texture fetches are not supported by the CPU executor"},
    {"tex3D", IN_CODE, "texture fetches are not supported by the CPU executor"},
    {"surf1D", IN_CODE, "surface accesses are not supported by the CPU executor"},
    {"surf2D", IN_CODE, "surface accesses are not supported by the CPU executor"},
    {"surf3D", IN_CODE, "surface accesses are not supported by the CPU executor"},
};

/* The cuda* names common/executor/cuda/ maps (read from its headers): any
 * other cuda* name in a program is refused in one line, not left to the
 * compiler's "undeclared identifier". */
static char **mapped;
static size_t mapped_count;

static void read_mapped_names(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "hipcpu_front: %s: cannot read it\n", path);
        exit(1);
    }
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        for (char *p = line; *p; p++) {
            if (strncmp(p, "cuda", 4) != 0 || (p > line && is_ident(p[-1])) || !isupper((unsigned char)p[4])) continue;
            size_t n = 0;
            while (is_ident(p[n])) n++;
            char **grown = realloc(mapped, (mapped_count + 1) * sizeof *mapped);
            if (!grown || !(grown[mapped_count] = strndup(p, n))) {
                fprintf(stderr, "hipcpu_front: out of memory\n");
                exit(1);
            }
            mapped = grown;
            mapped_count++;
            p += n - 1;
        }
    }
    fclose(f);
}

static int is_mapped(const char *word, size_t n) {
    for (size_t i = 0; i < mapped_count; i++)
        if (strlen(mapped[i]) == n && strncmp(mapped[i], word, n) == 0) return 1;
    return 0;
}

/* #include <name> or "name" at text[at] ('#'): refused when name is a header of a refused family. */
static void check_include(size_t at) {
    size_t i = at + 1;
    while (i < length && (text[i] == ' ' || text[i] == '\t')) i++;
    if (strncmp(text + i, "include", 7) != 0) return;
    i += 7;
    while (i < length && (text[i] == ' ' || text[i] == '\t')) i++;
    if (i >= length || (text[i] != '<' && text[i] != '"')) return;
    const char *name = text + i + 1;
    for (size_t r = 0; r < sizeof refused_families / sizeof refused_families[0]; r++)
        if ((refused_families[r].where & IN_INCLUDE) &&
            strncmp(name, refused_families[r].prefix, strlen(refused_families[r].prefix)) == 0) {
            char message[512];
            size_t n = 0;
            while (name[n] && name[n] != '>' && name[n] != '"' && name[n] != '\n' && n < 100) n++;
            snprintf(message, sizeof message, "#include <%.*s>: %s", (int)n, name, refused_families[r].why);
            refuse(at, message);
        }
}

/* A word of the program: refused when it is of a refused family, or a cuda* name the mapping lacks. */
static void check_word(size_t at, size_t n) {
    const char *word = text + at;
    for (size_t r = 0; r < sizeof refused / sizeof refused[0]; r++) {
        /* a namespace's name counts only with its :: (a variable may be called thrust) */
        size_t k = strlen(refused[r].word), colons = k > 2 && strcmp(refused[r].word + k - 2, "::") == 0 ? 2 : 0;
        if (k - colons == n && strncmp(word, refused[r].word, n) == 0 &&
            (!colons || (at + n + 2 <= length && strncmp(text + at + n, "::", 2) == 0)))
            refuse(at, refused[r].why);
    }
    for (size_t r = 0; r < sizeof refused_families / sizeof refused_families[0]; r++) {
        size_t k = strlen(refused_families[r].prefix);
        if (!(refused_families[r].where & IN_CODE) || n <= k || strncmp(word, refused_families[r].prefix, k) != 0) continue;
        /* cu and CU: the driver API's cuInit and CUresult, not curly or CUSTOM */
        if (k == 2 && !(word[0] == 'c' ? isupper((unsigned char)word[2]) : islower((unsigned char)word[2]))) continue;
        char message[512];
        snprintf(message, sizeof message, "%.*s: %s", (int)n, word, refused_families[r].why);
        refuse(at, message);
    }
    if (mapped_count && n > 4 && strncmp(word, "cuda", 4) == 0 && isupper((unsigned char)word[4]) && !is_mapped(word, n)) {
        char message[512];
        snprintf(message, sizeof message,
                 "%.*s is not supported by the CPU executor: common/executor/cuda/cuda_runtime.h maps the CUDA runtime "
                 "API that introductory programs use, and this is not part of it", (int)n, word);
        refuse(at, message);
    }
}

/* The file's text, read whole; NULL when it cannot be read. */
static char *read_whole(const char *name, size_t *size) {
    FILE *in = fopen(name, "rb");
    if (!in) return NULL;
    char *buffer = NULL, chunk[65536];
    size_t capacity = 0, n;
    while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) {
        char *grown = realloc(buffer, capacity + n + 1);
        if (!grown) {
            fprintf(stderr, "hipcpu_front: out of memory\n");
            exit(1);
        }
        buffer = grown;
        memcpy(buffer + capacity, chunk, n);
        capacity += n;
    }
    fclose(in);
    if (!buffer && !(buffer = calloc(1, 1))) exit(1);
    buffer[capacity] = '\0';
    *size = capacity;
    return buffer;
}

static void emit_line_mark(unsigned line, const char *name) {
    char number[32];
    snprintf(number, sizeof number, "#line %u \"", line);
    emit_text(number);
    for (const char *p = name; *p; p++) {
        if (*p == '"' || *p == '\\') emit_text("\\");
        emit(p, 1);
    }
    emit_text("\"\n");
}

static void rewrite_file(const char *name);

/* #include "name" at text[at] ('#'), of a header beside the including file that needs the
 * front end (a launch or an extern __shared__: the compiler would not take it as written, as
 * CUDA's sharedmem.cuh): its rewritten text in place of the line, each header once (as its
 * guard would have it). Returns the index past the line, or at when the include stays. */
static size_t inline_local_include(size_t at) {
    static char *done[64];
    static size_t ndone;
    size_t i = at + 1;
    while (i < length && (text[i] == ' ' || text[i] == '\t')) i++;
    if (strncmp(text + i, "include", 7) != 0) return at;
    i += 7;
    while (i < length && (text[i] == ' ' || text[i] == '\t')) i++;
    if (i >= length || text[i] != '"') return at;
    const char *close = memchr(text + i + 1, '"', length - i - 1);
    if (!close || memchr(text + i + 1, '\n', (size_t)(close - text) - i - 1)) return at;
    const char *slash = strrchr(source_name, '/');
    int folder = slash ? (int)(slash - source_name + 1) : 0;
    char path[4096];
    snprintf(path, sizeof path, "%.*s%.*s", folder, source_name, (int)(close - text - i - 1), text + i + 1);
    size_t size;
    char *header = read_whole(path, &size);
    if (!header) return at;
    int needs = strstr(header, "<<<") || strstr(header, "__shared__");
    free(header);
    if (!needs || ndone == sizeof done / sizeof done[0]) return at;
    for (size_t k = 0; k < ndone; k++)
        if (strcmp(done[k], path) == 0) return at;
    if (!(done[ndone++] = strdup(path))) exit(1);
    size_t end = (size_t)(close - text) + 1;
    while (end < length && text[end] != '\n') end++;
    /* the rest of the line would follow the header's text: only a comment may */
    const char *saved_text = text, *saved_name = source_name;
    size_t saved_length = length;
    unsigned resume = line_at(end) + 1;
    rewrite_file(path);
    text = saved_text, length = saved_length, source_name = saved_name;
    emit_text("\n");
    emit_line_mark(resume, source_name);
    return end < length ? end + 1 : end;
}

/* The rewriting of one file, appended to the output, from a #line naming it. */
static void rewrite_file(const char *name) {
    size_t size;
    char *buffer = read_whole(name, &size);
    if (!buffer) {
        fprintf(stderr, "hipcpu_front: %s: cannot read it\n", name);
        exit(1);
    }
    source_name = name;
    text = buffer;
    length = size;
    emit_line_mark(1, source_name);
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
            check_word(i, end - i);
            emit(text + i, end - i);
            i = end;
            continue;
        }
        if (text[i] == '#') {
            check_include(i);
            size_t next = inline_local_include(i);
            if (next != i) {
                i = next;
                continue;
            }
        }
        emit(text + i, 1);
        i++;
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: hipcpu_front SOURCE.hip OUTPUT.cpp [MAPPED_HEADER...]\n");
        return 2;
    }
    for (int a = 3; a < argc; a++) read_mapped_names(argv[a]);
    /* nvcc includes cuda_runtime.h first in every .cu file: so does this. */
    size_t name_length = strlen(argv[1]);
    if (name_length > 3 && strcmp(argv[1] + name_length - 3, ".cu") == 0) emit_text("#include <cuda_runtime.h>\n");
    rewrite_file(argv[1]);
    FILE *o = fopen(argv[2], "wb");
    if (!o || fwrite(out, 1, out_length, o) != out_length || fclose(o) != 0) {
        fprintf(stderr, "hipcpu_front: %s: cannot write it\n", argv[2]);
        return 1;
    }
    return 0;
}
