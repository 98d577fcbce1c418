/* cuobjdump -sass output into the compiled code of code.h: one program's
 * output, each "Function : SYMBOL" a kernel. Branches name addresses, so a
 * kernel is read whole first: its branch targets become labels ("0xb40") at
 * the instructions with those addresses. A symbol met twice is an error
 * (two programs' output concatenated, or code for two architectures). */
#include "code.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { LINE_LIMIT = 1 << 16, OPCODE_LIMIT = 64, MAX_OPERANDS = 16 };
enum { UNIFORM_REGISTER = CODE_REG_UNIFORM, UNIFORM_PREDICATE = CODE_REG_UNIFORM_PREDICATE };
#define NO_TARGET (-1L)

typedef struct {
    long address, target; /* target: a branch's address, else NO_TARGET */
    long lineno;
    int guard; /* 0 none, 1 @P, 2 @!P */
    char guard_reg[8];
    char opcode[OPCODE_LIMIT];
    char *operands;
} SassLine;

typedef struct {
    FILE *in;
    const char *path, *names;
    char *err;
    size_t err_size;
    CodeFile *out;
    char *text;
    long lineno;
    char arch[16];     /* the last "arch = " line's */
    char symbol[1024]; /* the kernel being read, "" between kernels */
    long symbol_lineno;
    SassLine *lines;
    int nlines, line_cap;
} Reader;

/* An error naming the input and its line. */
#define fail_at(r, lineno, ...) code_error((r)->err, (r)->err_size, (r)->path, (lineno), __VA_ARGS__)

/* The next line into r->text: 1, 0 at the end, -1 for a line too long to hold. */
static int read_line(Reader *r) { return code_read_line(r->in, r->text, LINE_LIMIT, &r->lineno, r->err, r->err_size, r->path); }

static int starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* The opcode's name without modifiers: "LDG" of "LDG.E.128". */
static int base_is(const char *opcode, const char *base) {
    size_t n = strlen(base);
    return strncmp(opcode, base, n) == 0 && (opcode[n] == '\0' || opcode[n] == '.');
}

static int base_in(const char *opcode, const char *const *bases) {
    for (; *bases; bases++)
        if (base_is(opcode, *bases)) return 1;
    return 0;
}

static int has_modifier(const char *opcode, const char *modifier) {
    size_t n = strlen(modifier);
    for (const char *dot = strchr(opcode, '.'); dot; dot = strchr(dot + 1, '.'))
        if (strncmp(dot + 1, modifier, n) == 0 && (dot[n + 1] == '\0' || dot[n + 1] == '.')) return 1;
    return 0;
}

/* Bytes a lane moves: 4 unless a size modifier says otherwise. */
static int lane_bytes(const char *opcode) {
    if (base_is(opcode, "LDSM")) /* LDSM.16.M88.4: four 8x8 tiles */
        return has_modifier(opcode, "4") ? 16 : has_modifier(opcode, "2") ? 8 : 4;
    if (has_modifier(opcode, "128")) return 16;
    if (has_modifier(opcode, "64")) return 8;
    if (has_modifier(opcode, "U16") || has_modifier(opcode, "S16")) return 2;
    if (has_modifier(opcode, "U8") || has_modifier(opcode, "S8")) return 1;
    return 4;
}

