/* nvcc's PTX (-O3 -arch=sm_90 -lineinfo --ptx) into the compiled code of
 * code.h. One PTX instruction is taken for one warp instruction; registers
 * are PTX's virtual ones, numbered per kernel in the order they appear.
 * Device functions (.func) are skipped: nvcc inlines what it can, and a
 * call to the rest is one branch that returns. */
#include "code.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
    LINE_LIMIT = 1 << 16,
    OPCODE_LIMIT = 64,
    REG_NAME_LIMIT = 32,
    LABEL_LIMIT = 48,
    MAX_PARTS = 16,
    FILE_NAME_LIMIT = 1024
};
enum { AT_TOP, IN_ENTRY_HEADER, IN_FUNC_HEADER, IN_KERNEL, SKIPPING };

typedef struct {
    char name[REG_NAME_LIMIT];
    int id;
} RegSlot; /* "%r12", or inline assembly's "guard" */
typedef struct {
    int number;
    char *base;
    long first_use;
} SourceFile; /* .file N "path" */

typedef struct {
    FILE *in;
    const char *path, *names;
    char *err;
    size_t err_size;
    CodeFile *out;
    char *text, *statement; /* a line; an instruction over several lines (a call's operands) */
    long lineno, statement_lineno;
    int state, depth;
    char symbol[1024]; /* the .entry being read */
    CodeKernel *kernel;
    long *insn_lineno; /* per instruction of the kernel: its line in the input */
    int insn_lineno_cap;
    RegSlot *regs; /* the kernel's registers, hashed by name */
    int reg_cap, reg_count, next_general, next_predicate;
    int loc_file, loc_line; /* the last .loc; loc_line 0: none */
    long loc_lineno;
    SourceFile *files; /* nvcc writes the .file lines after the kernels */
    int nfiles, file_cap;
} Reader;

/* An error naming the input and its line. */
#define fail_at(r, lineno, ...) code_error((r)->err, (r)->err_size, (r)->path, (lineno), __VA_ARGS__)

static void *grow(void *array, int *cap, int need, size_t item) {
    if (need <= *cap) return array;
    int cap2 = *cap ? *cap * 2 : 64;
    while (cap2 < need) cap2 *= 2;
    void *p = realloc(array, (size_t)cap2 * item);
    if (p) *cap = cap2;
    return p;
}

static int starts_word(const char *text, const char *word) { /* ".loc 1 2" starts with ".loc" */
    size_t n = strlen(word);
    return strncmp(text, word, n) == 0 && (text[n] == '\0' || isspace((unsigned char)text[n]));
}

/* The next line into r->text: 1, 0 at the end, -1 for a line too long to hold. */
static int read_line(Reader *r) { return code_read_line(r->in, r->text, LINE_LIMIT, &r->lineno, r->err, r->err_size, r->path); }

static int is_ident_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* Special registers (%tid.x, %laneid, %clock64...) hold nothing a warp waits on. */
static int is_special_register(const char *name) {
    static const char specials[] =
        " tid ntid ctaid nctaid laneid warpid nwarpid smid nsmid gridid clock globaltimer "
        "lanemask envreg pm dynamic total aggr reserved current is cluster clusterid nclusterid ";
    char word[REG_NAME_LIMIT + 2] = " ";
    size_t letters = strspn(name + 1, "abcdefghijklmnopqrstuvwxyz");
    if (letters > REG_NAME_LIMIT - 1) return 0;
    memcpy(word + 1, name + 1, letters);
    strcpy(word + 1 + letters, " ");
    return strstr(specials, word) != NULL;
}

static RegSlot *find_slot(RegSlot *slots, int cap, const char *name) {
    unsigned at = 2166136261u;
    for (const char *c = name; *c; c++) at = (at ^ (unsigned char)*c) * 16777619u;
    at &= (unsigned)(cap - 1);
    while (slots[at].name[0] && strcmp(slots[at].name, name) != 0) at = (at + 1) & (unsigned)(cap - 1);
    return &slots[at];
}

