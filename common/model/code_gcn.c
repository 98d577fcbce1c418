/* Reads hipcc's AMD GCN/CDNA assembly (--cuda-device-only -S, gfx906 to
 * gfx940) into the compiled-code form (code.h): each kernel's instructions in
 * program order, its labels, source lines and resources. Device functions
 * that were not inlined are skipped: only kernels are simulated. */
#include "code.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define GCN_LINE_MAX 4096 /* longer lines are an error, never cut short */
#define MAX_TOKENS 32

typedef struct {
    const char *path;
    char *err;
    size_t err_size;
    int lineno;
    CodeFile *out;
    char **lines;
    int nlines;
    struct {
        const char *name; /* in the text, not NUL-terminated */
        size_t len;
        int is_kernel;    /* .amdhsa_kernel names it (or the file names no kernel, and .type makes it a function) */
        int kernel, line; /* its index in out->kernels (-1 until its entry label), that label's line */
    } *syms;
    int nsyms;
    struct { int number; char name[256]; } *files; /* .file N: the file's base name */
    int nfiles;
    struct { int kernel, lineno; char label[48]; } *branches; /* checked before code_finish */
    int nbranches;
    int cur;            /* the kernel being read, -1 outside kernels */
    int last_function;  /* the kernel of the last function entered (-1: not a kernel), for "; Occupancy" */
    int descriptor;     /* the kernel of the .amdhsa_kernel block being read, -1 */
    int loc_file, loc_line, line_index; /* line_index: -2 until an instruction needs it */
    int narrowed;       /* exec narrowed earlier in this block (guarded, below) */
    char far_label[48]; /* a long branch's target, from its s_add_u32 (label-.Lpost_getpcN) */
} Reader;

/* An error naming the input and its line. */
#define fail(r, ...) code_error((r)->err, (r)->err_size, (r)->path, (r)->lineno, __VA_ARGS__)

static void *must(void *p) {
    if (!p) {
        fprintf(stderr, "code_gcn: out of memory\n");
        exit(1);
    }
    return p;
}

static void *grow_array(void *array, int count, size_t item) { return must(realloc(array, (size_t)(count + 1) * item)); }

static int starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

static int find_symbol(const Reader *r, const char *name, size_t len) {
    for (int i = 0; i < r->nsyms; i++)
        if (r->syms[i].len == len && strncmp(r->syms[i].name, name, len) == 0) return i;
    return -1;
}

/* The whole input as lines, in memory: the kernels are known only from the
 * .amdhsa_kernel blocks that follow their code. */
static int read_lines(Reader *r, FILE *in, char **text) {
    size_t cap = 1 << 16, len = 0, got;
    char *buf = must(malloc(cap + 1));
    while ((got = fread(buf + len, 1, cap - len, in)) > 0)
        if ((len += got) == cap) buf = must(realloc(buf, (cap *= 2) + 1));
    buf[len] = '\0';
    *text = buf;
    if (ferror(in)) return fail(r, "could not be read");
    size_t count = 1;
    for (size_t i = 0; i < len; i++) count += buf[i] == '\n';
    r->lines = must(malloc(count * sizeof *r->lines));
    for (char *line = buf, *end; line < buf + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(buf + len - line));
        if (!end) end = buf + len;
        *end = '\0';
        r->lineno = r->nlines + 1;
        if (end - line >= GCN_LINE_MAX) return fail(r, "a line longer than %d characters", GCN_LINE_MAX - 1);
        if (strlen(line) != (size_t)(end - line)) return fail(r, "a NUL byte: not assembly text");
        if (end > line && end[-1] == '\r') end[-1] = '\0';
        r->lines[r->nlines++] = line;
    }
    return 0;
}

/* The first word of s (after blanks) into word; returns what follows it. */
static char *first_word(char *s, char *word, size_t size) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strcspn(s, " \t,");
    snprintf(word, size, "%.*s", (int)(n < size ? n : size - 1), s);
    return s + n;
}