/* Pipe, memory and FLOPs; whether the first operand is written. */
static int classify(const char *op, CodeInsn *insn) {
    static const struct {
        const char *base;
        unsigned char pipe, mem, writes;
    } memory_ops[] = {
        {"LDG", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 1},    {"LD", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 1},
        {"LDGSTS", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_LOAD, 0}, {"STG", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_STORE, 0},
        {"ST", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_STORE, 0},    {"ATOMG", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_ATOMIC, 1},
        {"ATOM", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_ATOMIC, 1}, {"RED", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_ATOMIC, 0},
        {"REDG", CODE_PIPE_VMEM, CODE_MEM_GLOBAL_ATOMIC, 0}, {"ATOMS", CODE_PIPE_LDS, CODE_MEM_LDS_ATOMIC, 1},
        {"LDS", CODE_PIPE_LDS, CODE_MEM_LDS_LOAD, 1},        {"LDSM", CODE_PIPE_LDS, CODE_MEM_LDS_LOAD, 1},
        {"STS", CODE_PIPE_LDS, CODE_MEM_LDS_STORE, 0},       {"LDL", CODE_PIPE_VMEM, CODE_MEM_SCRATCH_LOAD, 1},
        {"STL", CODE_PIPE_VMEM, CODE_MEM_SCRATCH_STORE, 0},  {"LDC", CODE_PIPE_SMEM, CODE_MEM_SCALAR_LOAD, 1}};
    static const char *const branches[] = {"BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "CALL", NULL};
    /* Convergence and warp-sync markers: no jump, so no block end (code.c ends a block at any branch). */
    static const char *const markers[] = {"BSSY",   "BSYNC",  "WARPSYNC", "BREAK", "NOP",       "DEPBAR",
                                          "MEMBAR", "ERRBAR", "CCTL",     "YIELD", "LDGDEPBAR", NULL};
    static const char *const transcendental[] = {"MUFU", "DFMA", "DADD", "DMUL", "DMNMX", "DSETP", NULL};
    insn->pipe = CODE_PIPE_VALU;
    for (size_t i = 0; i < sizeof memory_ops / sizeof memory_ops[0]; i++)
        if (base_is(op, memory_ops[i].base)) {
            insn->pipe = memory_ops[i].pipe;
            insn->mem = memory_ops[i].mem;
            insn->bytes = (unsigned char)lane_bytes(op);
            return memory_ops[i].writes;
        }
    if (base_in(op, branches))
        insn->pipe = CODE_PIPE_BRANCH;
    else if (base_is(op, "BAR"))
        insn->pipe = CODE_PIPE_BARRIER;
    else if (base_in(op, markers))
        insn->pipe = CODE_PIPE_OTHER;
    if (insn->pipe != CODE_PIPE_VALU) return 0;
    if (base_in(op, transcendental) ||
        ((base_is(op, "F2F") || base_is(op, "I2F") || base_is(op, "F2I")) && has_modifier(op, "F64")))
        insn->pipe = CODE_PIPE_TRANS;
    else if ((op[0] == 'U' && isupper((unsigned char)op[1])) || base_is(op, "S2UR") || base_is(op, "R2UR"))
        insn->pipe = CODE_PIPE_SALU; /* the uniform datapath */
    else if (base_is(op, "FFMA") || base_is(op, "FFMA32I"))
        insn->flops = 2;
    else if (base_in(op, (const char *const[]){"FADD", "FMUL", "FMNMX", "FADD32I", "FMUL32I", NULL}))
        insn->flops = 1;
    return 1;
}

/* Splits operands at commas outside [] into at most MAX_OPERANDS pieces. */
static int split_operands(char *text, char **pieces) {
    int n = 0, nesting = 0;
    if (!*code_trim(text)) return 0;
    pieces[n++] = text;
    for (char *c = text; *c; c++) {
        if (*c == '[')
            nesting++;
        else if (*c == ']' && nesting)
            nesting--;
        else if (*c == ',' && !nesting && n < MAX_OPERANDS) {
            *c = '\0';
            pieces[n++] = c + 1;
        }
    }
    for (int i = 0; i < n; i++) pieces[i] = code_trim(pieces[i]);
    return n;
}

static void add_register(int *list, unsigned char *count, int max, int id) {
    for (int k = 0; k < *count; k++)
        if (list[k] == id) return;
    if (*count < max) list[(*count)++] = id;
}

/* Adds the registers an operand names: R2 (and R3, ... for width 2, 4, or
 * R2.64's pair), P0, UR4, UP0; -R2, |R2|, !P0 and .reuse as R2 and P0; RZ,
 * PT, URZ, UPT, SR_* and constants are no registers. */
static void add_registers(const char *operand, int width, int *list, unsigned char *count, int max) {
    const char *c = operand;
    while (*c) {
        if (!isalnum((unsigned char)*c) && *c != '_') {
            c++;
            continue;
        }
        const char *word = c;
        while (isalnum((unsigned char)*c) || *c == '_' || *c == '.') c++;
        size_t len = (size_t)(c - word);
        const char *number = NULL;
        int id_base = -1, limit = 0;
        if (word[0] == 'R' && isdigit((unsigned char)word[1]))
            number = word + 1, id_base = 0, limit = 254;
        else if (word[0] == 'P' && isdigit((unsigned char)word[1]))
            number = word + 1, id_base = CODE_REG_PREDICATE, limit = 6;
        else if (starts_with(word, "UR") && isdigit((unsigned char)word[2]))
            number = word + 2, id_base = UNIFORM_REGISTER, limit = 62;
        else if (starts_with(word, "UP") && isdigit((unsigned char)word[2]))
            number = word + 2, id_base = UNIFORM_PREDICATE, limit = 6;
        if (!number) continue;
        char *after;
        long n = strtol(number, &after, 10);
        if (after != word + len && *after != '.') continue; /* R2x: no register */
        int count_here = id_base == 0 || id_base == UNIFORM_REGISTER ? width : 1;
        if (*after == '.' && strncmp(after, ".64", 3) == 0 &&
            (after[3] == '\0' || after[3] == '.' || after + 3 == word + len))
            count_here = count_here < 2 ? 2 : count_here;
        for (int k = 0; k < count_here && n + k <= limit; k++) add_register(list, count, max, id_base + (int)(n + k));
    }
}

static int is_predicate(const char *operand) {
    const char *c = operand + (operand[0] == '!');
    return (c[0] == 'P' && (c[1] == 'T' || isdigit((unsigned char)c[1])) && c[2] == '\0') ||
           (c[0] == 'U' && c[1] == 'P' && (c[2] == 'T' || isdigit((unsigned char)c[2])) && c[3] == '\0');
}

/* How many leading operands an instruction writes. */
static int destinations(const char *op, char **operands, int n) {
    static const char *const two[] = {"ISETP", "FSETP", "DSETP", "HSETP2", "PSETP", "PLOP3", "UISETP", "UPLOP3",
                                      "VOTE",  "VOTEU", "SHFL",  "LOP3",   "ULOP3", "ATOMG", "ATOM",   NULL};
    static const char *const carries[] = {"IADD3", "UIADD3", "LEA", "ULEA", "IMAD", "UIMAD", NULL};
    if (n == 0) return 0;
    /* ISETP P0, P1 / VOTE.ANY R5, PT / SHFL PT, R3 / LOP3.LUT P0, RZ / ATOMG PT, R2 */
    if (base_in(op, two) && (is_predicate(operands[0]) || is_predicate(operands[n > 1]))) return n < 2 ? n : 2;
    int written = 1; /* IADD3 R2, P0, PT / LEA R2, P0: carries out */
    while (written < n && written < 3 && base_in(op, carries) && is_predicate(operands[written]) &&
           operands[written][0] != '!')
        written++;
    return written;
}

static int is_wide_type(const char *t) { return strlen(t) >= 3 && strcmp(t + strlen(t) - 2, "64") == 0; }

/* Registers per value, 1, 2 or 4: of the destination and of the data
 * operands (a store's value, a double's inputs, a conversion's input). */
static void value_widths(const char *op, const CodeInsn *insn, int *dst, int *data) {
    static const char *const doubles[] = {"DFMA", "DADD", "DMUL", "DMNMX", NULL};
    *dst = *data = 1;
    if (insn->mem != CODE_MEM_NONE) {
        int width = insn->bytes > 4 ? insn->bytes / 4 : 1;
        if (insn->mem == CODE_MEM_GLOBAL_STORE || insn->mem == CODE_MEM_LDS_STORE ||
            insn->mem == CODE_MEM_SCRATCH_STORE)
            *data = width;
        else
            *dst = width;
    } else if (base_is(op, "CS2R"))
        *dst = has_modifier(op, "32") ? 1 : 2;
    else if (base_in(op, doubles))
        *dst = *data = 2;
    else if (base_is(op, "DSETP"))
        *data = 2;
    else if (base_is(op, "F2F") || base_is(op, "I2F") || base_is(op, "F2I")) {
        /* F2F.F64.F32: the result's type, then the input's; one type alone
         * is the float side: I2F.F64's result, F2I.F64's input. */
        char types[2][8] = {"", ""};
        int ntypes = 0;
        for (const char *m = strchr(op, '.'); m && ntypes < 2; m = strchr(m + 1, '.')) {
            size_t len = strcspn(m + 1, ".");
            if (len < 8 && strchr("FSU", m[1]) && isdigit((unsigned char)m[2])) {
                memcpy(types[ntypes], m + 1, len);
                types[ntypes++][len] = '\0';
            }
        }
        int input_only =
            ntypes == 1 && ((base_is(op, "F2I") && types[0][0] == 'F') || (base_is(op, "I2F") && types[0][0] != 'F'));
        if (ntypes == 2 || !input_only) *dst = is_wide_type(types[0]) ? 2 : 1;
        if (ntypes == 2 || input_only) *data = is_wide_type(types[ntypes - 1]) ? 2 : 1;
    } else if (has_modifier(op, "64") || has_modifier(op, "WIDE"))
        *dst = 2; /* ULDC.64, IMAD.WIDE */
}

/* Builds one instruction; target_label is filled for a branch to an address. */
static void build(const SassLine *line, CodeInsn *insn, char *target_label, size_t label_size) {
    code_insn_clear(insn);
    size_t shown = strlen(line->opcode) < sizeof insn->op ? strlen(line->opcode) : sizeof insn->op - 1;
    memcpy(insn->op, line->opcode, shown); /* a long mnemonic shows its start */
    insn->op[shown] = '\0';
    int writes = classify(line->opcode, insn);
    if (line->guard) {
        insn->guarded = 1;
        add_registers(line->guard_reg, 1, insn->src, &insn->nsrc, CODE_MAX_SRC);
    }
    char *operands[MAX_OPERANDS];
    char *text = line->operands; /* split in place: built once */
    int n = split_operands(text, operands);
    int ndst = writes ? destinations(line->opcode, operands, n) : 0;
    int dst_width, data_width;
    value_widths(line->opcode, insn, &dst_width, &data_width);
    int wide_addend =
        base_is(line->opcode, "IMAD") && has_modifier(line->opcode, "WIDE"); /* IMAD.WIDE R2, R7, 0x4, R2 */
    for (int i = 0; i < n; i++) {
        if (i < ndst) {
            add_registers(operands[i], dst_width, insn->dst, &insn->ndst, CODE_MAX_DST);
            continue;
        }
        int width = strchr(operands[i], '[')    ? 1
                    : wide_addend && i == n - 1 ? 2
                                                : data_width; /* addresses: R2.64 says */
        add_registers(operands[i], width, insn->src, &insn->nsrc, CODE_MAX_SRC);
    }
    target_label[0] = '\0';
    if (insn->pipe == CODE_PIPE_BRANCH) {
        /* A guarded branch, one on a predicate operand (BRA !P3, 0x...), BRA.DIV and
         * a call (it returns) may fall through. */
        int predicate_operand = n > 1 && is_predicate(operands[0]);
        insn->conditional =
            line->guard || predicate_operand || has_modifier(line->opcode, "DIV") || base_is(line->opcode, "CALL");
        if (line->target != NO_TARGET) snprintf(target_label, label_size, "0x%lx", line->target);
    }
}

/* One instruction line: its address in a comment (0a40), then "[@P0] OPCODE.MODS operands ;". */
static int read_instruction(Reader *r, char *text) {
    char *close = strstr(text, "*/");
    char *end_address;
    long address = strtol(text + 2, &end_address, 16);
    if (!close || end_address != close || address < 0) return fail_at(r, r->lineno, "a malformed address: %.40s", text);
    if (!r->symbol[0]) return fail_at(r, r->lineno, "an instruction outside any Function");
    char *body = code_trim(close + 2);
    char *comment = strstr(body, "/*"); /* cuobjdump's encoding, where it is printed */
    if (comment) *comment = '\0';
    body = code_trim(body);
    size_t len = strlen(body);
    if (!len || body[len - 1] != ';') return fail_at(r, r->lineno, "an instruction without its ';': %.60s", body);
    body[len - 1] = '\0';
    SassLine line = {.address = address, .target = NO_TARGET, .lineno = r->lineno};
    if (r->nlines && address <= r->lines[r->nlines - 1].address)
        return fail_at(r, r->lineno, "address 0x%lx is not after the one before", address);
    if (*body == '@') {
        body++;
        line.guard = *body == '!' ? (body++, 2) : 1;
        size_t n = strcspn(body, " \t");
        if (n == 0 || n >= sizeof line.guard_reg) return fail_at(r, r->lineno, "a malformed guard");
        memcpy(line.guard_reg, body, n);
        line.guard_reg[n] = '\0';
        if (strcmp(line.guard_reg, "PT") == 0 && line.guard == 1) line.guard = 0; /* always true */
        body = code_trim(body + n);
    }
    size_t n = strcspn(body, " \t");
    if (n == 0) return fail_at(r, r->lineno, "a guard without an instruction");
    if (n >= sizeof line.opcode) return fail_at(r, r->lineno, "an opcode longer than %d characters", OPCODE_LIMIT - 1);
    memcpy(line.opcode, body, n);
    line.opcode[n] = '\0';
    char *operands = code_trim(body + n);
    /* A branch's last operand is its target. BSSY's address is a reconvergence point, not a jump; a call's
     * is its subroutine's, which returns: the call falls through and the subroutine is no edge of the graph. */
    if (base_is(line.opcode, "BRA")) {
        const char *last = strrchr(operands, ',');
        last = last ? last + 1 : operands;
        while (isspace((unsigned char)*last)) last++;
        char *after;
        if (starts_with(last, "0x")) {
            line.target = strtol(last, &after, 16);
            if (*code_trim(after)) line.target = NO_TARGET;
        }
    }
    line.operands = malloc(strlen(operands) + 1);
    if (!line.operands) return fail_at(r, r->lineno, "out of memory");
    strcpy(line.operands, operands);
    if (r->nlines == r->line_cap) {
        int cap = r->line_cap ? r->line_cap * 2 : 256;
        SassLine *lines = realloc(r->lines, (size_t)cap * sizeof *lines);
        if (!lines) {
            free(line.operands);
            return fail_at(r, r->lineno, "out of memory");
        }
        r->lines = lines;
        r->line_cap = cap;
    }
    r->lines[r->nlines++] = line;
    return 0;
}

static int is_self_branch(const SassLine *line) {
    return base_is(line->opcode, "BRA") && !line->guard && line->target == line->address;
}

/* The kernel read since "Function :", into the file: padding dropped, labels at branch targets. */
static int finish_kernel(Reader *r) {
    if (!r->symbol[0]) return 0;
    int n = r->nlines;
    while (n > 0 && (base_is(r->lines[n - 1].opcode, "NOP") || is_self_branch(&r->lines[n - 1]))) n--;
    char *labelled = calloc((size_t)n + 1, 1);
    if (!labelled) return fail_at(r, r->lineno, "out of memory");
    int status = 0;
    for (int i = 0; i < n && status == 0; i++) {
        long target = r->lines[i].target;
        if (target == NO_TARGET) continue;
        int lo = 0, hi = n - 1, at = -1;
        while (lo <= hi && at < 0) {
            int mid = (lo + hi) / 2;
            if (r->lines[mid].address == target)
                at = mid;
            else if (r->lines[mid].address < target)
                lo = mid + 1;
            else
                hi = mid - 1;
        }
        if (at < 0)
            status =
                fail_at(r, r->lines[i].lineno, "kernel %s: a branch to 0x%lx, no instruction of it", r->symbol, target);
        else
            labelled[at] = 1;
    }
    char name[sizeof r->out->kernels[0].name + 1];
    code_trace_name(r->names, r->symbol, name, sizeof name);
    if (status == 0 && strlen(name) >= sizeof r->out->kernels[0].name)
        status = fail_at(r, r->symbol_lineno, "kernel %.60s...: a name longer than %d characters", name,
                         (int)sizeof r->out->kernels[0].name - 1);
    if (status == 0 && !r->out->arch[0]) snprintf(r->out->arch, sizeof r->out->arch, "%s", r->arch);
    if (status == 0 && strcmp(r->out->arch, r->arch) != 0)
        status =
            fail_at(r, r->symbol_lineno, "kernel %s: code for %s after code for %s", r->symbol, r->arch, r->out->arch);
    for (int k = 0; k < r->out->nkernels && status == 0; k++)
        if (strcmp(r->out->kernels[k].name, name) == 0)
            status =
                fail_at(r, r->symbol_lineno, "kernel %s: a second time (one program's output at a time)", r->symbol);
    if (status == 0) {
        CodeKernel *kernel = code_add_kernel(r->out, name);
        for (int i = 0; i < n; i++) {
            char label[32];
            CodeInsn insn;
            if (labelled[i]) {
                snprintf(label, sizeof label, "0x%lx", r->lines[i].address);
                code_add_label(kernel, label);
            }
            build(&r->lines[i], &insn, label, sizeof label);
            code_add_insn(kernel, &insn, label[0] ? label : NULL);
        }
    }
    free(labelled);
    for (int i = 0; i < r->nlines; i++) free(r->lines[i].operands);
    r->nlines = 0;
    r->symbol[0] = '\0';
    return status;
}

static int read_sass_line(Reader *r) {
    char *text = code_trim(r->text);
    if (starts_with(text, "/*") && isxdigit((unsigned char)text[2])) return read_instruction(r, text);
    if (starts_with(text, "/*")) return 0; /* an encoding line: 0x000fe2... in a comment */
    if (starts_with(text, "Function :") || starts_with(text, "Function:")) {
        if (finish_kernel(r) != 0) return -1;
        const char *symbol = code_trim(strchr(text, ':') + 1);
        size_t len = strcspn(symbol, " \t");
        if (len == 0) return fail_at(r, r->lineno, "a Function without a symbol");
        if (len >= sizeof r->symbol)
            return fail_at(r, r->lineno, "a symbol longer than %d characters", (int)sizeof r->symbol - 1);
        memcpy(r->symbol, symbol, len);
        r->symbol[len] = '\0';
        r->symbol_lineno = r->lineno;
        return 0;
    }
    if (starts_with(text, ".....")) return finish_kernel(r);
    if (starts_with(text, "arch =")) {
        const char *arch = code_trim(text + 6);
        if (strlen(arch) >= sizeof r->arch) return fail_at(r, r->lineno, "an arch too long: %.40s", arch);
        strcpy(r->arch, arch);
    }
    return 0; /* fatbin headers, .headerflags, "code for sm_90" */
}

static int read_all(Reader *r) {
    int status;
    while ((status = read_line(r)) == 1)
        if (read_sass_line(r) != 0) return -1;
    if (status < 0) return -1;
    if (ferror(r->in)) return fail_at(r, r->lineno, "a read error");
    if (r->lineno == 0) {
        if (r->err && r->err_size) snprintf(r->err, r->err_size, "%s: empty input: no SASS in it", r->path);
        return -1;
    }
    if (finish_kernel(r) != 0) return -1;
    if (r->out->nkernels == 0) return fail_at(r, r->lineno, "no kernel (Function :) in it");
    char message[512];
    if (code_finish(r->out, message, sizeof message) != 0) return fail_at(r, r->lineno, "%s", message);
    return 0;
}

int code_read_sass(FILE *in, const char *path, const char *names, CodeFile *out, char *err, size_t err_size) {
    code_init(out, CODE_KIND_SASS, NULL); /* the arch from "arch = sm_90" */
    Reader r = {.in = in, .path = path ? path : "(SASS)", .names = names, .err = err, .err_size = err_size, .out = out};
    r.text = malloc(LINE_LIMIT);
    int status = r.text ? read_all(&r) : fail_at(&r, 0, "out of memory");
    for (int i = 0; i < r.nlines; i++) free(r.lines[i].operands);
    free(r.lines);
    free(r.text);
    if (status != 0) code_free(out);
    return status;
}