/* Register `name`'s number in *id: predicates from CODE_REG_PREDICATE, the
 * others from 0, each new one the next of its kind if `create`, else -1. */
static int register_number(Reader *r, const char *name, int create, int predicate, int *id) {
    *id = -1;
    if (strlen(name) >= REG_NAME_LIMIT) return create ? fail_at(r, r->lineno, "register %s: name too long", name) : 0;
    if ((r->reg_count + 1) * 2 > r->reg_cap) {
        int cap = r->reg_cap ? r->reg_cap * 2 : 256;
        RegSlot *slots = calloc((size_t)cap, sizeof *slots);
        if (!slots) return fail_at(r, r->lineno, "out of memory");
        for (int i = 0; i < r->reg_cap; i++)
            if (r->regs[i].name[0]) *find_slot(slots, cap, r->regs[i].name) = r->regs[i];
        free(r->regs);
        r->regs = slots;
        r->reg_cap = cap;
    }
    RegSlot *slot = find_slot(r->regs, r->reg_cap, name);
    if (!slot->name[0] && create) {
        if (!predicate && r->next_general >= CODE_REG_PREDICATE)
            return fail_at(r, r->lineno, "more than %d registers in one kernel", CODE_REG_PREDICATE);
        strcpy(slot->name, name);
        slot->id = predicate ? CODE_REG_PREDICATE + r->next_predicate++ : r->next_general++;
        r->reg_count++;
    }
    if (slot->name[0]) *id = slot->id;
    return 0;
}

/* Appends the registers named in text[0, len) to list, once each, up to max:
 * %-names, and the names inline assembly declared (.reg .pred guard). */
static int add_registers(Reader *r, const char *text, size_t len, int *list, unsigned char *count, int max) {
    for (size_t i = 0; i < len; i++) {
        int percent = text[i] == '%';
        if (!percent && (!(isalpha((unsigned char)text[i]) || text[i] == '_') ||
                         (i > 0 && (is_ident_char((unsigned char)text[i - 1]) || text[i - 1] == '.'))))
            continue;
        size_t end = i + 1;
        while (end < len && is_ident_char((unsigned char)text[end])) end++;
        char name[REG_NAME_LIMIT + 1];
        size_t n = end - i < REG_NAME_LIMIT ? end - i : REG_NAME_LIMIT; /* register_number refuses the longest */
        memcpy(name, text + i, n);
        name[n] = '\0';
        int special = percent && (n < 2 || (end < len && text[end] == '.') || is_special_register(name));
        i = end - 1;
        int id;
        if (special) continue;
        if (register_number(r, name, percent, name[1] == 'p' && isdigit((unsigned char)name[2]), &id) != 0) return -1;
        int seen = id < 0; /* a bare name no .reg declared: a symbol, a parameter */
        for (int k = 0; k < *count; k++) seen |= list[k] == id;
        if (!seen && *count < max) list[(*count)++] = id;
    }
    return 0;
}

/* .reg .pred guard; .reg .b32 a, b: inline assembly's own registers. */
static int declare_registers(Reader *r, char *text) {
    int predicate = strstr(text, ".pred") != NULL;
    char *names = text + 4;
    while (*(names = code_trim(names)) == '.') names += strcspn(names, " \t");
    for (char *name = strtok(names, ",; \t"); name; name = strtok(NULL, ",; \t")) {
        int id;
        if (name[0] != '%' && !strchr(name, '<') && register_number(r, name, 1, predicate, &id) != 0) return -1;
    }
    return 0;
}

/* The length of the first operand: up to a comma outside {}, [] and (). */
static size_t first_operand_length(const char *operands) {
    int nesting = 0;
    size_t i = 0;
    for (; operands[i]; i++) {
        char c = operands[i];
        if (c == '{' || c == '[' || c == '(')
            nesting++;
        else if ((c == '}' || c == ']' || c == ')') && nesting)
            nesting--;
        else if (c == ',' && !nesting)
            break;
    }
    return i;
}