/* Kernels, functions and the target, before any code is read. */
static void scan_declarations(Reader *r, char *arch, size_t arch_size) {
    char word[GCN_LINE_MAX];
    int kernels = 0;
    for (int i = 0; i < r->nlines; i++) {
        char *rest = first_word(r->lines[i], word, sizeof word);
        const char *gfx = strstr(r->lines[i], "--offload-arch=gfx");
        gfx = strcmp(word, ".amdgcn_target") == 0 ? strstr(rest, "gfx") : gfx ? gfx + 15 : NULL;
        if (gfx && !arch[0]) snprintf(arch, arch_size, "%.*s", (int)strspn(gfx, "abcdefghijklmnopqrstuvwxyz0123456789"), gfx);
        int kernel = strcmp(word, ".amdhsa_kernel") == 0;
        if (!kernel && (strcmp(word, ".type") != 0 || !strstr(rest, "@function"))) continue;
        rest += strspn(rest, " \t");
        size_t len = strcspn(rest, " \t,");
        int s = find_symbol(r, rest, len);
        if (len == 0) continue;
        if (s < 0) {
            r->syms = grow_array(r->syms, r->nsyms, sizeof *r->syms);
            s = r->nsyms++;
            r->syms[s].name = rest, r->syms[s].len = len, r->syms[s].is_kernel = 0, r->syms[s].kernel = -1;
        }
        r->syms[s].is_kernel |= kernel;
        kernels += kernel;
    }
    if (kernels == 0) /* a file cut short of its descriptors: every function is a kernel */
        for (int s = 0; s < r->nsyms; s++) r->syms[s].is_kernel = 1;
}

/* Operands and modifiers, split at commas and blanks outside brackets. */
static int split_operands(char *s, char **tokens) {
    int n = 0, depth = 0;
    char *start = NULL;
    for (char *p = s;; p++) {
        char c = *p;
        int separator = c == '\0' || (depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '&'));
        if (c == '[' || c == '(') depth++;
        if ((c == ']' || c == ')') && depth > 0) depth--;
        if (separator && start) {
            *p = '\0';
            if (n < MAX_TOKENS) tokens[n++] = start;
            start = NULL;
        } else if (!separator && !start) {
            start = p;
        }
        if (c == '\0') return n;
    }
}

/* The 32-bit registers an operand names (code.h's numbering: v 0..255,
 * a 256.., s 1000.., vcc 1200-1201, exec 1202-1203, scc 1204); 0 if none. */
static int operand_registers(const char *t, int *regs) {
    while (*t == '-' || *t == '|' || *t == '!') t++;
    static const struct { const char *name; int first, count; } special[] = {
        {"vcc", 1200, 2}, {"vcc_lo", 1200, 1}, {"vcc_hi", 1201, 1},   {"exec", 1202, 2},
        {"exec_lo", 1202, 1}, {"exec_hi", 1203, 1}, {"scc", 1204, 1},
    };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
        size_t n = strlen(special[i].name);
        if (strncmp(t, special[i].name, n) == 0 && (t[n] == '\0' || t[n] == '|')) {
            for (int k = 0; k < special[i].count; k++) regs[k] = special[i].first + k;
            return special[i].count;
        }
    }
    int base = *t == 'v' ? 0 : *t == 'a' ? 256 : *t == 's' ? 1000 : -1, limit = *t == 's' ? 105 : 255;
    if (base < 0) return 0;
    char *end;
    long lo, hi;
    if (t[1] == '[') {
        if (!isdigit((unsigned char)t[2])) return 0;
        lo = hi = strtol(t + 2, &end, 10);
        if (*end == ':') {
            if (!isdigit((unsigned char)end[1])) return 0;
            hi = strtol(end + 1, &end, 10);
        }
        if (*end++ != ']') return 0;
    } else {
        if (!isdigit((unsigned char)t[1])) return 0;
        lo = hi = strtol(t + 1, &end, 10);
    }
    if ((*end != '\0' && *end != '|') || hi < lo || hi > limit || hi - lo >= MAX_TOKENS) return 0;
    for (long k = lo; k <= hi; k++) regs[k - lo] = base + (int)k;
    return (int)(hi - lo + 1);
}