typedef struct {
    const char *part[MAX_PARTS];
    int n;
} OpParts; /* "ld.global.v4.f32" as ld, global, v4, f32 */

static int has_part(const OpParts *o, const char *part) {
    size_t n = strlen(part); /* "shared" matches shared::cta too */
    for (int i = 1; i < o->n; i++)
        if (strncmp(o->part[i], part, n) == 0 && (o->part[i][n] == '\0' || o->part[i][n] == ':')) return 1;
    return 0;
}

static int is_one_of(const char *word, const char *const *list) {
    for (; *list; list++)
        if (strcmp(word, *list) == 0) return 1;
    return 0;
}

/* Bytes a lane moves: the last type part times the vector width. */
static int lane_bytes(const OpParts *o) {
    static const struct {
        const char *type;
        int bytes;
    } types[] = {{"b8", 1},   {"u8", 1},  {"s8", 1},    {"b16", 2},    {"u16", 2},  {"s16", 2}, {"f16", 2},
                 {"bf16", 2}, {"b32", 4}, {"u32", 4},   {"s32", 4},    {"f32", 4},  {"b64", 8}, {"u64", 8},
                 {"s64", 8},  {"f64", 8}, {"f16x2", 4}, {"bf16x2", 4}, {"b128", 16}};
    int bytes = 0, width = 1;
    for (int i = 1; i < o->n; i++) {
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
            if (strcmp(o->part[i], types[t].type) == 0) bytes = types[t].bytes;
        if (o->part[i][0] == 'v' && strchr("248", o->part[i][1]) && !o->part[i][2]) width = o->part[i][1] - '0';
    }
    return bytes * width;
}

/* Pipe, memory, bytes and FLOPs of an opcode; whether it writes its first operand. */
static int classify(const OpParts *o, CodeInsn *insn) {
    static const char *const transcendental[] = {"ex2", "lg2", "rcp", "sqrt", "rsqrt", "sin", "cos", "tanh", NULL};
    static const char *const double_math[] = {"add", "sub", "mul",  "fma", "mad", "div",   "min",      "max",
                                              "neg", "abs", "setp", "set", "cvt", "testp", "copysign", NULL};
    static const char *const other[] = {
        "trap",           "membar",  "fence",         "prefetch",     "prefetchu", "nanosleep", "pmevent",
        "griddepcontrol", "discard", "applypriority", "createpolicy", "mbarrier",  "cp",        NULL};
    const char *base = o->part[0];
    int load = strcmp(base, "ld") == 0 || strcmp(base, "ldu") == 0, store = strcmp(base, "st") == 0;
    insn->pipe = CODE_PIPE_VALU;
    if (load || store) {
        int shared = has_part(o, "shared"), local = has_part(o, "local");
        int constant = has_part(o, "param") || has_part(o, "const");
        insn->pipe = shared ? CODE_PIPE_LDS : constant ? CODE_PIPE_SMEM : CODE_PIPE_VMEM;
        if (load)
            insn->mem = shared     ? CODE_MEM_LDS_LOAD
                        : local    ? CODE_MEM_SCRATCH_LOAD
                        : constant ? CODE_MEM_SCALAR_LOAD
                                   : CODE_MEM_GLOBAL_LOAD;
        else if (constant)
            insn->pipe = CODE_PIPE_OTHER; /* st.param: a call's argument */
        else
            insn->mem = shared ? CODE_MEM_LDS_STORE : local ? CODE_MEM_SCRATCH_STORE : CODE_MEM_GLOBAL_STORE;
        if (insn->mem != CODE_MEM_NONE) insn->bytes = (unsigned char)lane_bytes(o);
        return load;
    }
    if (strcmp(base, "atom") == 0 || strcmp(base, "red") == 0) {
        int shared = has_part(o, "shared");
        insn->pipe = shared ? CODE_PIPE_LDS : CODE_PIPE_VMEM;
        insn->mem = shared ? CODE_MEM_LDS_ATOMIC : CODE_MEM_GLOBAL_ATOMIC;
        insn->bytes = (unsigned char)lane_bytes(o);
        return base[0] == 'a'; /* red returns nothing */
    }
    if (is_one_of(base, (const char *const[]){"bra", "brx", "call", "ret", "exit", NULL})) {
        insn->pipe = CODE_PIPE_BRANCH;
        return 0;
    }
    if (strcmp(base, "bar") == 0 || strcmp(base, "barrier") == 0) {
        insn->pipe = has_part(o, "warp") ? CODE_PIPE_OTHER : CODE_PIPE_BARRIER; /* bar.warp.sync: __syncwarp */
        return has_part(o, "red");                                              /* bar.red's result */
    }
    if (is_one_of(base, other)) {
        insn->pipe = CODE_PIPE_OTHER;
        return strcmp(base, "createpolicy") == 0 || strcmp(base, "mbarrier") == 0;
    }
    if (is_one_of(base, transcendental) || (strcmp(base, "div") == 0 && (has_part(o, "f32") || has_part(o, "f64"))) ||
        (has_part(o, "f64") && is_one_of(base, double_math)))
        insn->pipe = CODE_PIPE_TRANS;
    else if (has_part(o, "f32") && (strcmp(base, "fma") == 0 || strcmp(base, "mad") == 0))
        insn->flops = 2;
    else if (has_part(o, "f32") && is_one_of(base, (const char *const[]){"add", "sub", "mul", "min", "max", NULL}))
        insn->flops = 1;
    return 1;
}