/* Bytes a lane moves: the first size word in the mnemonic; ds_read2/write2 move two. */
static int memory_bytes(const char *op) {
    static const struct { const char *word; int bytes; } sizes[] = {
        {"dword", 4},  {"dwordx2", 8},  {"dwordx3", 12}, {"dwordx4", 16}, {"dwordx8", 32}, {"dwordx16", 64},
        {"ubyte", 1},  {"sbyte", 1},    {"byte", 1},     {"u8", 1},       {"i8", 1},       {"b8", 1},
        {"ushort", 2}, {"sshort", 2},   {"short", 2},    {"u16", 2},      {"i16", 2},      {"b16", 2},
        {"d16", 2},    {"b32", 4},      {"u32", 4},      {"i32", 4},      {"f32", 4},      {"b64", 8},
        {"u64", 8},    {"i64", 8},      {"f64", 8},      {"x2", 8},       {"b96", 12},     {"b128", 16},
        {"b256", 32},  {"b512", 64},    {"x", 4},        {"xy", 8},       {"xyz", 12},     {"xyzw", 16},
    };
    int times = strstr(op, "read2") || strstr(op, "write2") || strstr(op, "load_2addr") || strstr(op, "store_2addr") ? 2 : 1;
    for (const char *part = strchr(op, '_'); part; part = strchr(part + 1, '_')) {
        size_t n = strcspn(part + 1, "_");
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            if (strlen(sizes[i].word) == n && strncmp(part + 1, sizes[i].word, n) == 0) return sizes[i].bytes * times;
    }
    return 4; /* an atomic that names no size: a dword */
}

/* Transcendental, double precision and quarter-rate integer ops. MFMA is VALU. */
static int is_trans(const char *op) {
    static const char *const slow[] = {"v_exp_",       "v_log_",       "v_rcp_",        "v_rsq_",
                                       "v_sqrt_",      "v_sin_",       "v_cos_",        "v_mul_lo_u32",
                                       "v_mul_hi_u32", "v_mul_lo_i32", "v_mul_hi_i32", "v_mad_u64_u32",
                                       "v_mad_i64_i32"};
    if (starts(op, "v_mfma") || starts(op, "v_smfma")) return 0;
    for (size_t i = 0; i < sizeof slow / sizeof slow[0]; i++)
        if (starts(op, slow[i])) return 1;
    return strstr(op, "_f64") != NULL;
}

static int valu_flops(const char *op) {
    static const struct { const char *op; int flops; } table[] = {
        {"v_fma_f32", 2},    {"v_fmac_f32", 2},   {"v_mac_f32", 2},    {"v_mad_f32", 2},    {"v_madak_f32", 2},
        {"v_madmk_f32", 2},  {"v_fmaak_f32", 2},  {"v_fmamk_f32", 2},  {"v_pk_fma_f32", 4}, {"v_add_f32", 1},
        {"v_sub_f32", 1},    {"v_subrev_f32", 1}, {"v_mul_f32", 1},    {"v_min_f32", 1},    {"v_max_f32", 1},
        {"v_pk_add_f32", 2}, {"v_pk_mul_f32", 2},
    };
    char base[32]; /* the op without its encoding: v_add_f32_e64 is v_add_f32 */
    snprintf(base, sizeof base, "%.*s", (int)sizeof base - 1, op);
    char *encoding = strrchr(base, '_');
    if (encoding && (!strcmp(encoding, "_e32") || !strcmp(encoding, "_e64") || !strcmp(encoding, "_sdwa") || !strcmp(encoding, "_dpp")))
        *encoding = '\0';
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(base, table[i].op) == 0) return table[i].flops;
    return 0;
}

/* Pipe, memory, bytes and flops from the mnemonic; *writes: its first
 * operand is a register it writes. */
static void classify(const char *op, CodeInsn *in, int *writes) {
    static const char *const markers[] = {"s_endpgm", "s_nop",   "s_sleep",      "s_setprio",   "s_sendmsg", "s_trap",
                                          "s_icache_inv", "s_dcache_", "s_code_end", "s_ttrace", "s_inst_prefetch"};
    *writes = 1;
    if (starts(op, "v_")) {
        in->pipe = is_trans(op) ? CODE_PIPE_TRANS : CODE_PIPE_VALU;
        in->flops = (unsigned char)valu_flops(op);
    } else if (starts(op, "ds_")) {
        in->pipe = CODE_PIPE_LDS;
        int read = starts(op, "ds_read") || starts(op, "ds_load") || starts(op, "ds_bpermute") ||
                   starts(op, "ds_permute") || starts(op, "ds_swizzle");
        int write = starts(op, "ds_write") || starts(op, "ds_store");
        in->mem = read ? CODE_MEM_LDS_LOAD : write ? CODE_MEM_LDS_STORE : CODE_MEM_LDS_ATOMIC;
        in->bytes = (unsigned char)memory_bytes(op);
        *writes = read || strstr(op, "_rtn") || starts(op, "ds_append") || starts(op, "ds_consume");
    } else if (starts(op, "global_") || starts(op, "flat_") || starts(op, "buffer_") || starts(op, "scratch_")) {
        in->pipe = CODE_PIPE_VMEM;
        int scratch = starts(op, "buffer_") || starts(op, "scratch_"); /* gfx9 reaches global memory by global_/flat_ */
        if (strstr(op, "_atomic")) in->mem = CODE_MEM_GLOBAL_ATOMIC;
        else if (strstr(op, "_load")) in->mem = scratch ? CODE_MEM_SCRATCH_LOAD : CODE_MEM_GLOBAL_LOAD;
        else if (strstr(op, "_store")) in->mem = scratch ? CODE_MEM_SCRATCH_STORE : CODE_MEM_GLOBAL_STORE;
        if (in->mem != CODE_MEM_NONE) in->bytes = (unsigned char)memory_bytes(op);
        *writes = strstr(op, "_load") != NULL; /* an atomic writes only if it returns (its glc) */
    } else if (starts(op, "s_waitcnt") || starts(op, "s_wait_")) {
        in->pipe = CODE_PIPE_WAIT;
        *writes = 0;
    } else if (starts(op, "s_barrier")) {
        in->pipe = CODE_PIPE_BARRIER;
        *writes = 0;
    } else if (starts(op, "s_cbranch_") || strcmp(op, "s_branch") == 0 || strcmp(op, "s_setpc_b64") == 0) {
        in->pipe = CODE_PIPE_BRANCH;
        in->conditional = starts(op, "s_cbranch_");
        *writes = 0;
    } else if (strcmp(op, "s_swappc_b64") == 0 || strcmp(op, "s_call_b64") == 0) {
        in->pipe = CODE_PIPE_BRANCH;
        in->conditional = 1; /* a call comes back: control goes on to the next instruction */
    } else if (starts(op, "s_load_") || starts(op, "s_buffer_load_") || starts(op, "s_scratch_load_")) {
        in->pipe = CODE_PIPE_SMEM;
        in->mem = CODE_MEM_SCALAR_LOAD;
        in->bytes = (unsigned char)memory_bytes(op);
    } else if (starts(op, "s_store_") || starts(op, "s_buffer_store_") || starts(op, "s_scratch_store_")) {
        in->pipe = CODE_PIPE_SMEM;
        *writes = 0;
    } else if (strcmp(op, "s_memtime") == 0 || strcmp(op, "s_memrealtime") == 0) {
        in->pipe = CODE_PIPE_SMEM;
    } else {
        in->pipe = CODE_PIPE_SALU;
        for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++)
            if (starts(op, markers[i])) in->pipe = CODE_PIPE_OTHER;
        *writes = in->pipe == CODE_PIPE_SALU && !starts(op, "s_cmp") && !starts(op, "s_bitcmp") && !starts(op, "s_setreg");
    }
}