/* The file a .loc or .file names, added if new. */
static SourceFile *source_file(Reader *r, int number) {
    for (int i = 0; i < r->nfiles; i++)
        if (r->files[i].number == number) return &r->files[i];
    SourceFile *files = grow(r->files, &r->file_cap, r->nfiles + 1, sizeof *r->files);
    if (!files) return NULL;
    r->files = files;
    r->files[r->nfiles] = (SourceFile){.number = number, .base = NULL, .first_use = r->loc_lineno};
    return &r->files[r->nfiles++];
}

/* One instruction: "[@%p | @!%p] opcode.modifiers operands;". */
static int read_instruction(Reader *r, char *text, long lineno) {
    char *end = strchr(text, ';');
    if (*code_trim(end + 1)) return fail_at(r, lineno, "more than one statement on a line");
    *end = '\0';
    CodeInsn insn;
    code_insn_clear(&insn);
    char guard[REG_NAME_LIMIT] = "";
    if (*text == '@') {
        text += 1 + (text[1] == '!');
        size_t n = strcspn(text, " \t");
        if (n == 0 || n >= sizeof guard) return fail_at(r, lineno, "a malformed guard");
        memcpy(guard, text, n);
        guard[n] = '\0';
        text = code_trim(text + n);
        insn.guarded = 1;
    }
    char opcode[OPCODE_LIMIT];
    size_t op_len = strcspn(text, " \t");
    if (op_len == 0) return fail_at(r, lineno, "a guard without an instruction");
    if (op_len >= sizeof opcode) return fail_at(r, lineno, "an opcode longer than %d characters", OPCODE_LIMIT - 1);
    memcpy(opcode, text, op_len);
    opcode[op_len] = '\0';
    size_t shown = op_len < sizeof insn.op ? op_len : sizeof insn.op - 1; /* a long mnemonic shows its start */
    memcpy(insn.op, opcode, shown);
    insn.op[shown] = '\0';
    char *operands = code_trim(text + op_len);

    OpParts o = {.n = 0};
    for (char *part = strtok(opcode, "."); part && o.n < MAX_PARTS; part = strtok(NULL, ".")) o.part[o.n++] = part;
    if (o.n == 0) return fail_at(r, lineno, "a malformed opcode: %s", insn.op);
    int writes = classify(&o, &insn), id;
    if (guard[0]) {
        if (register_number(r, guard, 1, 1, &id) != 0) return -1;
        insn.src[insn.nsrc++] = id;
    }
    size_t first = first_operand_length(operands), all = strlen(operands);
    if (!writes || operands[0] == '[') first = 0; /* all read: a store's address and value */
    if (add_registers(r, operands, first, insn.dst, &insn.ndst, CODE_MAX_DST) != 0 ||
        add_registers(r, operands + first, all - first, insn.src, &insn.nsrc, CODE_MAX_SRC) != 0)
        return -1;

    const char *label = NULL;
    if (insn.pipe == CODE_PIPE_BRANCH) {
        /* bra and a guarded ret/exit may fall through; so does call, which returns. */
        insn.conditional = insn.guarded || strcmp(o.part[0], "call") == 0;
        if (strcmp(o.part[0], "bra") == 0) {
            size_t n = 0;
            while (is_ident_char((unsigned char)operands[n])) n++;
            if (n == 0 || operands[n]) return fail_at(r, lineno, "a branch without a label: %.60s", operands);
            if (n >= LABEL_LIMIT)
                return fail_at(r, lineno, "label %.60s: longer than %d characters", operands, LABEL_LIMIT - 1);
            label = operands;
        }
    }
    if (r->loc_line > 0) {
        char where[48];
        snprintf(where, sizeof where, "#%d:%d", r->loc_file, r->loc_line); /* resolved once .file lines are read */
        insn.line = code_line(r->kernel, where);
        if (!source_file(r, r->loc_file)) return fail_at(r, lineno, "out of memory");
    }
    long *numbers = grow(r->insn_lineno, &r->insn_lineno_cap, r->kernel->ninsns + 1, sizeof *r->insn_lineno);
    if (!numbers) return fail_at(r, lineno, "out of memory");
    r->insn_lineno = numbers;
    r->insn_lineno[r->kernel->ninsns] = lineno;
    code_add_insn(r->kernel, &insn, label);
    return 0;
}