static int parse_count(const char *s, long *value) {
    char *end;
    if (!isdigit((unsigned char)*s)) return 0;
    *value = strtol(s, &end, 0);
    return (*end == '\0' || *end == ')') && *value >= 0 && *value <= 0xffff;
}

/* s_waitcnt's limits: vmcnt(N) lgkmcnt(N) expcnt(N), or the encoded number. */
static int read_waits(Reader *r, const char *op, char **tokens, int n, CodeInsn *in) {
    long v;
    int gfx10 = starts(r->out->arch, "gfx1"); /* gfx10 and later: a 6-bit lgkmcnt */
    if (strcmp(op, "s_waitcnt") == 0) {
        for (int i = 0; i < n; i++) {
            const char *t = tokens[i];
            if (starts(t, "vmcnt(") && parse_count(t + 6, &v)) in->wait[CODE_WAIT_VM] = (signed char)(v > 63 ? 63 : v);
            else if (starts(t, "lgkmcnt(") && parse_count(t + 8, &v)) in->wait[CODE_WAIT_LGKM] = (signed char)(v > 63 ? 63 : v);
            else if (starts(t, "expcnt(") && parse_count(t + 7, &v)) continue;
            else if (parse_count(t, &v)) { /* gfx9's encoding: vmcnt in bits 3:0 and 15:14, lgkmcnt from bit 8 */
                long vm = (v & 0xf) | ((v >> 10) & 0x30), lgkm = (v >> 8) & (gfx10 ? 0x3f : 0xf);
                in->wait[CODE_WAIT_VM] = (signed char)(vm == 63 ? -1 : vm);
                in->wait[CODE_WAIT_LGKM] = (signed char)(lgkm == (gfx10 ? 63 : 15) ? -1 : lgkm);
            } else return fail(r, "s_waitcnt: cannot read \"%s\"", t);
        }
        return 0;
    }
    /* gfx10's s_waitcnt_vmcnt null, 0x2; gfx12's s_wait_loadcnt 0x2 */
    int counter = strcmp(op, "s_waitcnt_vmcnt") == 0 || strcmp(op, "s_wait_loadcnt") == 0 ? CODE_WAIT_VM
                  : strcmp(op, "s_waitcnt_lgkmcnt") == 0 || strcmp(op, "s_wait_dscnt") == 0 || strcmp(op, "s_wait_kmcnt") == 0
                      ? CODE_WAIT_LGKM
                      : -1;
    if (counter < 0) return 0;
    if (n < 1 || !parse_count(tokens[n - 1], &v)) return fail(r, "%s: cannot read its count", op);
    in->wait[counter] = (signed char)(v > 63 ? 63 : v);
    return 0;
}

/* Guarded: a VMEM or LDS instruction issued after an instruction that
 * narrowed exec (s_and_saveexec, s_and/andn2/xor with exec as destination,
 * v_cmpx) in the same block: before exec is restored (s_or/s_mov to exec,
 * s_or_saveexec) and before any label or branch. Such an instruction issues
 * on every wave that reaches the block, whatever lanes are on, like an
 * NVIDIA @P instruction. A block that s_cbranch_execz skips when no lane is
 * on (hipcc always branches round memory instructions) is not guarded: the
 * waves that run it are those with a lane on, as with a branch round it. */
static void track_exec(Reader *r, const char *op, char **tokens, int n) {
    int to_exec = n > 0 && (strcmp(tokens[0], "exec") == 0 || strcmp(tokens[0], "exec_lo") == 0);
    if ((starts(op, "s_and") && strstr(op, "saveexec")) || starts(op, "v_cmpx") ||
        (to_exec && (starts(op, "s_and") || starts(op, "s_xor"))))
        r->narrowed = 1;
    else if (starts(op, "s_or_saveexec") || (to_exec && (starts(op, "s_or") || starts(op, "s_mov"))))
        r->narrowed = 0;
}