/* .file N "path": the base name, as the trace names lines; NVIDIA's HIP
 * shim and the toolkit's headers as "nvidia-" and theirs. */
static int read_file_line(Reader *r, char *text) {
    int number;
    char *open = strchr(text, '"'), *close = open ? strchr(open + 1, '"') : NULL;
    if (sscanf(text, ".file %d", &number) != 1 || !close) return fail_at(r, r->lineno, "a malformed .file line");
    char *base = open + 1;
    for (char *c = open + 1; c < close; c++)
        if (*c == '/' || *c == '\\') base = c + 1;
    *close = '\0';
    if (strlen(base) >= FILE_NAME_LIMIT)
        return fail_at(r, r->lineno, "a file name longer than %d characters", FILE_NAME_LIMIT - 1);
    char saved = *base;
    *base = '\0'; /* the directory alone, for a moment */
    int nvidia = strstr(open, "/gpu/nvidia/") ||
                 ((strstr(open, "/targets/") || strstr(open, "/cuda")) && strstr(open, "/include/"));
    *base = saved;
    SourceFile *f = source_file(r, number);
    char *name = f ? malloc(strlen(base) + 8) : NULL;
    if (!name) return fail_at(r, r->lineno, "out of memory");
    sprintf(name, "%s%s", nvidia ? "nvidia-" : "", base);
    free(f->base);
    f->base = name;
    return 0;
}

/* Every branch's label is one of the kernel's. */
static int check_labels(Reader *r) {
    CodeKernel *k = r->kernel;
    for (int i = 0; i < k->ninsns; i++) {
        const char *label = k->target_label[i];
        int found = !label[0];
        for (int l = 0; l < k->nlabels && !found; l++) found = strcmp(k->pending_labels[l], label) == 0;
        if (!found)
            return fail_at(r, r->insn_lineno[i], "kernel %s: a branch to %s, a label it does not have", k->name, label);
    }
    return 0;
}