/* The base name .file gave number, or NULL. */
static const char *file_name(const Reader *r, int number) {
    for (int f = r->nfiles; f-- > 0;)
        if (r->files[f].number == number) return r->files[f].name;
    return NULL;
}

static int read_instruction(Reader *r, const char *op, char *operands) {
    CodeKernel *k = &r->out->kernels[r->cur];
    CodeInsn in;
    code_insn_clear(&in);
    snprintf(in.op, sizeof in.op, "%.*s", (int)sizeof in.op - 1, op); /* longer ones are cut (code.h) */
    int writes;
    classify(op, &in, &writes);
    char *tokens[MAX_TOKENS];
    int n = split_operands(operands, tokens);
    if (in.pipe == CODE_PIPE_WAIT && read_waits(r, op, tokens, n, &in) != 0) return -1;
    for (int i = 0; i < n; i++) {
        if (strcmp(tokens[i], "glc") == 0 || strcmp(tokens[i], "sc0") == 0 || starts(tokens[i], "th:TH_ATOMIC_RETURN"))
            if (in.mem == CODE_MEM_GLOBAL_ATOMIC) writes = 1; /* a returning atomic: its first operand is the old value */
        if (tokens[i][0] == '(' && strstr(tokens[i], "-.Lpost_getpc")) /* a long branch's (.LBB0_2-.Lpost_getpc3)&... */
            snprintf(r->far_label, sizeof r->far_label, "%.*s", (int)strcspn(tokens[i] + 1, "-"), tokens[i] + 1);
    }
    for (int i = 0; i < n; i++) {
        int regs[MAX_TOKENS], count = operand_registers(tokens[i], regs);
        for (int j = 0; j < count; j++) {
            if (i == 0 && writes) {
                if (in.ndst < CODE_MAX_DST) in.dst[in.ndst++] = regs[j];
            } else if (in.nsrc < CODE_MAX_SRC) {
                in.src[in.nsrc++] = regs[j];
            }
        }
    }
    const char *label = NULL;
    if (starts(op, "s_cbranch_") || strcmp(op, "s_branch") == 0) {
        if (n < 1) return fail(r, "%s without a label", op);
        label = tokens[0];
    } else if (strcmp(op, "s_setpc_b64") == 0 && r->far_label[0]) {
        label = r->far_label;
    }
    if (strcmp(op, "s_getpc_b64") == 0) r->far_label[0] = '\0';
    in.guarded = (unsigned char)(r->narrowed && (in.pipe == CODE_PIPE_VMEM || in.pipe == CODE_PIPE_LDS));
    track_exec(r, op, tokens, n);
    if (r->line_index == -2) {
        const char *file = file_name(r, r->loc_file);
        char where[300];
        snprintf(where, sizeof where, "%s:%d", file ? file : "?", r->loc_line);
        r->line_index = r->loc_line > 0 ? code_line(k, where) : -1;
    }
    in.line = r->line_index;
    if (label) {
        r->branches = grow_array(r->branches, r->nbranches, sizeof *r->branches);
        r->branches[r->nbranches].kernel = r->cur;
        r->branches[r->nbranches].lineno = r->lineno;
        snprintf(r->branches[r->nbranches++].label, sizeof r->branches[0].label, "%.47s", label);
    }
    code_add_insn(k, &in, label);
    if (in.pipe == CODE_PIPE_BRANCH || strcmp(op, "s_endpgm") == 0) r->narrowed = 0;
    if (strcmp(op, "s_setpc_b64") == 0) r->far_label[0] = '\0';
    return 0;
}

/* .file N "dir" "name" [md5 ...] or .file N "path": the name without folders. */
static void read_file_directive(Reader *r, const char *rest) {
    char *end;
    long number = strtol(rest, &end, 10);
    if (end == rest) return; /* .file "name": the unit's name, no .loc refers to it */
    const char *name = NULL, *name_end = NULL;
    for (const char *p = end; *p && !(name && starts(p, " md5")); p++) {
        if (*p != '"') continue;
        const char *q = p + 1;
        while (*q && *q != '"') q += q[0] == '\\' && q[1] ? 2 : 1;
        if (!*q) break;
        name = p + 1, name_end = q, p = q;
    }
    if (!name) return;
    for (const char *p = name; p < name_end; p++)
        if (*p == '/') name = p + 1;
    r->files = grow_array(r->files, r->nfiles, sizeof *r->files);
    r->files[r->nfiles].number = (int)number;
    snprintf(r->files[r->nfiles++].name, sizeof r->files[0].name, "%.*s", (int)(name_end - name), name);
}

/* The .amdhsa_kernel block's resources (it follows the code: the kernel is found by name). */
static void read_resource(Reader *r, const char *directive, const char *rest) {
    if (r->descriptor < 0) return;
    CodeKernel *k = &r->out->kernels[r->descriptor];
    int *fields[] = {&k->vgprs, &k->sgprs, &k->lds_bytes, &k->scratch_lane_bytes};
    const char *names[] = {".amdhsa_next_free_vgpr", ".amdhsa_next_free_sgpr", ".amdhsa_group_segment_fixed_size",
                           ".amdhsa_private_segment_fixed_size"};
    char *end;
    long v = strtol(rest, &end, 10);
    if (end == rest || *(end + strspn(end, " \t")) || v < 0 || v > 1 << 24) return; /* an expression (newer LLVM) */
    for (int i = 0; i < 4; i++)
        if (strcmp(directive, names[i]) == 0) *fields[i] = (int)v;
}

static int read_directive(Reader *r, const char *directive, char *rest) {
    char word[GCN_LINE_MAX];
    if (strcmp(directive, ".file") == 0) read_file_directive(r, rest);
    else if (strcmp(directive, ".loc") == 0) {
        char *file_end, *line_end;
        long file = strtol(rest, &file_end, 10), line = strtol(file_end, &line_end, 10);
        if (file_end == rest || line_end == file_end || line < 0 || line > 100000000)
            return fail(r, ".loc: cannot read its file and line");
        if (line > 0 && !file_name(r, (int)file)) return fail(r, ".loc names file %ld, which no .file declared", file);
        r->loc_file = (int)file, r->loc_line = (int)line, r->line_index = -2; /* line 0: unknown */
    } else if (strcmp(directive, ".amdhsa_kernel") == 0) {
        first_word(rest, word, sizeof word);
        int s = find_symbol(r, word, strlen(word));
        r->descriptor = s >= 0 ? r->syms[s].kernel : -1;
    } else if (strcmp(directive, ".end_amdhsa_kernel") == 0) r->descriptor = -1;
    else if (starts(directive, ".amdhsa_")) read_resource(r, directive, rest);
    return 0;
}

static void read_label(Reader *r, const char *label, const char *names) {
    int s = find_symbol(r, label, strlen(label));
    if (s >= 0 && r->syms[s].is_kernel) { /* a kernel's entry */
        char name[sizeof r->out->kernels[0].name];
        code_trace_name(names, label, name, sizeof name);
        code_add_kernel(r->out, name);
        r->cur = r->last_function = r->syms[s].kernel = r->out->nkernels - 1;
        r->syms[s].line = r->lineno;
        r->narrowed = 0, r->line_index = -2, r->loc_line = 0, r->far_label[0] = '\0';
    } else if (s >= 0) {
        r->cur = r->last_function = -1; /* a device function: skipped */
    } else if (starts(label, ".Lfunc_end")) {
        r->cur = -1; /* its "; Occupancy" follows: last_function stays */
    } else if (r->cur >= 0 && !starts(label, ".Ltmp") && !starts(label, ".Lfunc_begin") && !starts(label, ".Lpost_getpc")) {
        code_add_label(&r->out->kernels[r->cur], label);
        r->narrowed = 0;
    }
}