static int start_kernel(Reader *r) {
    char name[sizeof r->kernel->name + 1];
    code_trace_name(r->names, r->symbol, name, sizeof name);
    if (strlen(name) >= sizeof r->kernel->name)
        return fail_at(r, r->lineno, "kernel %.60s...: a name longer than %d characters", name,
                       (int)sizeof r->kernel->name - 1);
    r->kernel = code_add_kernel(r->out, name);
    r->state = IN_KERNEL;
    r->depth = 1;
    r->loc_line = 0;
    if (r->regs) memset(r->regs, 0, (size_t)r->reg_cap * sizeof *r->regs);
    r->reg_count = r->next_general = r->next_predicate = 0;
    return 0;
}

/* A function's header: 1 for .entry (its symbol in r->symbol), 2 for .func, 0 for neither. */
static int function_header(Reader *r, const char *text) {
    const char *entry = strstr(text, ".entry"), *func = strstr(text, ".func");
    if (entry && !isspace((unsigned char)entry[6])) entry = NULL;
    if (text[0] != '.' || (!entry && !(func && (isspace((unsigned char)func[5]) || func[5] == '(')))) return 0;
    if (!entry) return 2;
    entry += 6 + strspn(entry + 6, " \t");
    size_t len = strcspn(entry, " \t(");
    if (len == 0 || len >= sizeof r->symbol) return 0;
    memcpy(r->symbol, entry, len);
    r->symbol[len] = '\0';
    return 1;
}

static int read_kernel_line(Reader *r, char *text) {
    if (r->statement[0]) { /* the rest of an instruction: "call.uni (retval0)," then its operands */
        if (strlen(r->statement) + strlen(text) + 2 > LINE_LIMIT)
            return fail_at(r, r->lineno, "an instruction longer than %d characters", LINE_LIMIT - 2);
        strcat(strcat(r->statement, " "), text);
        if (!strchr(text, ';')) return 0;
        int status = read_instruction(r, r->statement, r->statement_lineno);
        r->statement[0] = '\0';
        return status;
    }
    if (text[0] == '{' || text[0] == '}') { /* a scope: a call's, inline assembly's */
        r->depth += text[0] == '{' ? 1 : -1;
        if (r->depth > 0) return 0;
        r->state = AT_TOP;
        return check_labels(r);
    }
    if (starts_word(text, ".loc")) {
        if (sscanf(text, ".loc %d %d", &r->loc_file, &r->loc_line) != 2)
            return fail_at(r, r->lineno, "a malformed .loc line");
        r->loc_lineno = r->lineno;
        return 0;
    }
    if (starts_word(text, ".file")) return read_file_line(r, text);
    if (starts_word(text, ".reg")) return declare_registers(r, text);
    if (text[0] == '.') return 0; /* .shared, .local, .param, .pragma: declarations */
    size_t n = strspn(text, "$_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
    if (n && text[n] == ':' && text[n + 1] != ':') { /* a label; "ld.shared::cta" is none */
        if (n >= LABEL_LIMIT)
            return fail_at(r, r->lineno, "label %.60s: longer than %d characters", text, LABEL_LIMIT - 1);
        text[n] = '\0';
        code_add_label(r->kernel, text);
        text = code_trim(text + n + 1);
        if (!*text) return 0;
    }
    if (strchr(text, ';')) return read_instruction(r, text, r->lineno);
    strcpy(r->statement, text);
    r->statement_lineno = r->lineno;
    return 0;
}

static int read_ptx_line(Reader *r) {
    char *text = code_trim(r->text);
    if (!starts_word(text, ".file")) { /* a path may hold "//" */
        char *comment = strstr(text, "//");
        if (comment) *comment = '\0';
        text = code_trim(text);
    }
    if (!*text) return 0;
    size_t len = strlen(text);
    int header;
    switch (r->state) {
    case IN_KERNEL:
        return read_kernel_line(r, text);
    case SKIPPING:
        r->depth += (text[0] == '{') - (text[0] == '}');
        if (r->depth == 0) r->state = AT_TOP;
        return 0;
    case IN_ENTRY_HEADER:
    case IN_FUNC_HEADER:
        if (text[0] == '{' || text[len - 1] == '{') {
            if (r->state == IN_ENTRY_HEADER) return start_kernel(r);
            r->state = SKIPPING;
            r->depth = 1;
        } else if (text[len - 1] == ';')
            r->state = AT_TOP; /* a declaration, no body */
        return 0;
    default:
        break;
    }
    if (starts_word(text, ".target") && !r->out->arch[0]) {
        const char *arch = code_trim(text + 7);
        size_t n = strcspn(arch, " \t,");
        if (n >= sizeof r->out->arch) return fail_at(r, r->lineno, "a .target too long: %.40s", arch);
        memcpy(r->out->arch, arch, n);
        r->out->arch[n] = '\0';
    } else if (starts_word(text, ".file"))
        return read_file_line(r, text);
    else if (text[0] == '{') { /* a section's data (.debug_str): no code */
        r->state = SKIPPING;
        r->depth = 1;
    } else if ((header = function_header(r, text)) != 0) {
        r->state = header == 1 ? IN_ENTRY_HEADER : IN_FUNC_HEADER;
        return read_ptx_line(r); /* its line may end with "{" or ";" */
    }
    return 0;
}

/* "#N:LINE" into "base:LINE", now that every .file is read. */
static int resolve_lines(Reader *r) {
    for (int k = 0; k < r->out->nkernels; k++) {
        CodeKernel *kernel = &r->out->kernels[k];
        char **provisional = kernel->lines;
        int n = kernel->nlines, status = 0;
        int *index = malloc((size_t)(n ? n : 1) * sizeof *index);
        if (!index) return fail_at(r, r->lineno, "out of memory");
        kernel->lines = NULL;
        kernel->nlines = kernel->line_cap = 0;
        for (int i = 0; i < n; i++) {
            int number = 0, line = 0;
            sscanf(provisional[i], "#%d:%d", &number, &line);
            free(provisional[i]);
            SourceFile *f = status == 0 ? source_file(r, number) : NULL;
            if (status != 0) continue;
            if (!f || !f->base) {
                status = f ? fail_at(r, f->first_use, ".loc names file %d, which no .file line gives", number)
                           : fail_at(r, r->lineno, "out of memory");
                continue;
            }
            char where[FILE_NAME_LIMIT + 16];
            snprintf(where, sizeof where, "%s:%d", f->base, line);
            index[i] = code_line(kernel, where); /* two numbers for one file name: one line */
        }
        free(provisional);
        for (int i = 0; i < kernel->ninsns && status == 0; i++)
            if (kernel->insns[i].line >= 0) kernel->insns[i].line = index[kernel->insns[i].line];
        free(index);
        if (status != 0) return -1;
    }
    return 0;
}

static int read_all(Reader *r) {
    int status;
    while ((status = read_line(r)) == 1)
        if (read_ptx_line(r) != 0) return -1;
    if (status < 0) return -1;
    if (ferror(r->in)) return fail_at(r, r->lineno, "a read error");
    if (r->lineno == 0) {
        if (r->err && r->err_size) snprintf(r->err, r->err_size, "%s: empty input: no PTX in it", r->path);
        return -1;
    }
    if (r->state != AT_TOP) return fail_at(r, r->lineno, "the input ends inside a function (%s)", r->symbol);
    if (r->out->nkernels == 0) return fail_at(r, r->lineno, "no kernel (.entry) in it");
    if (resolve_lines(r) != 0) return -1;
    char message[512];
    if (code_finish(r->out, message, sizeof message) != 0) return fail_at(r, r->lineno, "%s", message);
    return 0;
}

int code_read_ptx(FILE *in, const char *path, const char *names, CodeFile *out, char *err, size_t err_size) {
    code_init(out, CODE_KIND_PTX, NULL); /* the arch from .target */
    Reader r = {.in = in, .path = path ? path : "(PTX)", .names = names, .err = err, .err_size = err_size, .out = out};
    r.text = malloc(LINE_LIMIT);
    r.statement = calloc(LINE_LIMIT, 1);
    int status = r.text && r.statement ? read_all(&r) : fail_at(&r, 0, "out of memory");
    free(r.text);
    free(r.statement);
    free(r.insn_lineno);
    free(r.regs);
    for (int i = 0; i < r.nfiles; i++) free(r.files[i].base);
    free(r.files);
    if (status != 0) code_free(out);
    return status;
}

/* ptxas -v's report: "Compiling entry function 'SYM'" opens a kernel, "Used N registers" and
 * "N bytes smem" after it give its resources. A kernel the report names that the code lacks, or
 * one the report leaves out, keeps 0 (occupancy: the device's most). */
int code_read_ptxas(FILE *in, const char *path, const char *names, CodeFile *code, char *err, size_t err_size) {
    char text[4096], name[256];
    long lineno = 0;
    CodeKernel *k = NULL;
    int status;
    while ((status = code_read_line(in, text, sizeof text, &lineno, err, err_size, path)) == 1) {
        const char *at = strstr(text, "Compiling entry function '");
        if (at) {
            at += strlen("Compiling entry function '");
            const char *end = strchr(at, '\'');
            if (!end || end - at >= (long)sizeof name) return code_error(err, err_size, path, lineno, "an entry function's name without its closing quote");
            char symbol[256];
            snprintf(symbol, sizeof symbol, "%.*s", (int)(end - at), at);
            code_trace_name(names, symbol, name, sizeof name);
            k = NULL;
            for (int i = 0; i < code->nkernels && !k; i++)
                if (strcmp(code->kernels[i].name, name) == 0) k = &code->kernels[i];
            continue;
        }
        if (!k) continue;
        const char *used = strstr(text, "Used ");
        if (used && strstr(used, " registers")) k->vgprs = atoi(used + 5);
        const char *smem = strstr(text, " bytes smem");
        if (smem) {
            const char *digits = smem;
            while (digits > text && isdigit((unsigned char)digits[-1])) digits--;
            k->lds_bytes = atoi(digits);
        }
    }
    return status < 0 ? -1 : 0;
}

static double round_up(double x, double unit) { return unit * floor((x + unit - 1) / unit); }

/* Compute capability 9.0 (H100, H200). CUDA C++ Programming Guide, NVIDIA, Compute Capabilities
 * appendix, technical specifications table: 32 resident blocks, 64 resident warps and 64 K 32-bit
 * registers per SM, 228 KB of shared memory per SM; 1 KB of shared memory per block is reserved
 * for system use (the compute capability 9.0 section). CUDA toolkit 13.0's cuda_occupancy.h
 * (NVIDIA): registers allocated per warp in units of 256, each of the 4 SM sub-partitions holding
 * a quarter of them; shared memory allocated in units of 128 bytes. The driver sizes the shared
 * memory carve-out for the kernel (the compute capability 9.0 section): all 228 KB is taken. */
double code_sm90_warps_per_scheduler(const CodeKernel *k, double block_threads) {
    const double sm_blocks = 32, sm_warps = 64, sm_registers = 65536, partitions = 4, register_unit = 256;
    const double smem_bytes = 233472, smem_unit = 128, smem_reserved = 1024, warp = 32;
    if (k->vgprs <= 0 || block_threads <= 0) return 0;
    double warps = floor((block_threads + warp - 1) / warp);
    if (warps < 1) return 0;
    double registers_per_warp = round_up(k->vgprs * warp, register_unit);
    double blocks = fmin(sm_blocks, floor(sm_warps / warps));
    if (registers_per_warp * round_up(warps, partitions) > sm_registers) return 0;
    blocks = fmin(blocks, floor(floor(sm_registers / partitions / registers_per_warp) * partitions / warps));
    blocks = fmin(blocks, floor(smem_bytes / round_up(k->lds_bytes + smem_reserved, smem_unit)));
    return blocks * warps / partitions;
}