static int read_line(Reader *r, char *line, const char *names) {
    const char *text = line + strspn(line, " \t");
    if (starts(text, "; %bb.") && r->cur >= 0) { /* a block LLVM falls into: no label, but a block */
        char label[48];
        snprintf(label, sizeof label, "%%bb.%.*s", (int)strspn(text + 6, "0123456789"), text + 6);
        code_add_label(&r->out->kernels[r->cur], label);
        r->narrowed = 0;
        return 0;
    }
    if (starts(text, "; Occupancy:") && r->last_function >= 0) {
        r->out->kernels[r->last_function].waves_per_simd = atoi(text + 12);
        return 0;
    }
    int quoted = 0; /* the comment, from the first ; outside a string */
    for (char *p = line; *p; p++) {
        if (*p == '\\' && quoted && p[1]) p++;
        else if (*p == '"') quoted = !quoted;
        else if (*p == ';' && !quoted) {
            *p = '\0';
            break;
        }
    }
    char word[GCN_LINE_MAX];
    char *rest = first_word(line, word, sizeof word);
    size_t len = strlen(word);
    if (len == 0) return 0;
    if (word[len - 1] == ':') {
        word[len - 1] = '\0';
        read_label(r, word, names);
        return 0;
    }
    if (word[0] == '.') return read_directive(r, word, rest);
    static const char *const prefixes[] = {"s_", "v_", "global_", "buffer_", "flat_", "ds_", "scratch_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (starts(word, prefixes[i]) && r->cur >= 0) return read_instruction(r, word, rest);
    return 0;
}

/* Every branch's label must start a block of its kernel: said here with the line. */
static int check_branches(Reader *r) {
    for (int b = 0; b < r->nbranches; b++) {
        const CodeKernel *k = &r->out->kernels[r->branches[b].kernel];
        int found = 0;
        for (int l = 0; l < k->nlabels && !found; l++)
            found = k->label_insn[l] < k->ninsns && strcmp(k->pending_labels[l], r->branches[b].label) == 0;
        if (!found) {
            r->lineno = r->branches[b].lineno;
            return fail(r, "a branch to %s, a label kernel %s does not have before an instruction", r->branches[b].label,
                        k->name);
        }
    }
    for (int s = 0; s < r->nsyms; s++)
        if (r->syms[s].kernel >= 0 && r->out->kernels[r->syms[s].kernel].ninsns == 0) {
            r->lineno = r->syms[s].line;
            return fail(r, "kernel %.*s has no instructions", (int)r->syms[s].len, r->syms[s].name);
        }
    return 0;
}

int code_read_gcn(FILE *in, const char *path, const char *names, CodeFile *out, char *err, size_t err_size) {
    Reader r;
    memset(&r, 0, sizeof r);
    r.path = path, r.err = err, r.err_size = err_size, r.out = out;
    r.cur = r.last_function = r.descriptor = -1, r.line_index = -2;
    code_init(out, CODE_KIND_GCN, "");
    char *text = NULL, arch[16] = "";
    int status = read_lines(&r, in, &text);
    if (status == 0) {
        scan_declarations(&r, arch, sizeof arch);
        code_init(out, CODE_KIND_GCN, arch);
    }
    for (int i = 0; i < r.nlines && status == 0; i++) {
        r.lineno = i + 1;
        status = read_line(&r, r.lines[i], names);
    }
    if (status == 0 && out->nkernels == 0) {
        r.lineno = r.nlines;
        status = fail(&r, "no kernel in it (no .amdhsa_kernel, nor a function's label)");
    }
    if (status == 0) status = check_branches(&r);
    if (status == 0 && code_finish(out, err, err_size) != 0) {
        char finish_err[512];
        snprintf(finish_err, sizeof finish_err, "%s", err);
        snprintf(err, err_size, "%s: %s", path, finish_err);
        status = -1;
    }
    if (status != 0) code_free(out);
    free(r.syms);
    free(r.files);
    free(r.branches);
    free(r.lines);
    free(text);
    return status;
}
